package dev.ariadne.server.stats;

/**
 * Why the server refused a connection or a request, as the {@code reason} metric tag.
 */
public enum RejectReason {

	/** The default pool's queue was full; the request was answered 503. */
	QUEUE_FULL("queue-full"),

	/** A named route pool's queue was full; the request was answered 503. */
	POOL_FULL("pool-full"),

	/** The server was shutting down; the connection was refused or answered 503. */
	SHUTTING_DOWN("shutting-down"),

	/**
	 * A WebSocket handshake over {@code websocket.max-sessions}, or made while the server shut
	 * down, answered 503.
	 */
	WEBSOCKET_SESSIONS("websocket-sessions");

	private final String tag;

	RejectReason(String tag) {
		this.tag = tag;
	}

	/**
	 * Returns the value of the {@code reason} tag.
	 * @return the tag value
	 */
	public String tag() {
		return this.tag;
	}

}
