package dev.ariadne.server.protocol;

/**
 * Where a connection is in its life, as its wire sees it: what the wire's own thread does with
 * the connection's readiness ({@link Protocol#phase()}). The same for every protocol; a protocol
 * that multiplexes exchanges on its own thread (HTTP/2) stays {@link #READING} until it closes,
 * but while its output waits for a client that does not read ({@link #FLUSHING}).
 */
public enum Phase {

	/** The wire reads for the protocol (or waits for input, when idle). */
	READING,

	/**
	 * A worker runs the exchange and owns the input: the wire reads nothing but what that worker
	 * demands.
	 */
	DISPATCHED,

	/**
	 * The exchange is over and the rest of its response is being written; or (HTTP/2) the output
	 * is backlogged, and input waits until it is written.
	 */
	FLUSHING,

	/**
	 * The last response (an error, or one after which the connection closes) is being
	 * written, then input is discarded until the client closes or the linger time is over.
	 */
	CLOSING,

	/** Closed. */
	CLOSED

}
