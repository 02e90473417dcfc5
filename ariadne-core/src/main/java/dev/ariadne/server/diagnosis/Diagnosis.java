package dev.ariadne.server.diagnosis;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.ServerStats;
import dev.ariadne.server.stats.StreamCount;

/**
 * Says why a listener's pools are starved and what to change: once a second, on a thread of
 * its own, it reads the statistics the server keeps and, only for a pool whose workers are all
 * busy, samples those workers' states and stacks; from them it derives a {@link Verdict} per
 * pool (a status, one primary {@link Cause}, the evidence, and {@link Advice} with values
 * computed from the demand it saw), logs one line when a verdict changes, and keeps the last
 * minutes of figures as a {@link History}. Nothing of it runs on the request path; the worker
 * time per route it reads is counted there by the server, one add per exchange, while the
 * diagnosis is on.
 *
 * <p>The server creates, starts and stops its diagnosis ({@code AriadneServer.diagnosis()});
 * {@link #verdicts()}, {@link #verdict(String)} and {@link #history()} may be called from any
 * thread at any time and never block on the evaluation.
 */
public final class Diagnosis {

	/** Time between two evaluations. */
	public static final Duration INTERVAL = Duration.ofSeconds(1);

	/** Samples the history keeps: five minutes at one a second. */
	public static final int HISTORY_SAMPLES = 300;

	/** Evaluations the route-work window spans. */
	static final int ROUTE_WINDOW = 5;

	/** Most workers of one pool whose stacks are sampled in one evaluation. */
	static final int MAX_SAMPLED_THREADS = 64;

	private static final Logger logger = System.getLogger(Diagnosis.class.getName());

	private final ServerStats stats;

	private final ServerConfig config;

	private final HistoryRing history = new HistoryRing(HISTORY_SAMPLES);

	private final CpuMeter cpu = new CpuMeter();

	private final int cores = Runtime.getRuntime().availableProcessors();

	// ---- the evaluating thread's own

	private final Map<String, PoolTracker> trackers = new LinkedHashMap<>();

	private final long[] recentDepths = { -1, -1, -1 };

	private int evaluations;

	private long lastOverflows = -1;

	// ---- published

	private volatile List<Verdict> verdicts = List.of();

	private volatile Thread thread;

	/**
	 * Creates the diagnosis of one listener, not yet started.
	 * @param stats the listener's statistics
	 * @param config the listener's configuration, for the advice's current values
	 */
	public Diagnosis(ServerStats stats, ServerConfig config) {
		this.stats = Objects.requireNonNull(stats, "stats");
		this.config = Objects.requireNonNull(config, "config");
	}

	/**
	 * Starts evaluating, once a second, on a daemon thread named
	 * {@code ariadne-<listener>-diagnosis}. Called by the server once it listens.
	 */
	public synchronized void start() {
		if (this.thread != null) {
			return;
		}
		Thread evaluator = new Thread(this::run, "ariadne-" + this.config.name() + "-diagnosis");
		evaluator.setDaemon(true);
		this.thread = evaluator;
		evaluator.start();
	}

	/**
	 * Stops evaluating; the last verdicts and history stay readable. Called by the server when
	 * it stops.
	 */
	public synchronized void stop() {
		Thread evaluator = this.thread;
		if (evaluator != null) {
			evaluator.interrupt();
		}
	}

