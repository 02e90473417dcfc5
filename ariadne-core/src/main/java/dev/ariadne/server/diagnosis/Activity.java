package dev.ariadne.server.diagnosis;

/**
 * What one sampled worker was doing, read from its state and stack.
 *
 * @param kind what it was doing
 * @param frame for {@link Kind#WAITING}, what it waited in (the JDK frame called from
 * application code, {@code Semaphore.acquire}), or {@code null} when it waited on a monitor
 * the application code itself entered; for {@link Kind#RUNNING}, {@code null}
 * @param caller the first application frame ({@code com.example.Repo.find}), for
 * {@link Kind#WAITING} and {@link Kind#RUNNING}; {@code null} otherwise
 * @param state the thread's state when sampled
 */
record Activity(Kind kind, String frame, String caller, Thread.State state) {

	/**
	 * What a worker does, as far as a starved pool is concerned.
	 */
	enum Kind {

		/** Owns a connection that is idle between requests (blocking model). */
		IDLE_CONNECTION,

		/** Reads a request (head or body) from a client that has not sent it all yet. */
		CLIENT_READ,

		/** Writes a response to a client that does not read it fast enough. */
		CLIENT_WRITE,

		/** Waits in application code: a lock, a pool, a sleep, a socket of a downstream call. */
		WAITING,

		/**
		 * Waits for a route pool to run its request's handler: Ariadne's own hand-off in the
		 * socket models, never a downstream.
		 */
		HANDED_OFF,

		/** Runs: application or server code on the CPU. */
		RUNNING,

		/** Not doing the pool's work: an idle worker, or a connection waiting for a permit. */
		NOT_BUSY

	}

}
