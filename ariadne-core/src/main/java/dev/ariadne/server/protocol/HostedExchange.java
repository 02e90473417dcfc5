package dev.ariadne.server.protocol;

/**
 * An exchange as its model's {@link dev.ariadne.server.connection.AsyncHost} calls it back
 * ({@link Wire#host}): the end of its suspension, a task its pool refused, and the wait of a
 * non-blocking reader of its body. One per connection in HTTP/1.1; one per stream where a
 * protocol multiplexes them.
 */
public interface HostedExchange {

	/**
	 * Ends the suspended exchange, on a worker of its pool, and goes on as after any exchange.
	 * @param pool the pool of the exchange
	 */
	void endSuspended(String pool);

	/** Gives up the suspended exchange, whose end cannot run: the wire closes the connection. */
	void abandonSuspended();

	/** A pool refused a task of the suspended exchange: the exchange fails. */
	void taskRefused();

	/**
	 * Starts the wait of a non-blocking reader for more of the body.
	 * @return when it ends by the body's limits ({@link System#nanoTime()})
	 */
	long nonBlockingReadWait();

	/**
	 * A non-blocking reader's wait for more of the body ran out, by the wire's account: unless
	 * bytes came meanwhile and it waits anew, the body fails and the reader is to be called
	 * back. The wire's own thread.
	 * @param now the time
	 * @return whether the body failed; else it waits until {@link #nonBlockingReadDeadline()}
	 */
	boolean nonBlockingReadExpired(long now);

	/**
	 * Returns when the wait of a non-blocking reader for more of the body ends.
	 * @return the {@link System#nanoTime()}, or 0 when it waits no more
	 */
	long nonBlockingReadDeadline();

	/**
	 * Reads the body for a non-blocking reader, waiting, on the wire's own thread: how the socket
	 * models emulate readiness.
	 */
	void fetchBody();

}
