package dev.ariadne.server.pool;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.internal.Threads;
import dev.ariadne.server.internal.VirtualThreads;

/**
 * The route pools of one server ({@code ariadne.server.pools.*}, bulkheads for heavy routes):
 * created from the configuration, looked up by name when a request is dispatched, stopped after
 * the connections are gone. Immutable after construction; any thread.
 */
public final class RoutePools {

	/** How long a shutdown waits for a route pool's running handlers before interrupting them. */
	private static final long TERMINATION_MILLIS = 1000;

	private final Map<String, TaskPool> pools;

	/**
	 * Creates the pools a configuration names; their threads start on demand.
	 * @param config the configuration
	 * @throws IllegalStateException if a pool asks for virtual threads on a JVM without them,
	 * naming its property
	 */
	public RoutePools(ServerConfig config) {
		Map<String, TaskPool> pools = new LinkedHashMap<>();
		config.pools().forEach((name, pool) -> pools.put(name, create(config.name(), name, pool)));
		this.pools = Collections.unmodifiableMap(pools);
	}

	private static TaskPool create(String listener, String name, ServerConfig.PoolConfig pool) {
		String prefix = "ariadne-" + listener + "-pool-" + name;
		if (pool.virtual()) {
			return new VirtualPool(name, pool.maxThreads(), pool.queueCapacity(),
					VirtualThreads.factory(prefix + "-", "ariadne.server.pools." + name + ".virtual=true",
							"ariadne.server.pools." + name + ".virtual=false"));
		}
		return new WorkerPool(name, 0, pool.maxThreads(), pool.queueCapacity(), Threads.named(prefix, true));
	}

	/**
	 * Returns the pool of a route.
	 * @param name the pool's name, as the route gives it
	 * @return the pool, or {@code null} for {@code default} (the model's own workers)
	 */
	public TaskPool get(String name) {
		return this.pools.get(name);
	}

	/**
	 * Returns every route pool, in configuration order, for the statistics.
	 * @return the pools
	 */
	public List<TaskPool> all() {
		return new ArrayList<>(this.pools.values());
	}

	/**
	 * Stops the pools once the connections are gone: queued handlers never run, running ones
	 * get a moment to finish and are interrupted after it.
	 * @throws InterruptedException if interrupted while waiting
	 */
	public void shutdown() throws InterruptedException {
		for (TaskPool pool : this.pools.values()) {
			pool.shutdownAndDrainQueue();
		}
		for (TaskPool pool : this.pools.values()) {
			if (!pool.awaitTermination(TERMINATION_MILLIS)) {
				pool.shutdownNow();
			}
		}
	}

}
