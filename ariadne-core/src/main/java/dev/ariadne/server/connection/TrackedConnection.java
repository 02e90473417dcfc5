package dev.ariadne.server.connection;

/**
 * An open connection as seen by graceful shutdown.
 */
public interface TrackedConnection {

	/**
	 * Closes the connection if it is between requests. Called from the shutdown thread.
	 * @return whether it was idle and is now closed
	 */
	boolean closeIfIdle();

	/**
	 * Closes the connection now, whatever it is doing. Called from the shutdown thread.
	 */
	void abort();

	/**
	 * Closes the connection if it has been idle past its deadline or a write has made no
	 * progress for longer than the write timeout. Called periodically by the models whose
	 * reads and writes block a thread, so that a connection waiting for its next request
	 * blocks in a plain read, without a socket timeout; the others enforce their timeouts
	 * themselves.
	 * @param nowNanos the current {@link System#nanoTime()}
	 * @param writeTimeoutNanos the longest a write may make no progress
	 */
	default void closeIfExpired(long nowNanos, long writeTimeoutNanos) {
	}

}
