package dev.ariadne.server.protocol;

/**
 * Where an HTTP/1.1 connection is in its life, as its wire sees it: what the wire's own thread
 * does with the connection's readiness ({@link Http1Protocol#phase()}).
 */
public enum Http1Phase {

	/** Reading a request (or waiting for one, when idle). */
	READING,

	/** A worker runs the exchange; reading is paused. */
	DISPATCHED,

	/** The exchange is over; the rest of its response is being written. */
	FLUSHING,

	/**
	 * The last response (an error, or one after which the connection closes) is being
	 * written, then input is discarded until the client closes or the linger time is over.
	 */
	CLOSING,

	/** Closed. */
	CLOSED

}
