package dev.ariadne.server.websocket;

import dev.ariadne.server.Request;

/**
 * Decides whether to accept a WebSocket handshake, and makes the listener of the session it
 * opens: the application's half of a {@link WebSocketHandler}. Called on the worker that runs the
 * handshake, before the {@code 101}, once the request is known to be a valid handshake and the
 * listener has room for another session.
 */
@FunctionalInterface
public interface WebSocketEndpoint {

	/**
	 * Returns the listener of a new session, or refuses it.
	 * @param request the handshake request: its path, path variables, query, headers (an
	 * {@code Origin} to check, cookies), valid during this call only
	 * @return the session's listener; {@code null} refuses the handshake with {@code 403}
	 * @throws Exception anything; the handshake is then answered {@code 500}
	 */
	WebSocketListener open(Request request) throws Exception;

}
