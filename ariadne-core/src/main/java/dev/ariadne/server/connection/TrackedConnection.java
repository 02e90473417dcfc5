package dev.ariadne.server.connection;

import dev.ariadne.server.stats.StreamCount;

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

	/**
	 * Returns the thread that serves this connection from accept to close, for the models that
	 * give each connection one; read by the diagnosis, from any thread.
	 * @return the thread, or {@code null} when the connection has none (event loop)
	 */
	default Thread thread() {
		return null;
	}

	/**
	 * Returns since when the connection has been idle between requests, for the diagnosis;
	 * any thread.
	 * @return the {@link System#nanoTime()} at which it went idle, or 0 when it is not idle
	 * now or the model does not track it
	 */
	default long idleSinceNanos() {
		return 0;
	}

	/**
	 * Returns the name of the connection's protocol now ({@code http/1.1}, {@code h2},
	 * {@code h2c}), for the connection meters; any thread.
	 * @return the name
	 */
	default String protocolName() {
		return "http/1.1";
	}

	/**
	 * Returns what the connection's HTTP/2 streams are doing; any thread.
	 * @return the count, {@link StreamCount#NONE} for an HTTP/1.1 connection
	 */
	default StreamCount streams() {
		return StreamCount.NONE;
	}

}
