package dev.ariadne.server.diagnosis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.stats.RouteWork;

/**
 * Decides, from one observation, whether a pool is starved and for which cause, and writes the
 * evidence and the advice with values computed from the figures observed. Pure: the same
 * observation always gives the same finding.
 *
 * <p>Order of the decision: the listener's connection limit and accept queue first (clients
 * that wait before any worker could help); then, for a pool whose workers are all busy while
 * work waits, where its workers are: idle connections, slow clients, or handler work; handler
 * work is a hot route when one route takes most of the worker time while others get through,
 * else blocked downstream when most workers wait and cpu-bound when most run.
 */
final class Rules {

	/** Share of the pool's worker time above which one route is a hot route. */
	static final double HOT_ROUTE_SHARE = 0.7;

	/** Spare capacity added to observed demand in advised sizes. */
	private static final double SPARE = 1.25;

	/** Timeout advised when the configured one lets slow or idle clients hold workers longer. */
	private static final Duration SHORT_TIMEOUT = Duration.ofSeconds(5);

	/** Stall timeout advised when the configured one lets slow clients hold starved workers longer. */
	private static final Duration SHORT_STALL = Duration.ofSeconds(1);

	private static final String PREFIX = "ariadne.server.";

	private Rules() {
	}

	/**
	 * Decides on one observation.
	 * @param o the observation
	 * @return the finding, or {@code null} when the pool is not starved
	 */
	static Finding decide(Observation o) {
		if (o.defaultPool()) {
			Finding listener = listenerFinding(o);
			if (listener != null) {
				return listener;
			}
		}
		if (!o.saturatedWithWaiting()) {
			return null;
		}
		Samples s = o.samples();
		int handlerWork = s.waiting() + s.running();
		if (s.total() > 0 && s.idle() >= s.slowClients() && s.idle() >= handlerWork) {
			return idleKeepAlive(o);
		}
		if (s.total() > 0 && s.slowClients() >= handlerWork) {
			return slowClients(o);
		}
		RouteWork hot = hotRoute(o);
		if (hot != null) {
			return hotRoute(o, hot);
		}
		if (s.total() == 0 && o.config().ioModel() == IoModel.BLOCKING && o.defaultPool()
				&& !o.averageIdle().isZero()) {
			// nothing sampled (the pool lists no threads): idle connections are the usual suspect
			return idleKeepAlive(o);
		}
		if (s.waiting() > s.running() || s.total() == 0 && !(o.processCores() >= 0.8 * o.cores())) {
			return blockedDownstream(o);
		}
		return cpuBound(o);
	}

	/**
	 * Describes a pool that is not starved.
	 * @param o the observation
	 * @return the evidence of an ok verdict
	 */
	static String okEvidence(Observation o) {
		String workers = o.busy() + " of " + o.max() + " workers busy, " + count(o.queued(), o.waitingNoun())
				+ " waiting for a worker";
		if (!o.defaultPool()) {
			return workers;
		}
		return workers + "; " + count(o.openConnections(), "connections") + " open, " + depth(o.acceptQueueDepth())
				+ " in the kernel's accept queue";
	}

	// ---- the listener: connection limit and accept queue

	private static Finding listenerFinding(Observation o) {
		int maxConnections = o.config().maxConnections();
		if (o.openConnections() >= maxConnections && Math.max(o.acceptQueueDepth(), o.acceptQueueDepthRecent()) > 0) {
			long waiting = Math.max(1, o.acceptQueueDepth());
			String evidence = o.openConnections() + " of " + maxConnections + " connections open (max-connections "
					+ "reached); " + count(waiting, "clients") + " waiting in the kernel's accept queue";
			List<Advice> advice = new ArrayList<>();
			long wanted = o.openConnections() + waiting;
			advice.add(new Advice(PREFIX + "max-connections", Long.toString(spare(wanted)),
					wanted + " clients wanted a connection (" + o.openConnections() + " open + " + waiting
							+ " in the accept queue), with a quarter to spare"));
			if (o.config().ioModel() == IoModel.BLOCKING) {
				advice.add(new Advice(PREFIX + "io-model", "event-loop", "in the blocking model each connection "
						+ "holds a worker; on event-loop an idle connection costs no thread, so max-connections can "
						+ "be far above threads.max"));
			}
			return new Finding(Cause.CONNECTION_LIMIT, evidence, advice);
		}
		long capacity = o.acceptQueueCapacity();
		if (o.overflows() > 0 && capacity > 0 && o.acceptQueueDepthRecent() * 10 >= capacity * 9) {
			String evidence = "the kernel dropped " + o.overflows() + " connections over the last "
					+ Diagnosis.INTERVAL.toSeconds() + " s on a full accept queue (ListenOverflows, whole network "
					+ "namespace); "
					+ "this listener's queue held up to " + o.acceptQueueDepthRecent() + " of " + capacity;
			long backlog = spare(capacity + o.overflows());
			List<Advice> advice = List.of(
					new Advice(PREFIX + "accept-backlog", Long.toString(backlog),
							"the queue holds " + capacity + " and " + o.overflows()
									+ " more connections arrived than it could hold"),
					new Advice("net.core.somaxconn", Long.toString(backlog), "the kernel caps the backlog at "
							+ "somaxconn (sysctl); raise it at least as far as accept-backlog"));
			return new Finding(Cause.ACCEPT_BACKLOG, evidence, advice);
		}
		return null;
	}

