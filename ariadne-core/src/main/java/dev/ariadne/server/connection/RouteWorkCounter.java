package dev.ariadne.server.connection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

import dev.ariadne.server.stats.RouteWork;

/**
 * Worker time per pool and route, for the diagnosis: one map lookup and two adds per exchange,
 * as cheap as the request metrics' timer lookup. The pools are known up front, so only the
 * route maps are concurrent; route values are bounded (templates and the fixed values).
 */
final class RouteWorkCounter {

	private final Map<String, ConcurrentMap<String, Counter>> pools = new HashMap<>();

	/**
	 * Creates a counter for the given pools.
	 * @param poolNames every pool a route may run in, {@code default} included
	 */
	RouteWorkCounter(Iterable<String> poolNames) {
		for (String pool : poolNames) {
			this.pools.put(pool, new ConcurrentHashMap<>());
		}
	}

	void add(String pool, String route, long nanos) {
		ConcurrentMap<String, Counter> routes = this.pools.get(pool);
		if (routes == null) {
			return;
		}
		Counter counter = routes.get(route);
		if (counter == null) {
			counter = routes.computeIfAbsent(route, (key) -> new Counter());
		}
		counter.exchanges.increment();
		counter.nanos.add(Math.max(0, nanos));
	}

	List<RouteWork> snapshot(String pool) {
		ConcurrentMap<String, Counter> routes = this.pools.get(pool);
		if (routes == null) {
			return List.of();
		}
		List<RouteWork> work = new ArrayList<>(routes.size());
		routes.forEach(
				(route, counter) -> work.add(new RouteWork(route, counter.exchanges.sum(), counter.nanos.sum())));
		return work;
	}

	private static final class Counter {

		final LongAdder exchanges = new LongAdder();

		final LongAdder nanos = new LongAdder();

	}

}
