package dev.ariadne.server.connection;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.pool.RoutePools;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.PoolStats;

/**
 * The low-resources mode: while a pool is starved (every worker busy and work waiting for one),
 * a client that keeps one of its workers waiting, for bytes of its request or for room to write
 * its response, gets {@code low-resources.stall-timeout} instead of the usual limits, so that a
 * few slow clients cannot hold every worker while others queue behind them. Read on demand, by
 * whoever waits: nothing is sampled, and nothing is paid while no client is slow.
 *
 * <p>Thread-safe: the pools' figures are read as they are, without a lock; a decision taken on
 * figures a moment old only moves a cut-off by that moment.
 */
public final class LowResources {

	private final boolean enabled;

	private final long stallNanos;

	private final RoutePools routePools;

	private volatile PoolStats defaultPool;

	LowResources(ServerConfig config, RoutePools routePools) {
		this.enabled = config.lowResourcesEnabled();
		this.stallNanos = config.lowResourcesStallTimeout().toNanos();
		this.routePools = routePools;
	}

	/**
	 * Sets the server's own pool, once its transport has made it.
	 * @param pool the default pool's figures
	 */
	public void defaultPool(PoolStats pool) {
		this.defaultPool = pool;
	}

	/**
	 * Returns how often a wait that holds a worker looks again whether its pool starved: a
	 * quarter of the stall timeout while the mode is on (so a cut comes at most that late), else
	 * never.
	 * @return the interval in nanoseconds, {@link Long#MAX_VALUE} when the mode is off
	 */
	public long pollNanos() {
		return this.enabled ? Math.max(1, this.stallNanos / 4) : Long.MAX_VALUE;
	}

	/**
	 * Returns the longest a client may keep a worker of a pool waiting now.
	 * @param pool the pool's name ({@link Route#DEFAULT_POOL} for the server's own), or
	 * {@code null} when the wait holds no worker
	 * @return the stall timeout while that pool is starved, else {@link Long#MAX_VALUE}
	 */
	public long stallNanos(String pool) {
		return (this.enabled && pool != null && starved(pool)) ? this.stallNanos : Long.MAX_VALUE;
	}

	/**
	 * Returns whether a pool is starved now: every worker busy and work waiting for one.
	 * @param pool the pool's name
	 * @return whether starved
	 */
	public boolean starved(String pool) {
		PoolStats stats = Route.DEFAULT_POOL.equals(pool) ? this.defaultPool : this.routePools.get(pool);
		return stats != null && stats.queued() > 0 && stats.busyWorkers() >= stats.maxWorkers();
	}

}
