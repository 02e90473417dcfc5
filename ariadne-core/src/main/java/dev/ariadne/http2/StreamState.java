package dev.ariadne.http2;

/**
 * The states of a stream a client opens (RFC 9113 §5.1). A server that never pushes has no
 * reserved states.
 */
public enum StreamState {

	/** Not yet opened: a stream id above the highest the client has used. */
	IDLE,

	/** Both sides may send. */
	OPEN,

	/** The client has ended its side ({@code END_STREAM}); the server may still send. */
	HALF_CLOSED_REMOTE,

	/** The server has ended its side; the client may still send. */
	HALF_CLOSED_LOCAL,

	/** Neither side sends; only {@code PRIORITY}, and frames already in flight, may arrive. */
	CLOSED;

	/**
	 * Returns whether the client may still send {@code DATA} or trailers.
	 * @return whether the remote side is open
	 */
	public boolean remoteOpen() {
		return this == OPEN || this == HALF_CLOSED_LOCAL;
	}

	/**
	 * Returns whether the server may still send on the stream.
	 * @return whether the local side is open
	 */
	public boolean localOpen() {
		return this == OPEN || this == HALF_CLOSED_REMOTE;
	}

	/**
	 * Returns the state after the client ends its side.
	 * @return the next state
	 */
	StreamState remoteEnded() {
		return (this == OPEN) ? HALF_CLOSED_REMOTE : CLOSED;
	}

	/**
	 * Returns the state after the server ends its side.
	 * @return the next state
	 */
	StreamState localEnded() {
		return (this == OPEN) ? HALF_CLOSED_LOCAL : CLOSED;
	}

}