	private void run() {
		long next = System.nanoTime();
		while (!Thread.currentThread().isInterrupted()) {
			try {
				evaluate();
			}
			catch (RuntimeException | Error ex) {
				// out of memory, say: the next evaluation runs as usual
				logger.log(Level.DEBUG, "Diagnosis evaluation failed", ex);
			}
			next += INTERVAL.toNanos();
			long sleep = next - System.nanoTime();
			if (sleep < 0) {
				// fell behind (a paused JVM, a loaded machine): keep the interval from now
				next = System.nanoTime();
				continue;
			}
			try {
				Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	/**
	 * Returns the listener's name.
	 * @return for example {@code app}
	 */
	public String listener() {
		return this.config.name();
	}

	/**
	 * Returns the current verdict of every pool, the default pool first.
	 * @return the verdicts; empty before the first evaluation
	 */
	public List<Verdict> verdicts() {
		return this.verdicts;
	}

	/**
	 * Returns the current verdict of one pool.
	 * @param pool the pool's name
	 * @return the verdict, empty before the first evaluation or for an unknown pool
	 */
	public Optional<Verdict> verdict(String pool) {
		for (Verdict verdict : this.verdicts) {
			if (verdict.pool().equals(pool)) {
				return Optional.of(verdict);
			}
		}
		return Optional.empty();
	}

	/**
	 * Returns the last minutes of the listener's figures, one sample per evaluation.
	 * @return the history, oldest sample first
	 */
	public History history() {
		return new History(listener(), INTERVAL.toMillis(), this.history.snapshot());
	}

	/**
	 * Evaluates once: reads the figures, samples the workers of saturated pools, updates and
	 * publishes the verdicts, logs the changes, and adds a history sample. Called by the
	 * diagnosis' thread; tests call it directly on a diagnosis they did not start.
	 */
	synchronized void evaluate() {
		Instant now = Instant.now();
		this.cpu.sample();
		int open = this.stats.openConnections();
		long depth = value(this.stats.acceptQueueDepth());
		long overflows = overflowsSinceLast();
		this.recentDepths[this.evaluations++ % this.recentDepths.length] = depth;
		List<Verdict> current = new ArrayList<>();
		List<History.PoolSample> poolSamples = new ArrayList<>();
		// one walk of the connections for every pool's figures and the history
		StreamCount streams = this.config.http2Enabled() ? this.stats.http2Streams() : StreamCount.NONE;
		boolean first = true;
		for (PoolStats pool : this.stats.pools()) {
			PoolTracker tracker = this.trackers.computeIfAbsent(pool.name(),
					(name) -> new PoolTracker(listener(), name, ROUTE_WINDOW, now));
			Observation observation = observe(pool, tracker, first, open, depth, overflows, streams);
			Verdict previous = tracker.update(Rules.decide(observation), Rules.okEvidence(observation), now);
			if (previous != null) {
				log(previous, tracker.verdict());
			}
			current.add(tracker.verdict());
			poolSamples.add(new History.PoolSample(pool.name(), observation.busy(), observation.max(),
					observation.queued(), tracker.verdict().starved()));
			first = false;
		}
		this.verdicts = List.copyOf(current);
		this.history.add(new History.Sample(now.toEpochMilli(), open, this.stats.idleConnections(), depth,
				streams.active(), streams.queued(), this.stats.webSocketSessions(), poolSamples));
	}

	/**
	 * Reads one pool, sampling its workers only when all of them are busy; the listener's
	 * figures go to the default pool, which answers for the listener's connections.
	 */
	private Observation observe(PoolStats pool, PoolTracker tracker, boolean defaultPool, int open, long depth,
			long overflows, StreamCount streams) {
		int busy = pool.busyWorkers();
		int max = pool.maxWorkers();
		int queued = pool.queued();
		boolean saturated = busy >= max;
		Samples samples = saturated ? sample(pool) : Samples.NONE;
		Duration idle = (saturated && defaultPool && this.config.ioModel() != IoModel.EVENT_LOOP)
				? this.stats.averageIdleTime() : Duration.ZERO;
		long capacity = defaultPool ? value(this.stats.acceptQueueCapacity()) : -1;
		PoolTracker.QueueWindow queue = tracker.queueWindow(queued, pool.dequeued());
		// in blocking, an HTTP/2 connection owns a worker for its frames while its streams queue
		int http2 = (saturated && defaultPool) ? this.stats.connections("h2") + this.stats.connections("h2c") : 0;
		int queuedStreams = defaultPool ? streams.queued() : 0;
		int atLimit = defaultPool ? streams.atLimit() : 0;
		int sessions = defaultPool ? this.stats.webSocketSessions() : 0;
		return new Observation(pool.name(), defaultPool, this.config, busy, max, queued, open, depth, recentDepth(),
				capacity, defaultPool ? overflows : -1, idle, samples,
				tracker.routeWindow(this.stats.routeWork(pool.name())),
				tracker.windowSeconds((int) INTERVAL.toSeconds()), this.cpu.processCores(), this.cpu.machineBusy(),
				this.cores, queue.averageQueued(), queue.dequeued(), tracker.verdict().starved(), http2, queuedStreams,
				atLimit, sessions);
	}

	/** Classifies what the pool's workers are doing, sampling at most {@link #MAX_SAMPLED_THREADS}. */
	private static Samples sample(PoolStats pool) {
		List<Thread> threads = pool.workerThreads();
		List<Activity> activities = new ArrayList<>(Math.min(threads.size(), MAX_SAMPLED_THREADS));
		for (Thread thread : threads) {
			if (activities.size() == MAX_SAMPLED_THREADS) {
				break;
			}
			Thread.State state = thread.getState();
			activities.add(StackClassifier.classify(state, thread.getStackTrace()));
		}
		return Samples.of(activities);
	}

	private long overflowsSinceLast() {
		long overflows = value(this.stats.acceptQueueOverflows());
		long since = (overflows >= 0 && this.lastOverflows >= 0) ? Math.max(0, overflows - this.lastOverflows) : -1;
		this.lastOverflows = overflows;
		return since;
	}

	private long recentDepth() {
		long most = -1;
		for (long depth : this.recentDepths) {
			most = Math.max(most, depth);
		}
		return most;
	}

	private void log(Verdict previous, Verdict verdict) {
		String pool = "Pool '" + verdict.pool() + "' of listener '" + verdict.listener() + "'";
		if (verdict.starved()) {
			String advice = verdict.advice().stream().map(Advice::toString).collect(Collectors.joining("; "));
			String was = previous.starved() ? " (was " + previous.cause() + ")" : "";
			logger.log(Level.WARNING, pool + " is starved: " + verdict.cause() + was + ". " + verdict.evidence()
					+ ". Advice: " + advice);
		}
		else {
			logger.log(Level.INFO, pool + " is no longer starved (was " + previous.cause() + "), " + verdict.status()
					+ ": " + verdict.evidence());
		}
	}

	private static long value(OptionalLong value) {
		return value.isPresent() ? value.getAsLong() : -1;
	}

	@Override
	public String toString() {
		return "Diagnosis[" + listener() + "]";
	}

}
