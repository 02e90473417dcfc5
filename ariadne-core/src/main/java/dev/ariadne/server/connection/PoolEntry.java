package dev.ariadne.server.connection;

import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.stats.RejectReason;

/**
 * How a routed request reaches a worker of the pool that runs it; each I/O model supplies one,
 * and {@link HttpExchange#dispatch} is the one path every request takes through it.
 *
 * <ul>
 * <li>{@code event-loop}: the selector queues the exchange on the pool (the route's own, or
 * the model's workers) and goes on; the connection comes back to the selector when the
 * exchange is over.</li>
 * <li>{@code blocking}: the connection's worker runs the exchange itself, or hands it to the
 * route's pool and waits for it.</li>
 * <li>{@code virtual-threads}: the same, once the request has one of the model's permits.</li>
 * </ul>
 *
 * @param <X> what entering may throw: nothing checked for a model that never waits
 */
@FunctionalInterface
public interface PoolEntry<X extends Exception> {

	/**
	 * Runs or queues an exchange on the pool that serves its request.
	 * @param routePool the route's own pool, or {@code null} for the model's default pool
	 * @param exchange the exchange
	 * @return {@code null} when the exchange ran or will run; otherwise why it was refused
	 * ({@link RejectReason#POOL_FULL} for a route pool, {@link RejectReason#QUEUE_FULL} for the
	 * default pool), and then it never runs
	 * @throws X if waiting for a turn failed (an interrupt)
	 */
	RejectReason enter(TaskPool routePool, Runnable exchange) throws X;

}
