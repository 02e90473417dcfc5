package dev.ariadne.server.diagnosis;

import java.time.Duration;
import java.util.List;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.stats.RouteWork;

/**
 * What one evaluation saw of one pool, and of its listener when it is the default pool: the
 * input of {@link Rules}.
 *
 * @param pool the pool's name
 * @param defaultPool whether it is the listener's own pool, which answers for the listener's
 * connections and accept queue too
 * @param config the listener's configuration, for the advice's current values
 * @param busy busy workers
 * @param max most workers
 * @param queued items waiting for a worker
 * @param openConnections connections open
 * @param acceptQueueDepth connections in the kernel's accept queue now, -1 where unknown
 * @param acceptQueueDepthRecent the most seen there over the last samples, -1 where unknown
 * @param acceptQueueCapacity the accept queue's effective length, -1 where unknown
 * @param overflows connections the namespace's accept queues dropped since the last
 * evaluation, -1 where unknown
 * @param averageIdle how long idle connections have been idle, on average
 * @param samples what the workers were doing, {@link Samples#NONE} when not sampled
 * @param routeWindow worker time per route over the window
 * @param windowSeconds the route-work window's length
 * @param processCores CPU the process used over the last second, in cores; NaN where unknown
 * @param machineBusy share of the machine's CPU in use over the last second, 0 to 1; NaN where
 * unknown
 * @param cores the cores available to the JVM
 */
record Observation(String pool, boolean defaultPool, ServerConfig config, int busy, int max, int queued,
		int openConnections, long acceptQueueDepth, long acceptQueueDepthRecent, long acceptQueueCapacity,
		long overflows, Duration averageIdle, Samples samples, List<RouteWork> routeWindow, int windowSeconds,
		double processCores, double machineBusy, int cores) {

	/**
	 * Returns whether every worker is busy and something waits for one.
	 * @return whether the pool is short of workers now
	 */
	boolean saturatedWithWaiting() {
		return this.busy >= this.max && this.queued > 0;
	}

	/**
	 * Returns what waits for a worker in this pool, for sentences.
	 * @return {@code connections} for the blocking model's own pool, else {@code requests}
	 */
	String waitingNoun() {
		return (this.defaultPool && this.config.ioModel() == IoModel.BLOCKING) ? "connections" : "requests";
	}

	/**
	 * Returns the demand seen: what holds a worker plus what waits for one.
	 * @return busy plus queued
	 */
	int demand() {
		return this.busy + this.queued;
	}

}
