/**
 * The WebSocket codec (RFC 6455, with permessage-deflate of RFC 7692), with no sockets and no
 * threads: frames in ({@link dev.ariadne.websocket.FrameReader}, a push parser over
 * {@code ByteBuffer}s in pieces of any size, reporting to a
 * {@link dev.ariadne.websocket.FrameListener}) and out ({@link dev.ariadne.websocket.FrameWriter},
 * {@link dev.ariadne.websocket.MessageDeflater}), the closing handshake's states
 * ({@link dev.ariadne.websocket.CloseHandshake}), and the opening handshake's server side as pure
 * functions ({@link dev.ariadne.websocket.Handshake},
 * {@link dev.ariadne.websocket.PerMessageDeflate}).
 *
 * <p>Every error the peer causes is a {@link dev.ariadne.websocket.WebSocketException} carrying
 * the close code to fail the connection with; the limits are in one record,
 * {@link dev.ariadne.websocket.WebSocketLimits}. It imports only {@code java.*} and
 * {@code dev.ariadne.http} (the request head a handshake is checked from); the protocol layer
 * puts it on a wire after an upgrade.
 */
package dev.ariadne.websocket;
