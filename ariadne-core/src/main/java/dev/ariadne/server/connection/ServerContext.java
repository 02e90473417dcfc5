package dev.ariadne.server.connection;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.internal.ByteArrayPool;
import dev.ariadne.server.internal.DateClock;
import dev.ariadne.server.internal.TaskPool;
import dev.ariadne.server.internal.Threads;
import dev.ariadne.server.internal.VirtualPool;
import dev.ariadne.server.internal.VirtualThreads;
import dev.ariadne.server.internal.WorkerPool;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.routing.Router;
import dev.ariadne.server.stats.AcceptQueueProbe;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.stats.RequestEvent;
import dev.ariadne.server.stats.RequestListener;
import dev.ariadne.server.stats.RouteWork;
import dev.ariadne.server.stats.ServerStats;

/**
 * What every connection of one server shares: configuration, router, listeners, the connection
 * permits, the counters behind {@link ServerStats}, and the set of open connections that a
 * graceful shutdown walks.
 */
public final class ServerContext {

	private static final Logger logger = System.getLogger(ServerContext.class.getName());

	private final ServerConfig config;

	private final Router router;

	private final RequestListener[] listeners;

	private final DateClock clock = new DateClock();

	/** Response buffers, borrowed per exchange: 8 KiB each, at most 256 kept (2 MiB). */
	private final ByteArrayPool outputBuffers = new ByteArrayPool(8192, 256);

	private final Semaphore permits;

	private final Set<TrackedConnection> connections = ConcurrentHashMap.newKeySet();

	private final AtomicInteger open = new AtomicInteger();

	private final AtomicInteger idle = new AtomicInteger();

	private final LongAdder accepted = new LongAdder();

	private final LongAdder[] rejected = new LongAdder[RejectReason.values().length];

	private final Stats stats = new Stats();

	private volatile boolean shuttingDown;

	private volatile boolean forced;

	private volatile List<PoolStats> pools = List.of();

	private volatile AcceptQueueProbe acceptQueue;

	private final Map<String, TaskPool> routePools = new LinkedHashMap<>();

	/** Set once, before the transport starts (whose thread starts publish it), or never. */
	private RouteWorkCounter routeWork;

	/**
	 * Creates the shared state of a server.
	 * @param config the configuration
	 * @param router the router
	 * @param listeners the request listeners
	 */
	public ServerContext(ServerConfig config, Router router, List<RequestListener> listeners) {
		this.config = config;
		this.router = router;
		this.listeners = listeners.toArray(new RequestListener[0]);
		this.permits = new Semaphore(config.maxConnections());
		for (int i = 0; i < this.rejected.length; i++) {
			this.rejected[i] = new LongAdder();
		}
		for (Route route : router.routes()) {
			if (!Route.DEFAULT_POOL.equals(route.pool()) && !config.pools().containsKey(route.pool())) {
				throw new IllegalArgumentException("Route " + route.method() + " " + route.template() + " runs in pool '"
						+ route.pool() + "', which is not configured (ariadne.server.pools." + route.pool() + ".threads)");
			}
		}
		config.pools().forEach((name, pool) -> this.routePools.put(name, createPool(config.name(), name, pool)));
	}

	private static TaskPool createPool(String listener, String name, ServerConfig.PoolConfig pool) {
		String prefix = "ariadne-" + listener + "-pool-" + name;
		if (pool.virtual()) {
			return new VirtualPool(name, pool.maxThreads(), pool.queueCapacity(),
					VirtualThreads.factory(prefix + "-", "ariadne.server.pools." + name + ".virtual"));
		}
		return new WorkerPool(name, 0, pool.maxThreads(), pool.queueCapacity(), Threads.named(prefix, true));
	}

	/**
	 * Returns a route pool.
	 * @param name the pool's name, as routes give it
	 * @return the pool, or {@code null} for {@code default} or an unknown name
	 */
	public TaskPool routePool(String name) {
		return this.routePools.get(name);
	}

	/**
	 * Stops the route pools after the connections are gone, waiting briefly for their tasks.
	 * @throws InterruptedException if interrupted while waiting
	 */
	public void shutdownRoutePools() throws InterruptedException {
		for (TaskPool pool : this.routePools.values()) {
			pool.shutdownAndDrainQueue();
		}
		for (TaskPool pool : this.routePools.values()) {
			if (!pool.awaitTermination(1000)) {
				pool.shutdownNow();
			}
		}
	}

	/**
	 * Returns the pool of response buffers shared by the server's connections.
	 * @return the pool
	 */
	public ByteArrayPool outputBuffers() {
		return this.outputBuffers;
	}

	/**
	 * Returns the configuration.
	 * @return the configuration
	 */
	public ServerConfig config() {
		return this.config;
	}

	/**
	 * Returns the router.
	 * @return the router
	 */
	public Router router() {
		return this.router;
	}