	// ---- where the workers are

	private static Finding idleKeepAlive(Observation o) {
		Samples s = o.samples();
		int idle = (s.total() > 0) ? s.idle() : o.busy();
		int of = (s.total() > 0) ? s.total() : o.busy();
		String evidence = idle + " of " + of + " workers own connections idle between requests, "
				+ duration(o.averageIdle()) + " on average; " + count(o.queued(), "connections")
				+ " waiting for a worker";
		List<Advice> advice = new ArrayList<>();
		advice.add(new Advice(PREFIX + "io-model", "event-loop", "an idle connection then costs no worker: the "
				+ o.max() + " workers serve requests, not the " + o.demand() + " connections"));
		if (o.config().keepAliveReleaseThreshold() >= 1) {
			advice.add(new Advice(PREFIX + "keep-alive.release-threshold", "0.75", "answers Connection: close "
					+ "while connections wait, so pinned workers come free for the " + o.queued() + " waiting"));
		}
		advice.add(new Advice(PREFIX + "threads.max", Integer.toString(spare(o.demand())),
				o.demand() + " connections wanted a worker (" + o.busy() + " held + " + o.queued()
						+ " waiting): one thread each and a quarter to spare, if you keep the blocking model"));
		boolean longIdle = o.averageIdle().compareTo(SHORT_TIMEOUT) > 0;
		if (longIdle && o.config().keepAliveTimeout().compareTo(SHORT_TIMEOUT) > 0) {
			advice.add(new Advice(PREFIX + "keep-alive.timeout", format(SHORT_TIMEOUT), "connections sat idle "
					+ duration(o.averageIdle()) + " on average; a shorter timeout releases their workers sooner"));
		}
		return new Finding(Cause.IDLE_KEEP_ALIVE, evidence, advice);
	}

	private static Finding slowClients(Observation o) {
		Samples s = o.samples();
		String evidence = s.slowClients() + " of " + s.total() + " workers are held by slow clients: " + s.writing()
				+ " waiting for a client to read its response, " + s.reading() + " for a client to send its request; "
				+ count(o.queued(), o.waitingNoun()) + " waiting for a worker";
		List<Advice> advice = new ArrayList<>();
		ServerConfig config = o.config();
		if (s.reading() > 0 && config.ioModel() == IoModel.BLOCKING) {
			advice.add(new Advice(PREFIX + "io-model", "event-loop", "a request head, and a body of up to 16 KiB, is "
					+ "then read on a selector before a worker takes the request: a client that sends slowly holds a "
					+ "buffer, not a worker (virtual-threads reads them on the connection's own thread, without a "
					+ "permit)"));
		}
		if (!config.lowResourcesEnabled()) {
			advice.add(new Advice(PREFIX + "low-resources.enabled", "true", "while the pool is starved, a client that "
					+ "keeps a worker waiting is then cut off after low-resources.stall-timeout"));
		}
		else if (config.lowResourcesStallTimeout().compareTo(SHORT_STALL) > 0) {
			advice.add(new Advice(PREFIX + "low-resources.stall-timeout", format(SHORT_STALL), "the longest a client "
					+ "may keep a worker of a starved pool waiting; the " + o.queued() + " waiting get those workers "
					+ "sooner"));
		}
		Duration keepAlive = config.keepAliveTimeout();
		if (s.writing() > 0 && keepAlive.compareTo(SHORT_TIMEOUT) > 0) {
			advice.add(new Advice(PREFIX + "keep-alive.timeout", format(SHORT_TIMEOUT), "also the longest a write may "
					+ "make no progress while the pool is not starved: a client that stops reading frees its worker "
					+ "after " + duration(SHORT_TIMEOUT)));
		}
		if (s.reading() > 0 && config.minDataRateGrace().compareTo(SHORT_TIMEOUT) > 0) {
			advice.add(new Advice(PREFIX + "request.min-data-rate-grace", format(SHORT_TIMEOUT), "a body that brings "
					+ "less than request.min-data-rate (" + rate(config.minDataRate()) + ") over this much waiting is "
					+ "answered 408, freeing its worker after " + duration(SHORT_TIMEOUT)));
		}
		if (s.reading() > 0 && config.headerTimeout().compareTo(SHORT_TIMEOUT) > 0) {
			advice.add(new Advice(PREFIX + "request.header-timeout", format(SHORT_TIMEOUT), "the longest a client may "
					+ "take to send a request head, and pause inside a body"));
		}
		return new Finding(Cause.SLOW_CLIENTS, evidence, advice);
	}

