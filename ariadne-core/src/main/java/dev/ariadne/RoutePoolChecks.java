package dev.ariadne;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.FallbackPools;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.routing.Router;

/**
 * What a server checks of the pools its routes name: every route's pool is configured, and a
 * fallback's choice of a pool that is not runs in the default pool, said once.
 */
final class RoutePoolChecks {

	private RoutePoolChecks() {
	}

	/** Every pool a route may run in: the model's own, then the route pools. */
	static List<String> poolNames(ServerConfig config) {
		List<String> names = new ArrayList<>();
		names.add(Route.DEFAULT_POOL);
		names.addAll(config.pools().keySet());
		return names;
	}

	/** Fails naming the property when a route runs in a pool that is not configured. */
	static void check(ServerConfig config, Router router) {
		for (Route route : router.routes()) {
			if (!Route.DEFAULT_POOL.equals(route.pool()) && !config.pools().containsKey(route.pool())) {
				throw new IllegalArgumentException("Route " + route.method() + " " + route.template() + " runs in pool '"
						+ route.pool() + "', which is not configured (ariadne.server.pools." + route.pool() + ".threads)");
			}
		}
	}

	/** A fallback's pool choice that runs an unknown pool's requests in the default one, logged once per pool. */
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