	/**
	 * Returns the shared {@code Date} header clock.
	 * @return the clock
	 */
	public DateClock clock() {
		return this.clock;
	}

	/**
	 * Returns the statistics view of this server.
	 * @return the statistics
	 */
	public ServerStats stats() {
		return this.stats;
	}

	/**
	 * Sets the server's own pool, named {@code default}, for the statistics. Called by the
	 * transport once, at start.
	 * @param pool the pool
	 */
	public void defaultPool(PoolStats pool) {
		this.pools = List.of(pool);
	}

	/**
	 * Sets the reader of the listening socket's kernel accept queue. Called by the transport
	 * once it is bound.
	 * @param probe the probe
	 */
	public void acceptQueue(AcceptQueueProbe probe) {
		this.acceptQueue = probe;
	}

	// ---- what the diagnosis reads

	/**
	 * Starts counting worker time per route, for the diagnosis. Called once, before the
	 * transport starts; until then, and when never called, nothing is counted.
	 */
	public void countRouteWork() {
		List<String> pools = new ArrayList<>();
		pools.add(Route.DEFAULT_POOL);
		pools.addAll(this.routePools.keySet());
		this.routeWork = new RouteWorkCounter(pools);
	}

	/**
	 * Counts the worker time of one exchange when the diagnosis is on; on the request path, so
	 * one lookup and two adds.
	 * @param pool the pool that ran the handler
	 * @param route the route value, as reported in the request event
	 * @param nanos the worker time
	 */
	void routeWorked(String pool, String route, long nanos) {
		this.routeWork.add(pool, route, nanos);
	}

	/**
	 * Returns whether worker time per route is counted, so that callers can skip reading the
	 * clock.
	 * @return whether {@link #countRouteWork()} was called
	 */
	boolean countsRouteWork() {
		return this.routeWork != null;
	}

	/**
	 * Returns the threads of the open connections that are not idle: for the models that run
	 * each connection on a thread of its own.
	 * @return the threads, in no order
	 */
	public List<Thread> activeConnectionThreads() {
		List<Thread> threads = new ArrayList<>();
		for (TrackedConnection connection : this.connections) {
			Thread thread = connection.thread();
			if (thread != null && connection.idleSinceNanos() == 0) {
				threads.add(thread);
			}
		}
		return threads;
	}

	// ---- connection permits and tracking

	/**
	 * Takes a connection permit before accepting, waiting at most the given time. While no
	 * permit is free the acceptor does not accept, so clients wait in the kernel's queue.
	 * @param millis the most time to wait
	 * @return whether a permit was taken
	 * @throws InterruptedException if interrupted while waiting
	 */
	public boolean acquirePermit(long millis) throws InterruptedException {
		return this.permits.tryAcquire(millis, TimeUnit.MILLISECONDS);
	}

	/**
	 * Gives back a permit whose accept produced no connection.
	 */
	public void releasePermit() {
		this.permits.release();
	}

	/**
	 * Records a newly accepted connection, which now owns a permit.
	 * @param connection the connection
	 */
	public void opened(TrackedConnection connection) {
		this.accepted.increment();
		this.open.incrementAndGet();
		this.connections.add(connection);
	}

	/**
	 * Records that a connection closed, releasing its permit. Safe to call more than once per
	 * connection: only the first call counts.
	 * @param connection the connection
	 */
	public void closed(TrackedConnection connection) {
		if (this.connections.remove(connection)) {
			this.open.decrementAndGet();
			this.permits.release();
		}
	}

	/**
	 * Adjusts the number of idle connections.
	 * @param delta +1 when a connection goes idle, -1 when it stops being idle
	 */
	public void idle(int delta) {
		this.idle.addAndGet(delta);
	}

	/**
	 * Counts a refused connection or request.
	 * @param reason why
	 */
	public void rejected(RejectReason reason) {
		this.rejected[reason.ordinal()].increment();
	}

	/**
	 * Returns whether a shutdown has begun: exchanges then answer with
	 * {@code Connection: close}.
	 * @return whether shutting down
	 */
	public boolean shuttingDown() {
		return this.shuttingDown;
	}

	/**
	 * Marks the start of a shutdown.
	 */
	public void beginShutdown() {
		this.shuttingDown = true;
	}

	/**
	 * Cuts a graceful shutdown short: {@link #drainConnections} aborts what is left now.
	 */
	public void forceClose() {
		this.shuttingDown = true;
		this.forced = true;
	}

