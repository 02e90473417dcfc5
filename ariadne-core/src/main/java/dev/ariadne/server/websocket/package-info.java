/**
 * WebSocket sessions on Ariadne's own exchanges (RFC 6455, with RFC 7692's permessage-deflate):
 * a {@link dev.ariadne.server.websocket.WebSocketHandler} answers the opening handshake of a
 * route with {@code 101} through {@link dev.ariadne.server.Response#upgrade()}, and a
 * {@link dev.ariadne.server.websocket.WebSocketSession} then runs the connection for a
 * {@link dev.ariadne.server.websocket.WebSocketListener}: frames read as they arrive and only as
 * fast as the listener takes them, messages sent with back-pressure, pings answered, the closing
 * handshake, the idle timeout and keep-alive pings, and the limits of
 * {@code ariadne.server.websocket.*}. {@link dev.ariadne.server.websocket.WebSocketSessions}
 * holds a listener's sessions: their count and limit, their messages, their one timer, and
 * their close when the server shuts down.
 *
 * <p>It imports the API ({@code dev.ariadne.server}), the WebSocket codec
 * ({@code dev.ariadne.websocket}), {@code dev.ariadne.http} and the statistics, nothing of the
 * transports: a session is an upgraded exchange, the same in every I/O model.
 */
package dev.ariadne.server.websocket;