	private static String rate(long bytesPerSecond) {
		return (bytesPerSecond == 0) ? "off" : bytesPerSecond + " bytes per second";
	}

	/** The route with most of the window's worker time, when it is a hot one; else null. */
	private static RouteWork hotRoute(Observation o) {
		RouteWork top = topRoute(o.routeWindow());
		if (top == null || !top.route().startsWith("/")) {
			return null;
		}
		long total = totalNanos(o.routeWindow());
		long others = 0;
		for (RouteWork route : o.routeWindow()) {
			if (route != top) {
				others += route.exchanges();
			}
		}
		double windowNanos = o.windowSeconds() * 1e9;
		boolean dominant = top.workerNanos() >= HOT_ROUTE_SHARE * total;
		boolean substantial = top.workerNanos() >= 0.25 * o.max() * windowNanos;
		return (dominant && substantial && others > 0) ? top : null;
	}

	private static Finding hotRoute(Observation o, RouteWork hot) {
		long total = totalNanos(o.routeWindow());
		int share = (int) Math.round(100.0 * hot.workerNanos() / total);
		long others = 0;
		for (RouteWork route : o.routeWindow()) {
			others += (route != hot) ? route.exchanges() : 0;
		}
		double concurrency = hot.workerNanos() / (o.windowSeconds() * 1e9);
		int threads = Math.max(1, Math.min(o.max(), (int) Math.ceil(concurrency - 0.05)));
		String evidence = hot.route() + " took " + share + "% of the worker time of pool '" + o.pool()
				+ "' over the last " + o.windowSeconds() + " s (" + count(hot.exchanges(), "exchanges") + ", "
				+ millis(hot.workerNanos() / Math.max(1, hot.exchanges())) + " each); the other routes got "
				+ count(others, "exchanges") + " through while " + count(o.queued(), o.waitingNoun())
				+ " waited for a worker";
		String name = poolName(hot.route());
		List<Advice> advice = List.of(
				new Advice(PREFIX + "pools." + name + ".threads", Integer.toString(threads), hot.route() + " kept "
						+ String.format(Locale.ROOT, "%.1f", concurrency) + " workers busy on average: a pool of "
						+ threads + " of its own keeps that, and the other routes get pool '" + o.pool()
						+ "' back"),
				new Advice(PREFIX + "routes[" + hot.route() + "].pool", name,
						"runs " + hot.route() + " in pool '" + name + "'"));
		return new Finding(Cause.HOT_ROUTE, evidence, advice);
	}

	private static Finding blockedDownstream(Observation o) {
		Samples s = o.samples();
		String where;
		String caller = s.waitCaller();
		if (caller == null) {
			where = "where could not be sampled";
		}
		else if (s.waitFrame() == null) {
			where = "on a monitor entered in " + caller;
		}
		else {
			where = "in " + s.waitFrame() + " called from " + caller;
		}
		int waiting = (s.total() > 0) ? s.waitCount() : o.busy();
		int of = (s.total() > 0) ? s.total() : o.busy();
		String state = (s.waitState() != null) ? " (" + s.waitState() + ")" : "";
		String evidence = waiting + " of " + of + " workers wait" + state + " " + where + "; "
				+ count(o.queued(), o.waitingNoun()) + " waiting for a worker";
		String target = (caller != null) ? caller : "the downstream";
		String waitsIn = (s.waitFrame() != null) ? s.waitFrame() : "a monitor";
		List<Advice> advice = List.of(
				new Advice(target, "room for " + o.demand() + " concurrent callers",
						waiting + " of " + of + " workers wait in " + waitsIn + " here: size what it waits for (a "
								+ "connection pool, a client, a lock) for the " + o.demand()
								+ " requests that wanted a worker, or bound the wait with a timeout"),
				new Advice(PREFIX + "threads.max", Integer.toString(spare(o.demand())), "only if " + target
						+ " can serve that many callers at once; otherwise more workers only wait there too"));
		return new Finding(Cause.BLOCKED_DOWNSTREAM, evidence, advice);
	}

