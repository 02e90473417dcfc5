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
 * <p>Order of the decision, from the structural causes to the symptoms they produce: the
 * listener's connection limit and accept queue first (clients that wait before any worker
 * could help). A pool whose workers are all busy while work waits is not starved when the
 * queue moves (by Little's law over the window, an item gets a worker within a second): every
 * client is served in turn, and with the cores busy that is {@code cpu-saturated}. Otherwise,
 * by where the sampled workers are: most of them waiting in application code is a downstream;
 * the blocking model's own pool is then slow clients when most workers read from or write to
 * them, else thread-per-connection, whatever the owned connections do; in the
 * other models and route pools, slow clients, then a hot route (one route takes most of the
 * worker time while others get through), then cpu-bound.
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

	/** What every advised property begins with. */
	static final String PREFIX = "ariadne.server.";

	private Rules() {
	}

	/**
	 * Decides on one observation.
	 * @param o the observation
	 * @return the finding, or {@code null} when the pool is not starved
	 */
	static Finding decide(Observation o) {
		if (o.defaultPool()) {
			Finding listener = ListenerRules.finding(o);
			if (listener != null) {
				return listener;
			}
		}
		if (!o.saturatedWithWaiting()) {
			return null;
		}
		if (o.served()) {
			return o.cpuSaturated() ? cpuSaturated(o) : null;
		}
		if (SessionRules.ownWorkers(o)) {
			// sessions own their workers whatever their listeners do meanwhile
			return SessionRules.finding(o);
		}
		Samples s = o.samples();
		boolean sampled = s.total() > 0;
		if (sampled && s.waiting() * 2 > s.total()) {
			// most workers wait in application code: the downstream is the limit in every model
			return blockedDownstream(o);
		}
		if (o.defaultPool() && o.config().ioModel() == IoModel.BLOCKING) {
			if (sampled && s.slowClients() * 2 > s.total()) {
				// most workers held by clients that send or read slowly: the timeouts (and, for slow
				// senders, the event loop) free them, as the slow-clients advice says
				return slowClients(o);
			}
			// connections own the workers, whatever the owned ones are doing now
			return threadPerConnection(o);
		}
		if (sampled && s.slowClients() > 0 && s.slowClients() >= s.waiting() + s.running() + s.handedOff()) {
			return slowClients(o);
		}
		RouteWork hot = hotRoute(o);
		if (hot != null) {
			return hotRoute(o, hot);
		}
		if (sampled ? s.waiting() > s.running() : !(o.processCores() >= 0.8 * o.cores())) {
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
		String workers = o.busy() + " of " + o.max() + " workers busy, " + queued(o)
				+ " waiting for a worker";
		if (!o.defaultPool()) {
			return workers;
		}
		return workers + "; " + count(o.openConnections(), "connections") + " open, " + depth(o.acceptQueueDepth())
				+ " in the kernel's accept queue" + SessionRules.okEvidence(o);
	}

	// ---- where the workers are

	private static Finding threadPerConnection(Observation o) {
		Samples s = o.samples();
		List<String> doing = new ArrayList<>();
		if (s.idle() > 0) {
			// an HTTP/2 connection's thread waits for frames as an idle HTTP/1.1 one waits for a request;
			// only the HTTP/1.1 ones have an idle time to average
			String idle = (o.http2Connections() > 0) ? " idle between requests or waiting for HTTP/2 frames"
					: " idle between requests";
			String average = o.averageIdle().isZero() ? "" : ", " + duration(o.averageIdle()) + " on average";
			doing.add(s.idle() + idle + average);
		}
		if (s.running() > 0) {
			doing.add(s.running() + " running a handler");
		}
		if (s.slowClients() > 0) {
			doing.add(s.slowClients() + " reading from or writing to its client");
		}
		if (s.handedOff() > 0) {
			doing.add(s.handedOff() + " waiting for a route pool to run its handler");
		}
		String sampled = doing.isEmpty() ? "" : " (sampled: " + String.join("; ", doing) + ")";
		String http2 = (o.http2Connections() > 0) ? "; " + count(o.http2Connections(), "HTTP/2 connections")
				+ " among them, each owning a worker for its frames while its streams wait for others" : "";
		String evidence = o.busy() + " of " + o.max() + " workers each own a connection until it closes" + sampled
				+ http2 + SessionRules.amongConnections(o) + "; " + queued(o) + " waiting for a worker, " + movement(o);
		List<Advice> advice = new ArrayList<>();
		boolean streams = o.http2QueuedStreams() > 0;
		String served = streams ? "the streams of every connection" : "the " + o.demand() + " connections' requests";
		advice.add(new Advice(PREFIX + "io-model", "event-loop", "a connection then holds a worker only while one "
				+ "of its requests runs, never between requests: the " + o.max() + " workers serve " + served
				+ " in turn"));
		advice.add(new Advice(PREFIX + "threads.max", Integer.toString(spare(o.demand())),
				"if you keep the blocking model: " + o.demand() + (streams ? " connections and streams" : " connections")
						+ " wanted a worker (" + o.busy() + " held + " + o.queued() + " waiting), one thread each and a "
						+ "quarter to spare"));
		if (o.config().keepAliveReleaseThreshold() >= 1) {
			advice.add(new Advice(PREFIX + "keep-alive.release-threshold", "0.75", "answers Connection: close "
					+ "while connections wait, so that the " + o.queued() + " waiting take turns on the workers"));
		}
		boolean longIdle = s.idle() > 0 && o.averageIdle().compareTo(SHORT_TIMEOUT) > 0;
		if (longIdle && o.config().keepAliveTimeout().compareTo(SHORT_TIMEOUT) > 0) {
			advice.add(new Advice(PREFIX + "keep-alive.timeout", format(SHORT_TIMEOUT), "connections sat idle "
					+ duration(o.averageIdle()) + " on average; a shorter timeout releases their workers sooner"));
		}
		slowReadAdvice(o, advice);
		return new Finding(Cause.THREAD_PER_CONNECTION, evidence, advice);
	}

	/** What waits for a worker in the blocking model: connections, and HTTP/2 streams when there are some. */
	/**
	 * Says what waits for a worker: connections ({@code blocking}'s own pool) or requests, and
	 * how many of them are HTTP/2 streams.
	 */
	static String queued(Observation o) {
		int streams = Math.min(o.http2QueuedStreams(), o.queued());
		if (streams == 0) {
			return count(o.queued(), o.waitingNoun());
		}
		if (o.waitingNoun().equals("connections")) {
			int connections = o.queued() - streams;
			return (connections > 0) ? count(connections, "connections") + " and " + count(streams, "HTTP/2 streams")
					: count(streams, "HTTP/2 streams");
		}
		return count(o.queued(), "requests") + " (" + ((streams == o.queued()) ? "all" : streams + " of them")
				+ " HTTP/2 streams)";
	}

	/** How the queue moved over the window, for evidence: {@code none given one over the last 5 s}. */
	static String movement(Observation o) {
		double wait = o.waitSeconds();
		if (Double.isNaN(wait)) {
			return "how long they wait is not counted";
		}
		if (Double.isInfinite(wait)) {
			return "none of them given one over the last " + o.windowSeconds() + " s";
		}
		return "each waiting about " + duration(Duration.ofMillis((long) (wait * 1000))) + " for one";
	}

	private static Finding cpuSaturated(Observation o) {
		String cpu = Double.isNaN(o.processCores()) ? "the machine's CPU is " + percent(o.machineBusy()) + " busy"
				: "the process used " + String.format(Locale.ROOT, "%.1f", o.processCores()) + " of " + o.cores()
						+ " cores";
		String evidence = "every client is served in turn: " + queued(o)
				+ " waiting for a worker, " + movement(o) + "; " + o.busy() + " of " + o.max() + " workers busy and "
				+ cpu + ": the CPU is the limit, not a setting";
		return new Finding(Verdict.Status.CPU_SATURATED, null, evidence, List.of(
				instances(o, "more instances add CPU, so each request waits less for a worker; more threads would "
						+ "only share the same cores"),
				new Advice(Advice.CORES, Integer.toString(2 * o.cores()), "or, for this instance, twice the cores: "
						+ "the workers' requests are computed twice as many at a time")));
	}

	private static Advice instances(Observation o, String why) {
		int instances = Math.max(2, (int) Math.ceil((double) o.demand() / Math.max(1, o.cores())));
		return new Advice(Advice.INSTANCES, Integer.toString(instances), o.demand() + " requests wanted a worker at "
				+ "once and " + o.cores() + " cores compute " + o.cores() + " at a time: " + why);
	}

	private static String percent(double share) {
		return Double.isNaN(share) ? "an unknown share" : Math.round(share * 100) + "%";
	}

	private static Finding slowClients(Observation o) {
		Samples s = o.samples();
		String http2 = (o.http2Connections() > 0 && s.writing() > 0) ? " (over HTTP/2, a stream's writer waits for "
				+ "its client's flow-control credit; " + count(o.http2Connections(), "HTTP/2 connections") + " open)" : "";
		String evidence = s.slowClients() + " of " + s.total() + " workers are held by slow clients: " + s.writing()
				+ " waiting for a client to read its response" + http2 + ", " + s.reading() + " for a client to send its "
				+ "request; " + queued(o) + " waiting for a worker";
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
		Duration streamWrite = config.http2().writeTimeout();
		if (!http2.isEmpty() && streamWrite.compareTo(SHORT_TIMEOUT) > 0) {
			advice.add(new Advice(PREFIX + "http2.write-timeout", format(SHORT_TIMEOUT), "the longest an HTTP/2 "
					+ "stream's response waits for its client's credit or reading (" + duration(streamWrite) + " now): "
					+ "a stream whose client stops reading frees its worker after " + duration(SHORT_TIMEOUT)));
		}
		slowReadAdvice(o, advice);
		return new Finding(Cause.SLOW_CLIENTS, evidence, advice);
	}

	/** The timeouts that free a worker from a client that sends its request slowly, when sampled. */
	private static void slowReadAdvice(Observation o, List<Advice> advice) {
		ServerConfig config = o.config();
		if (o.samples().reading() > 0 && config.minDataRateGrace().compareTo(SHORT_TIMEOUT) > 0) {
			advice.add(new Advice(PREFIX + "request.min-data-rate-grace", format(SHORT_TIMEOUT), "a body that brings "
					+ "less than request.min-data-rate (" + rate(config.minDataRate()) + ") over this much waiting is "
					+ "answered 408, freeing its worker after " + duration(SHORT_TIMEOUT)));
		}
		if (o.samples().reading() > 0 && config.headerTimeout().compareTo(SHORT_TIMEOUT) > 0) {
			advice.add(new Advice(PREFIX + "request.header-timeout", format(SHORT_TIMEOUT), "the longest a client may "
					+ "take to send a request head, and pause inside a body"));
		}
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
		// a route that computes gains nothing from threads beyond the cores
		int threads = Math.max(1, Math.min(Math.min(o.max(), o.cores()), (int) Math.ceil(concurrency - 0.05)));
		String evidence = hot.route() + " took " + share + "% of the worker time of pool '" + o.pool()
				+ "' over the last " + o.windowSeconds() + " s (" + count(hot.exchanges(), "exchanges") + ", "
				+ millis(hot.workerNanos() / Math.max(1, hot.exchanges())) + " each); the other routes got "
				+ count(others, "exchanges") + " through while " + queued(o)
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
		RouteWork top = topRoute(o.routeWindow());
		String route = (top != null && top.route().startsWith("/")) ? top.route() : null;
		String by = (route != null) ? " (" + route + " took most of the worker time)" : "";
		String evidence = waiting + " of " + of + " workers wait" + state + " " + where + by + "; "
				+ queued(o) + " waiting for a worker";
		String waitsIn = (s.waitFrame() != null) ? s.waitFrame() : "a monitor";
		String target = (caller != null) ? caller : "the handler";
		List<Advice> advice = new ArrayList<>();
		if (route != null || caller != null) {
			// unsampled and nothing finished: no handler can be named, only the pool's size
			advice.add(new Advice(Advice.HANDLER, (route != null) ? route : caller, waiting + " of " + of
					+ " workers wait in " + waitsIn + ((caller != null) ? " called from " + caller : "") + ": size what "
					+ "it waits for (a connection pool, a client, a lock) for the " + o.demand() + " requests that "
					+ "wanted a worker, or bound the wait with a timeout"));
		}
		RouteWork hot = hotRoute(o);
		if (hot != null && o.defaultPool()) {
			String name = poolName(hot.route());
			advice.add(new Advice(PREFIX + "pools." + name + ".threads", Integer.toString(Math.max(1, o.max() / 2)),
					"while " + hot.route() + " waits, a pool of its own keeps the other routes served by pool '"
							+ o.pool() + "'"));
			advice.add(new Advice(PREFIX + "routes[" + hot.route() + "].pool", name,
					"runs " + hot.route() + " in pool '" + name + "'"));
		}
		advice.add(new Advice(PREFIX + threadsKey(o), Integer.toString(spare(o.demand())), "only if what " + target
				+ " waits for can serve that many callers at once; otherwise more workers only wait there too"));
		return new Finding(Cause.BLOCKED_DOWNSTREAM, evidence, advice);
	}

	/** The threads setting of the observed pool: {@code threads.max}, or a route pool's. */
	private static String threadsKey(Observation o) {
		return o.defaultPool() ? "threads.max" : "pools." + o.pool() + ".threads";
	}

	private static Finding cpuBound(Observation o) {
		Samples s = o.samples();
		String in = (s.runCaller() != null) ? ", mostly in " + s.runCaller() : "";
		String cpu = Double.isNaN(o.processCores()) ? "" : "; the process used "
				+ String.format(Locale.ROOT, "%.1f", o.processCores()) + " of " + o.cores() + " cores";
		String handedOff = (s.handedOff() > 0) ? ", " + s.handedOff() + " wait for a route pool to run theirs" : "";
		String evidence = s.running() + " of " + s.total() + " workers run handler code (RUNNABLE" + in + ")" + handedOff
				+ cpu
				+ "; " + queued(o) + " waiting for a worker";
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
		advice.add(instances(o, "more instances (or cores) serve them; more threads would only share the same "
				+ "cores"));
		boolean cpuToSpare = o.processCores() < 0.8 * o.cores()
				&& (Double.isNaN(o.machineBusy()) || o.machineBusy() < 0.9);
		if (cpuToSpare && o.max() < o.cores()) {
			advice.add(new Advice(PREFIX + threadsKey(o), Integer.toString(o.cores()),
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

	static int spare(int demand) {
		return (int) Math.ceil(demand * SPARE);
	}

	static long spare(long demand) {
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
