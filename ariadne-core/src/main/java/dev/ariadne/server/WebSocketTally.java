package dev.ariadne.server;

/**
 * A WebSocket session that a WebSocket implementation other than the server's own runs on an
 * upgraded exchange (the servlet container's Jakarta WebSocket, say), as the listener the
 * exchange arrived on counts it: one of the listener's open sessions, against
 * {@code websocket.max-sessions} and beside its routes' sessions, until it ends; and its
 * messages each way. The listener's statistics, its meters and its diagnosis then see the session
 * as they see a route's.
 *
 * <p>Taken during the handshake with {@link Response#countWebSocket()}, before
 * {@link Response#upgrade()}. The implementation reports each whole message once, however many
 * frames it took ({@link #received()}, {@link #sent()}), and the session's end ({@link #end()});
 * the server ends it too when the exchange ends (the connection closed, or the exchange completed
 * or aborted), so that a session whose end is never reported cannot hold its place.
 *
 * <p>Thread-safe; no call blocks, and {@link #received()} and {@link #sent()} allocate nothing.
 */
public interface WebSocketTally {

	/**
	 * A whole message arrived from the client.
	 */
	void received();

	/**
	 * A whole message went to the client.
	 */
	void sent();

	/**
	 * The session ended (or never opened): its place among the listener's sessions is given back.
	 * Calls after the first do nothing.
	 */
	void end();

}
