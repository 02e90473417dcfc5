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
	 * Closes the connection if a write has made no progress for longer than the timeout.
	 * Called periodically by the models whose writes block a thread; the others enforce write
	 * timeouts themselves.
	 * @param nowNanos the current {@link System#nanoTime()}
	 * @param timeoutNanos the longest a write may make no progress
	 */
	default void closeIfWriteStalled(long nowNanos, long timeoutNanos) {
	}

}