	private static Finding cpuBound(Observation o) {
		Samples s = o.samples();
		String in = (s.runCaller() != null) ? ", mostly in " + s.runCaller() : "";
		String cpu = Double.isNaN(o.processCores()) ? "" : "; the process used "
				+ String.format(Locale.ROOT, "%.1f", o.processCores()) + " of " + o.cores() + " cores";
		String evidence = s.running() + " of " + s.total() + " workers run handler code (RUNNABLE" + in + ")" + cpu
				+ "; " + count(o.queued(), o.waitingNoun()) + " waiting for a worker";
		List<Advice> advice = new ArrayList<>();
		RouteWork top = topRoute(o.routeWindow());
		if (top != null && top.route().startsWith("/") && o.defaultPool()) {
			String name = poolName(top.route());
			int threads = Math.max(1, Math.min(o.cores(), o.max() - 1));
			int share = (int) Math.round(100.0 * top.workerNanos() / Math.max(1, totalNanos(o.routeWindow())));
			advice.add(new Advice(PREFIX + "pools." + name + ".threads", Integer.toString(threads), top.route()
					+ " took " + share + "% of the worker time: a pool of its own, as many threads as cores, keeps "
					+ "the other routes served; threads beyond the " + o.cores() + " cores only time-slice them"));
			advice.add(new Advice(PREFIX + "routes[" + top.route() + "].pool", name,
					"runs " + top.route() + " in pool '" + name + "'"));
		}
		int instances = Math.max(2, (int) Math.ceil((double) o.demand() / Math.max(1, o.cores())));
		advice.add(new Advice("instances", Integer.toString(instances), o.demand() + " requests wanted a worker at "
				+ "once and " + o.cores() + " cores compute " + o.cores() + " at a time: more instances (or cores) "
				+ "serve them; more threads would only share the same cores"));
		boolean cpuToSpare = o.processCores() < 0.8 * o.cores()
				&& (Double.isNaN(o.machineBusy()) || o.machineBusy() < 0.9);
		if (cpuToSpare && o.max() < o.cores()) {
			advice.add(new Advice(PREFIX + "threads.max", Integer.toString(o.cores()),
					"the pool runs fewer workers than the " + o.cores() + " cores, and the CPU has room"));
		}
		return new Finding(Cause.CPU_BOUND, evidence, advice);
	}

	// ---- helpers

	private static RouteWork topRoute(List<RouteWork> routes) {
		RouteWork top = null;
		for (RouteWork route : routes) {
			if (route.workerNanos() > 0 && (top == null || route.workerNanos() > top.workerNanos())) {
				top = route;
			}
		}
		return top;
	}

	private static long totalNanos(List<RouteWork> routes) {
		long total = 0;
		for (RouteWork route : routes) {
			total += route.workerNanos();
		}
		return total;
	}

	/**
	 * Names a pool after a route: its last literal segment ({@code /api/compute} gives
	 * {@code compute}), {@code root} for {@code /}.
	 * @param route the route template
	 * @return the pool name
	 */
	static String poolName(String route) {
		String[] segments = route.split("/");
		for (int i = segments.length - 1; i >= 0; i--) {
			String segment = segments[i].toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-")
				.replaceAll("^-+|-+$", "");
			if (!segments[i].startsWith("{") && !segment.isEmpty() && !segment.equals("default")) {
				return segment;
			}
		}
		return "root";
	}

	/** {@code 1 request}, {@code 2 requests}: a count with its noun, given in the plural. */
	static String count(long n, String plural) {
		return n + " " + ((n == 1) ? plural.substring(0, plural.length() - 1) : plural);
	}

	private static int spare(int demand) {
		return (int) Math.ceil(demand * SPARE);
	}

	private static long spare(long demand) {
		return (long) Math.ceil(demand * SPARE);
	}

	private static String depth(long depth) {
		return (depth >= 0) ? Long.toString(depth) : "unknown";
	}

	/** Formats a duration as Spring binds it: {@code 5s}, {@code 500ms}. */
	private static String format(Duration duration) {
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms";
	}

	/** Formats a duration for a sentence: {@code 18 s}, {@code 850 ms}. */
	static String duration(Duration duration) {
		long millis = duration.toMillis();
		return (millis >= 10_000) ? (millis / 1000) + " s"
				: (millis >= 1000) ? String.format(Locale.ROOT, "%.1f s", millis / 1000.0) : millis + " ms";
	}

	private static String millis(long nanos) {
		return duration(Duration.ofNanos(nanos));
	}

}