	/**
	 * Closes idle connections until none is left or the grace period ends, then aborts the
	 * rest and stops counting them as open. Connections that finish their exchange close
	 * themselves, since a shutdown makes every response carry {@code Connection: close}.
	 * @param graceMillis the grace period
	 * @return whether every connection closed within the grace period
	 * @throws InterruptedException if interrupted while waiting
	 */
	public boolean drainConnections(long graceMillis) throws InterruptedException {
		beginShutdown();
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
		while (true) {
			for (TrackedConnection connection : this.connections) {
				connection.closeIfIdle();
			}
			if (this.connections.isEmpty()) {
				return true;
			}
			if (this.forced || System.nanoTime() - deadline >= 0) {
				break;
			}
			Thread.sleep(10);
		}
		List<TrackedConnection> left = new ArrayList<>(this.connections);
		if (!left.isEmpty()) {
			logger.log(Level.WARNING, () -> "Grace period over; closing " + left.size() + " connection(s) of '"
					+ this.config.name() + "' with exchanges still in progress");
		}
		for (TrackedConnection connection : left) {
			connection.abort();
			// aborted (its socket closed, or about to be on its selector): it no longer counts
			// as open, even if its handler never returns, since a thread cannot be stopped
			closed(connection);
		}
		return false;
	}

	/**
	 * Closes connections idle past their deadline and those whose writes have stalled for
	 * longer than {@code keep-alive.timeout}.
	 * @param nowNanos the current {@link System#nanoTime()}
	 */
	public void closeExpired(long nowNanos) {
		long writeTimeout = this.config.keepAliveTimeout().toNanos();
		for (TrackedConnection connection : this.connections) {
			connection.closeIfExpired(nowNanos, writeTimeout);
		}
	}

	/**
	 * Returns whether any connection is still open.
	 * @return whether connections remain
	 */
	public boolean hasConnections() {
		return !this.connections.isEmpty();
	}

	// ---- request events

	/**
	 * Tells every listener about a finished exchange.
	 * @param event the exchange
	 */
	public void publish(RequestEvent event) {
		for (RequestListener listener : this.listeners) {
			try {
				listener.onRequest(event);
			}
			catch (RuntimeException ex) {
				logger.log(Level.WARNING, "Request listener failed", ex);
			}
		}
	}

	/**
	 * Returns whether anyone listens for request events, so that callers can skip building
	 * them.
	 * @return whether there are listeners
	 */
	public boolean hasListeners() {
		return this.listeners.length > 0;
	}

	private final class Stats implements ServerStats {

		@Override
		public String listener() {
			return ServerContext.this.config.name();
		}

		@Override
		public String ioModel() {
			return ServerContext.this.config.ioModel().value();
		}

		@Override
		public PoolStats pool() {
			List<PoolStats> pools = ServerContext.this.pools;
			return pools.isEmpty() ? NOT_STARTED : pools.get(0);
		}

		@Override
		public List<PoolStats> pools() {
			List<PoolStats> all = new ArrayList<>(1 + ServerContext.this.routePools.size());
			all.add(pool());
			all.addAll(ServerContext.this.routePools.values());
			return all;
		}

		@Override
		public int openConnections() {
			return ServerContext.this.open.get();
		}

		@Override
		public int idleConnections() {
			return ServerContext.this.idle.get();
		}

		@Override
		public int maxConnections() {
			return ServerContext.this.config.maxConnections();
		}

		@Override
		public long acceptedConnections() {
			return ServerContext.this.accepted.sum();
		}

		@Override
		public long rejected(RejectReason reason) {
			return ServerContext.this.rejected[reason.ordinal()].sum();
		}

		@Override
		public OptionalLong acceptQueueDepth() {
			AcceptQueueProbe probe = ServerContext.this.acceptQueue;
			return (probe != null) ? probe.depth() : OptionalLong.empty();
		}

		@Override
		public OptionalLong acceptQueueCapacity() {
			AcceptQueueProbe probe = ServerContext.this.acceptQueue;
			return (probe != null) ? probe.capacity() : OptionalLong.empty();
		}

		@Override
		public OptionalLong acceptQueueOverflows() {
			return AcceptQueueProbe.listenOverflows();
		}

		@Override
		public Duration averageIdleTime() {
			long now = System.nanoTime();
			long total = 0;
			int idle = 0;
			for (TrackedConnection connection : ServerContext.this.connections) {
				long since = connection.idleSinceNanos();
				if (since != 0) {
					total += Math.max(0, now - since);
					idle++;
				}
			}
			return (idle > 0) ? Duration.ofNanos(total / idle) : Duration.ZERO;
		}

		@Override
		public List<RouteWork> routeWork(String pool) {
			RouteWorkCounter counter = ServerContext.this.routeWork;
			return (counter != null) ? counter.snapshot(pool) : List.of();
		}

		private final PoolStats NOT_STARTED = new PoolStats() {

			@Override
			public String name() {
				return "default";
			}

			@Override
			public int busyWorkers() {
				return 0;
			}

			@Override
			public int maxWorkers() {
				return ServerContext.this.config.maxThreads();
			}

			@Override
			public int queued() {
				return 0;
			}

			@Override
			public int queueCapacity() {
				return ServerContext.this.config.queueCapacity();
			}

		};

	}

}
