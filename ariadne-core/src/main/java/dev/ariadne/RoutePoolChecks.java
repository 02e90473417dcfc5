package dev.ariadne;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.FallbackPools;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.routing.Router;

/**
 * That the pools routes name are configured ({@code ariadne.server.pools.<name>}): a route's is
 * checked when the server is built, a fallback handler's when it picks one, per request.
 */
final class RoutePoolChecks {

	private RoutePoolChecks() {
	}

	/**
	 * Fails for a route whose pool is not configured.
	 * @param config the configuration
	 * @param router the routes
	 */
	static void checkRoutes(ServerConfig config, Router router) {
		for (Route route : router.routes()) {
			if (!Route.DEFAULT_POOL.equals(route.pool()) && !config.pools().containsKey(route.pool())) {
				throw new IllegalArgumentException("Route " + route.method() + " " + route.template() + " runs in pool '"
						+ route.pool() + "', which is not configured (ariadne.server.pools." + route.pool() + ".threads)");
			}
		}
	}

	/**
	 * Wraps a fallback's pool choice: a pool that is not configured runs the request in the
	 * default pool, logged once.
	 * @param pools the fallback's choice
	 * @param config the configuration
	 * @return the checked choice
	 */
	static FallbackPools checked(FallbackPools pools, ServerConfig config) {
		Set<String> reported = ConcurrentHashMap.newKeySet();
		return (method, path) -> {
			String pool = pools.pool(method, path);
			if (pool == null || Route.DEFAULT_POOL.equals(pool) || config.pools().containsKey(pool)) {
				return (pool != null) ? pool : Route.DEFAULT_POOL;
			}
			if (reported.add(pool)) {
				System.getLogger(AriadneServer.class.getName())
					.log(System.Logger.Level.WARNING, "Fallback requests picked pool '" + pool
							+ "', which is not configured (ariadne.server.pools." + pool
							+ ".threads); running them in the default pool");
			}
			return Route.DEFAULT_POOL;
		};
	}

}
