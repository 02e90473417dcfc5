package dev.ariadne.server.connection;

import dev.ariadne.server.pool.TaskPool;

/**
 * How an I/O model runs the work of a suspended exchange ({@link AsyncExchange}); each
 * model's connection supplies one to its {@link HttpExchange}.
 *
 * <ul>
 * <li>{@code event-loop}: a task goes to the pool (the route's, or the workers) at once; the
 * end of the exchange too, after a turn through the selector.</li>
 * <li>{@code blocking}, {@code virtual-threads}: a task is queued for the connection's own
 * thread, which waits while the exchange is suspended and runs each one through the model's
 * pool entry (a permit, or the route pool), then the end of the exchange.</li>
 * </ul>
 *
 * <p>Both methods are called from any thread but a selector thread, and never block.
 */
public interface AsyncHost {

	/**
	 * Runs a task of a suspended exchange on a worker of the exchange's pool.
	 * @param routePool the route's pool, or {@code null} for the model's own
	 * @param task the task; it handles its own failures
	 * @return whether the task was taken; when not, it never runs
	 */
	boolean execute(TaskPool routePool, Runnable task);

	/**
	 * Ends a suspended exchange whose handler has returned: runs
	 * {@link HttpExchange#endSuspended()} on a worker of the exchange's pool, then goes on with
	 * the connection as after any exchange. Called once per suspended exchange.
	 * @param routePool the route's pool, or {@code null} for the model's own
	 */
	void resume(TaskPool routePool);

	/**
	 * Runs a task once the request body would give a non-blocking read something (bytes, its
	 * end, or a failure: a gap longer than {@code request.header-timeout}, a closed
	 * connection); the body just said it would not.
	 * @param routePool the route's pool, or {@code null} for the model's own
	 * @param task the task, run on a worker of that pool
	 */
	void awaitReadable(TaskPool routePool, Runnable task);

	/**
	 * Returns whether the connection takes more non-blocking writes now: fewer than 64 KiB
	 * queued for the client and the buffer budget not spent. When not, runs a task once the
	 * queue has drained below 16 KiB (or the budget has room again).
	 * @param routePool the route's pool, or {@code null} for the model's own
	 * @param task the task, run on a worker of that pool when the answer was {@code false}
	 * @return whether to write now
	 */
	boolean writable(TaskPool routePool, Runnable task);

}
