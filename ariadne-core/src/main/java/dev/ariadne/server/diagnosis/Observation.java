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
 * @param averageQueued the items waiting for a worker, on average over the window
 * @param dequeuedInWindow items that waited and got a worker over the window, -1 where the pool
 * does not count them
 * @param starvedNow whether the pool's verdict is starved now, for the hysteresis of
 * {@link #served()}
 * @param http2Connections the listener's open HTTP/2 connections (h2 and h2c), counted for the
 * default pool when it is saturated; else 0
 * @param http2QueuedStreams the HTTP/2 streams among {@code queued}, for the default pool; else 0
 * @param http2AtLimit the listener's HTTP/2 connections at {@code http2.max-concurrent-streams},
 * for the default pool; else 0
 * @param webSocketSessions the listener's open WebSocket sessions, for the default pool; else 0
 */
record Observation(String pool, boolean defaultPool, ServerConfig config, int busy, int max, int queued,
		int openConnections, long acceptQueueDepth, long acceptQueueDepthRecent, long acceptQueueCapacity,
		long overflows, Duration averageIdle, Samples samples, List<RouteWork> routeWindow, int windowSeconds,
		double processCores, double machineBusy, int cores, double averageQueued, long dequeuedInWindow,
		boolean starvedNow, int http2Connections, int http2QueuedStreams, int http2AtLimit, int webSocketSessions) {

	/**
	 * The longest an item may wait for a worker, as the window shows it, for the pool to count
	 * as serving every client in turn: a starved pool's items wait longer, or never get one.
	 */
	static final double SERVED_WAIT_SECONDS = 1.0;

	/** The wait below which a starved pool counts as serving every client again. */
	static final double RECOVERED_WAIT_SECONDS = 0.5;

	/**
	 * Returns whether every worker is busy and something waits for one.
	 * @return whether the pool is short of workers now
	 */
	boolean saturatedWithWaiting() {
		return this.busy >= this.max && this.queued > 0;
	}

	/**
	 * Returns how long an item waits for a worker, by Little's law over the window: the items
	 * waiting on average over the rate at which they got a worker.
	 * @return the wait in seconds; infinite when items waited and none got a worker, NaN where
	 * the pool does not count them
	 */
	double waitSeconds() {
		if (this.dequeuedInWindow < 0) {
			return Double.NaN;
		}
		if (this.dequeuedInWindow == 0) {
			return (this.averageQueued > 0) ? Double.POSITIVE_INFINITY : 0;
		}
		return this.averageQueued * this.windowSeconds / this.dequeuedInWindow;
	}

	/**
	 * Returns whether every client is served in turn: what waits for a worker gets one within
	 * {@value #SERVED_WAIT_SECONDS} s ({@value #RECOVERED_WAIT_SECONDS} s for a pool starved
	 * now, so that a wait near the line does not flap the verdict).
	 * @return whether the queue moves fast enough; {@code false} where it is not counted
	 */
	boolean served() {
		double wait = waitSeconds();
		return wait <= (this.starvedNow ? RECOVERED_WAIT_SECONDS : SERVED_WAIT_SECONDS);
	}

	/**
	 * Returns whether the process, or the machine, is using nearly all of the CPU.
	 * @return whether the cores are the limit
	 */
	boolean cpuSaturated() {
		return this.processCores >= 0.85 * this.cores || this.machineBusy >= 0.9;
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
