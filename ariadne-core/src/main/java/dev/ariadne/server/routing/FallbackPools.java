package dev.ariadne.server.routing;

import dev.ariadne.http.Method;

/**
 * Picks the worker pool for a request that no {@link Route} matches and that goes to the
 * server's fallback handler (a servlet container, for example), so that route pools
 * (bulkheads) apply to those requests too.
 *
 * <p>Called once per such request, before the request is handed to a worker: in the
 * {@code event-loop} model on a selector thread. It must therefore be fast, must not block and
 * must not throw.
 */
@FunctionalInterface
public interface FallbackPools {

	/** Runs every fallback request in the server's own pool. */
	FallbackPools DEFAULT = (method, path) -> Route.DEFAULT_POOL;

	/**
	 * Returns the pool that runs the fallback handler for a request.
	 * @param method the request method
	 * @param path the percent-decoded path of the request, without the query
	 * @return {@link Route#DEFAULT_POOL} or the name of a configured route pool
	 */
	String pool(Method method, String path);

}
