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

}
