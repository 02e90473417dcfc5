package dev.ariadne.server;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.ariadne.http.ParserLimits;

/**
 * Everything a server instance is configured with: one immutable, validated value with one
 * documented default per option. Validation messages name the option as it is spelled under
 * {@code ariadne.server.*}, so a bad Spring property fails with the property's name.
 *
 * @param name the listener's name, used in thread names and the {@code listener} metric tag
 * @param address the address to bind, or {@code null} for every local address
 * @param port the port to bind, 0 for an ephemeral port
 * @param ioModel how connections are handled
 * @param maxThreads most worker threads (for {@code virtual-threads}: most requests in flight)
 * @param minThreads worker threads kept alive when idle
 * @param queueCapacity most connections ({@code blocking}) or requests ({@code event-loop})
 * waiting for a worker; beyond it they are answered 503
 * @param selectors selector threads of the {@code event-loop} model
 * @param acceptBacklog length of the kernel's accept queue requested from {@code listen}
 * @param maxConnections most open connections; at the limit the server stops accepting
 * @param keepAliveEnabled whether connections persist between requests
 * @param keepAliveTimeout how long an idle connection is kept, and how long a write may make no
 * progress
 * @param keepAliveMaxRequests most requests on one connection, 0 for no limit
 * @param keepAliveReleaseThreshold {@code blocking} model: share of busy workers above which,
 * while connections wait for a worker, responses carry {@code Connection: close} to release
 * pinned workers (one per waiting connection); 1 disables it
 * @param headerTimeout how long a client may take to send a request's head, and most time
 * between two reads of a body
 * @param limits request size limits
 * @param bufferBudget most bytes the server holds in buffers for its connections, over all of
 * them: request bodies (waiting in input buffers, or read whole for a handler), unread
 * pipelined input and unsent response bytes; at the budget the event loop stops reading and
 * writers wait
 * @param shutdownGracePeriod how long a graceful shutdown lets requests in flight finish
 * @param pools route pools by name, for bulkheading routes (a route names its pool); the
 * server's own pool, {@code default}, is not among them
 * @param tls how the listener terminates TLS, or {@code null} to speak plaintext HTTP
 * @param contentLimits what a request may make the server parse beyond its head (parameters,
 * forms, cookies, multipart parts)
 * @param minDataRate the slowest a request body may arrive while the server waits for it, in bytes
 * per second, over every {@code minDataRateGrace} of waiting; slower is answered 408 (or the
 * connection closed once the response is committed); 0 disables the check
 * @param minDataRateGrace how long the server waits for a body before the rate applies, and the
 * period over which it is measured from then on
 * @param lowResourcesEnabled whether a client that keeps a worker waiting (for a body it does not
 * send, or for a response it does not read) is cut off after {@code lowResourcesStallTimeout}
 * instead of the usual timeouts while the worker's pool is starved: every worker busy and work
 * waiting for one
 * @param lowResourcesStallTimeout the longest such a wait may last while the pool is starved
 * @param http2Enabled whether the listener also serves HTTP/2: on TLS to a client that chooses
 * {@code h2} by ALPN, on plaintext (h2c) to one that opens with the connection preface (prior
 * knowledge) or asks to upgrade; HTTP/1.1 goes on being served on the same port
 * @param http2 what HTTP/2 clients are allowed, when it is enabled
 * @param forwarded whether, and from which proxies, forwarded headers are believed
 * @param accessLog whether, how and where the listener logs its exchanges
 * @param webSocket what the WebSocket sessions of the listener's routes are allowed
 */
public record ServerConfig(String name, InetAddress address, int port, IoModel ioModel, int maxThreads,
		int minThreads, int queueCapacity, int selectors, int acceptBacklog, int maxConnections,
		boolean keepAliveEnabled, Duration keepAliveTimeout, int keepAliveMaxRequests,
		double keepAliveReleaseThreshold, Duration headerTimeout, ParserLimits limits, long bufferBudget,
		Duration shutdownGracePeriod, Map<String, PoolConfig> pools, TlsConfig tls, ContentLimits contentLimits,
		long minDataRate, Duration minDataRateGrace, boolean lowResourcesEnabled,
		Duration lowResourcesStallTimeout, boolean http2Enabled, Http2Config http2, ForwardedConfig forwarded,
		AccessLogConfig accessLog, WebSocketConfig webSocket) {

	/** Default port: 8080. */
	public static final int DEFAULT_PORT = 8080;

	/** Default worker threads: 200, as in Tomcat and Jetty (never the core count). */
	public static final int DEFAULT_MAX_THREADS = 200;

	/** Default idle worker threads kept: 10. */
	public static final int DEFAULT_MIN_THREADS = 10;

	/** Default accept backlog: 100. */
	public static final int DEFAULT_ACCEPT_BACKLOG = 100;

	/** Default connection limit: 16,384. */
	public static final int DEFAULT_MAX_CONNECTIONS = 16_384;

	/** Default keep-alive timeout: 20 seconds. */
	public static final Duration DEFAULT_KEEP_ALIVE_TIMEOUT = Duration.ofSeconds(20);

	/** Default release threshold: 0.75, as Tomcat's blocking connector. */
	public static final double DEFAULT_RELEASE_THRESHOLD = 0.75;

	/** Default header timeout: 20 seconds. */
	public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(20);

	/** Smallest buffer budget: 1 MiB, a few dozen connections' buffers. */
	public static final long MIN_BUFFER_BUDGET = 1024 * 1024;

	/** Default grace period: 30 seconds, Spring's default shutdown phase timeout. */
	public static final Duration DEFAULT_SHUTDOWN_GRACE_PERIOD = Duration.ofSeconds(30);

	/**
	 * Default minimum data rate of a request body: 1,024 bytes per second (a trickle of a byte
	 * now and then is cut off; a client on the slowest mobile link is not).
	 */
	public static final long DEFAULT_MIN_DATA_RATE = 1024;

	/**
	 * Default period of the data rate: 20 seconds, the longest pause allowed inside a body, so
	 * that a body that pauses for less and then arrives is never cut off by the rate.
	 */
	public static final Duration DEFAULT_MIN_DATA_RATE_GRACE = Duration.ofSeconds(20);

	/** Default stall timeout of a starved pool: 1 second, as Jetty's low-resources idle timeout. */
	public static final Duration DEFAULT_LOW_RESOURCES_STALL_TIMEOUT = Duration.ofSeconds(1);

	/**
	 * Validates every option.
	 */
	public ServerConfig {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(ioModel, "io-model");
		Objects.requireNonNull(limits, "limits");
		Objects.requireNonNull(contentLimits, "content limits");
		Objects.requireNonNull(http2, "http2");
		Objects.requireNonNull(forwarded, "forwarded");
		Objects.requireNonNull(accessLog, "accesslog");
		Objects.requireNonNull(webSocket, "websocket");
		if (port < 0 || port > 65535) {
			throw invalid("port", port, "between 0 and 65535");
		}
		requirePositive("threads.max", maxThreads);
		if (minThreads < 0 || minThreads > maxThreads) {
			throw invalid("threads.min", minThreads, "between 0 and threads.max (" + maxThreads + ")");
		}
		requirePositive("threads.queue-capacity", queueCapacity);
		requirePositive("selectors", selectors);
		requirePositive("accept-backlog", acceptBacklog);
		requirePositive("max-connections", maxConnections);
		requirePositive("keep-alive.timeout", keepAliveTimeout);
		if (keepAliveMaxRequests < 0) {
			throw invalid("keep-alive.max-requests", keepAliveMaxRequests, "0 (no limit) or more");
		}
		if (!(keepAliveReleaseThreshold > 0 && keepAliveReleaseThreshold <= 1)) {
			throw invalid("keep-alive.release-threshold", keepAliveReleaseThreshold,
					"greater than 0 and at most 1 (1 disables it)");
		}
		requirePositive("request.header-timeout", headerTimeout);
		if (bufferBudget < MIN_BUFFER_BUDGET) {
			throw invalid("buffers.budget", bufferBudget + " bytes", "at least " + MIN_BUFFER_BUDGET + " bytes (1MB)");
		}
		if (minDataRate < 0) {
			throw invalid("request.min-data-rate", minDataRate + " bytes per second", "0 (no minimum) or more");
		}
		requirePositive("request.min-data-rate-grace", minDataRateGrace);
		requirePositive("low-resources.stall-timeout", lowResourcesStallTimeout);
		Objects.requireNonNull(shutdownGracePeriod, "shutdown.grace-period");
		if (shutdownGracePeriod.isNegative()) {
			throw invalid("shutdown.grace-period", shutdownGracePeriod, "zero or more");
		}
		pools = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(pools, "pools")));
		for (Map.Entry<String, PoolConfig> pool : pools.entrySet()) {
			String poolName = pool.getKey();
			if (poolName == null || poolName.isBlank() || poolName.equals("default")) {
				throw invalid("pools", poolName, "named, and not 'default' (the server's own pool)");
			}
			requirePositive("pools." + poolName + ".threads", pool.getValue().maxThreads());
			requirePositive("pools." + poolName + ".queue-capacity", pool.getValue().queueCapacity());
		}
	}

	/**
	 * A route pool: a bounded set of workers of its own, so that the routes it runs cannot take
	 * every worker of the server.
	 *
	 * @param maxThreads most handlers of its routes running at once
	 * @param queueCapacity most requests of its routes waiting; beyond it they are answered 503
	 * @param virtual whether its handlers run on virtual threads (Java 21 or later) instead of
	 * platform threads
	 */
	public record PoolConfig(int maxThreads, int queueCapacity, boolean virtual) {

		/** Default queue capacity of a route pool: 100. */
		public static final int DEFAULT_QUEUE_CAPACITY = 100;

	}

	/**
	 * Returns a builder with every default set.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Returns the default configuration.
	 * @return the defaults
	 */
	public static ServerConfig defaults() {
		return builder().build();
	}

	/**
	 * Returns a builder holding this configuration, to derive a changed copy.
	 * @return a builder with every option of this configuration
	 */
	public Builder toBuilder() {
		Builder builder = new Builder();
		builder.name = this.name;
		builder.address = this.address;
		builder.port = this.port;
		builder.ioModel = this.ioModel;
		builder.maxThreads = this.maxThreads;
		builder.minThreads = this.minThreads;
		builder.queueCapacity = this.queueCapacity;
		builder.selectors = this.selectors;
		builder.acceptBacklog = this.acceptBacklog;
		builder.maxConnections = this.maxConnections;
		builder.keepAliveEnabled = this.keepAliveEnabled;
		builder.keepAliveTimeout = this.keepAliveTimeout;
		builder.keepAliveMaxRequests = this.keepAliveMaxRequests;
		builder.keepAliveReleaseThreshold = this.keepAliveReleaseThreshold;
		builder.headerTimeout = this.headerTimeout;
		builder.limits = this.limits;
		builder.bufferBudget = this.bufferBudget;
		builder.shutdownGracePeriod = this.shutdownGracePeriod;
		builder.pools.putAll(this.pools);
		builder.tls = this.tls;
		builder.contentLimits = this.contentLimits;
		builder.minDataRate = this.minDataRate;
		builder.minDataRateGrace = this.minDataRateGrace;
		builder.lowResourcesEnabled = this.lowResourcesEnabled;
		builder.lowResourcesStallTimeout = this.lowResourcesStallTimeout;
		builder.http2Enabled = this.http2Enabled;
		builder.http2 = this.http2;
		builder.forwarded = this.forwarded;
		builder.accessLog = this.accessLog;
		builder.webSocket = this.webSocket;
		return builder;
	}

	/**
	 * Returns the default buffer budget of this JVM: a quarter of the maximum heap, at least
	 * 16 MiB.
	 * @return the default budget in bytes
	 */
	public static long defaultBufferBudget() {
		return Math.max(16L * 1024 * 1024, Runtime.getRuntime().maxMemory() / 4);
	}

	/**
	 * Returns the default number of selector threads for this machine: half the cores, at
	 * least one and at most four.
	 * @return the default selector count
	 */
	public static int defaultSelectors() {
		return Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() / 2));
	}

	private static void requirePositive(String property, long value) {
		if (value <= 0) {
			throw invalid(property, value, "greater than 0");
		}
	}

	static void requirePositive(String property, Duration value) {
		Objects.requireNonNull(value, property);
		if (value.isNegative() || value.isZero()) {
			throw invalid(property, value, "greater than 0");
		}
	}

	static IllegalArgumentException invalid(String property, Object value, String allowed) {
		return new IllegalArgumentException(
				"ariadne.server." + property + " must be " + allowed + ", but was " + value);
	}

	/**
	 * Builds a {@link ServerConfig}; every option starts at its default.
	 */
	public static final class Builder {

		private String name = "app";

		private InetAddress address;

		private int port = DEFAULT_PORT;

		private IoModel ioModel = IoModel.EVENT_LOOP;

		private int maxThreads = DEFAULT_MAX_THREADS;

		private Integer minThreads;

		private Integer queueCapacity;

		private int selectors = defaultSelectors();

		private int acceptBacklog = DEFAULT_ACCEPT_BACKLOG;

		private int maxConnections = DEFAULT_MAX_CONNECTIONS;

		private boolean keepAliveEnabled = true;

		private boolean http2Enabled;

		private Http2Config http2 = Http2Config.DEFAULTS;

		private ForwardedConfig forwarded = ForwardedConfig.DISABLED;

		private AccessLogConfig accessLog = AccessLogConfig.DISABLED;

		private WebSocketConfig webSocket = WebSocketConfig.DEFAULTS;

		private Duration keepAliveTimeout = DEFAULT_KEEP_ALIVE_TIMEOUT;

		private int keepAliveMaxRequests;

		private double keepAliveReleaseThreshold = DEFAULT_RELEASE_THRESHOLD;

		private Duration headerTimeout = DEFAULT_HEADER_TIMEOUT;

		private ParserLimits limits = ParserLimits.DEFAULTS;

		private Long bufferBudget;

		private Duration shutdownGracePeriod = DEFAULT_SHUTDOWN_GRACE_PERIOD;

		private final Map<String, PoolConfig> pools = new LinkedHashMap<>();

		private TlsConfig tls;

		private ContentLimits contentLimits = ContentLimits.DEFAULTS;

		private long minDataRate = DEFAULT_MIN_DATA_RATE;

		private Duration minDataRateGrace = DEFAULT_MIN_DATA_RATE_GRACE;

		private boolean lowResourcesEnabled = true;

		private Duration lowResourcesStallTimeout = DEFAULT_LOW_RESOURCES_STALL_TIMEOUT;

		private Builder() {
		}

		/**
		 * Declares a route pool (none by default).
		 * @param name the pool name, which routes refer to
		 * @param pool its size
		 * @return this builder
		 */
		public Builder pool(String name, PoolConfig pool) {
			this.pools.put(name, Objects.requireNonNull(pool, "pool"));
			return this;
		}

		/**
		 * Sets the listener name (default {@code app}).
		 * @param name the name
		 * @return this builder
		 */
		public Builder name(String name) {
			this.name = name;
			return this;
		}

		/**
		 * Sets the bind address (default: every local address).
		 * @param address the address, or {@code null}
		 * @return this builder
		 */
		public Builder address(InetAddress address) {
			this.address = address;
			return this;
		}

		/**
		 * Sets the port (default 8080; 0 picks a free one).
		 * @param port the port
		 * @return this builder
		 */
		public Builder port(int port) {
			this.port = port;
			return this;
		}

		/**
		 * Sets the I/O model (default {@code event-loop}: an idle connection costs no thread).
		 * @param ioModel the model
		 * @return this builder
		 */
		public Builder ioModel(IoModel ioModel) {
			this.ioModel = ioModel;
			return this;
		}

		/**
		 * Sets the most worker threads (default 200).
		 * @param maxThreads the maximum
		 * @return this builder
		 */
		public Builder maxThreads(int maxThreads) {
			this.maxThreads = maxThreads;
			return this;
		}

		/**
		 * Sets the idle worker threads kept (default 10, or the maximum when that is lower).
		 * @param minThreads the minimum
		 * @return this builder
		 */
		public Builder minThreads(int minThreads) {
			this.minThreads = minThreads;
			return this;
		}

		/**
		 * Sets the most connections or requests waiting for a worker (default: the connection
		 * limit, so the queue itself never refuses).
		 * @param queueCapacity the capacity
		 * @return this builder
		 */
		public Builder queueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
			return this;
		}

		/**
		 * Sets the selector threads (default: half the cores, 1 to 4).
		 * @param selectors the count
		 * @return this builder
		 */
		public Builder selectors(int selectors) {
			this.selectors = selectors;
			return this;
		}

		/**
		 * Sets the requested accept backlog (default 100).
		 * @param acceptBacklog the backlog
		 * @return this builder
		 */
		public Builder acceptBacklog(int acceptBacklog) {
			this.acceptBacklog = acceptBacklog;
			return this;
		}

		/**
		 * Sets the connection limit (default 16,384).
		 * @param maxConnections the limit
		 * @return this builder
		 */
		public Builder maxConnections(int maxConnections) {
			this.maxConnections = maxConnections;
			return this;
		}

		/**
		 * Sets whether the listener serves HTTP/2 beside HTTP/1.1: h2 by ALPN on TLS, h2c on
		 * plaintext (default {@code false}).
		 * @param enabled whether HTTP/2 is on
		 * @return this builder
		 */
		public Builder http2Enabled(boolean enabled) {
			this.http2Enabled = enabled;
			return this;
		}

		/**
		 * Sets whether, and from which proxies, forwarded headers are believed (default off).
		 * @param forwarded the forwarded-headers configuration
		 * @return this builder
		 */
		public Builder forwarded(ForwardedConfig forwarded) {
			this.forwarded = Objects.requireNonNull(forwarded, "forwarded");
			return this;
		}

		/**
		 * Sets whether, how and where the listener logs its exchanges (default off).
		 * @param accessLog the access-log configuration
		 * @return this builder
		 */
		public Builder accessLog(AccessLogConfig accessLog) {
			this.accessLog = Objects.requireNonNull(accessLog, "accessLog");
			return this;
		}

		/**
		 * Sets what WebSocket sessions are allowed (default {@link WebSocketConfig#DEFAULTS}).
		 * @param webSocket the WebSocket configuration
		 * @return this builder
		 */
		public Builder webSocket(WebSocketConfig webSocket) {
			this.webSocket = Objects.requireNonNull(webSocket, "websocket");
			return this;
		}

		/**
		 * Sets what HTTP/2 clients are allowed.
		 * @param http2 the HTTP/2 configuration
		 * @return this builder
		 */
		public Builder http2(Http2Config http2) {
			this.http2 = Objects.requireNonNull(http2, "http2");
			return this;
		}

		/**
		 * Sets whether connections persist (default {@code true}).
		 * @param enabled whether keep-alive is on
		 * @return this builder
		 */
		public Builder keepAliveEnabled(boolean enabled) {
			this.keepAliveEnabled = enabled;
			return this;
		}

		/**
		 * Sets the idle timeout of a kept connection (default 20 s).
		 * @param timeout the timeout
		 * @return this builder
		 */
		public Builder keepAliveTimeout(Duration timeout) {
			this.keepAliveTimeout = timeout;
			return this;
		}

		/**
		 * Sets the most requests per connection (default 0, no limit).
		 * @param maxRequests the limit
		 * @return this builder
		 */
		public Builder keepAliveMaxRequests(int maxRequests) {
			this.keepAliveMaxRequests = maxRequests;
			return this;
		}

		/**
		 * Sets the busy share above which the blocking model closes kept connections (default
		 * 0.75; 1 disables it).
		 * @param threshold the share, in (0, 1]
		 * @return this builder
		 */
		public Builder keepAliveReleaseThreshold(double threshold) {
			this.keepAliveReleaseThreshold = threshold;
			return this;
		}

		/**
		 * Sets the time allowed to send a request head (default 20 s).
		 * @param timeout the timeout
		 * @return this builder
		 */
		public Builder headerTimeout(Duration timeout) {
			this.headerTimeout = timeout;
			return this;
		}

		/**
		 * Sets the request size limits (default {@link ParserLimits#DEFAULTS}).
		 * @param limits the limits
		 * @return this builder
		 */
		public Builder limits(ParserLimits limits) {
			this.limits = limits;
			return this;
		}

		/**
		 * Sets the most bytes held in buffers over all connections (default: a quarter of the
		 * maximum heap, at least 16 MiB).
		 * @param bytes the budget
		 * @return this builder
		 */
		public Builder bufferBudget(long bytes) {
			this.bufferBudget = bytes;
			return this;
		}

		/**
		 * Sets the graceful shutdown period (default 30 s).
		 * @param gracePeriod the period
		 * @return this builder
		 */
		public Builder shutdownGracePeriod(Duration gracePeriod) {
			this.shutdownGracePeriod = gracePeriod;
			return this;
		}

		/**
		 * Sets how the listener terminates TLS (default: none, plaintext HTTP).
		 * @param tls the TLS configuration, or {@code null} for plaintext
		 * @return this builder
		 */
		public Builder tls(TlsConfig tls) {
			this.tls = tls;
			return this;
		}

		/**
		 * Sets what a request may make the server parse beyond its head (default
		 * {@link ContentLimits#DEFAULTS}).
		 * @param limits the limits
		 * @return this builder
		 */
		public Builder contentLimits(ContentLimits limits) {
			this.contentLimits = limits;
			return this;
		}

		/**
		 * Sets the slowest a request body may arrive while the server waits for it (default
		 * 1,024 bytes per second; 0 disables the check).
		 * @param bytesPerSecond the rate
		 * @return this builder
		 */
		public Builder minDataRate(long bytesPerSecond) {
			this.minDataRate = bytesPerSecond;
			return this;
		}

		/**
		 * Sets how long the server waits for a body before the data rate applies, and the period
		 * it is measured over (default 20 s).
		 * @param grace the period
		 * @return this builder
		 */
		public Builder minDataRateGrace(Duration grace) {
			this.minDataRateGrace = grace;
			return this;
		}

		/**
		 * Sets whether clients that keep a worker of a starved pool waiting are cut off after the
		 * stall timeout (default {@code true}).
		 * @param enabled whether the low-resources mode is on
		 * @return this builder
		 */
		public Builder lowResourcesEnabled(boolean enabled) {
			this.lowResourcesEnabled = enabled;
			return this;
		}

		/**
		 * Sets the longest a client may keep a worker of a starved pool waiting (default 1 s).
		 * @param timeout the timeout
		 * @return this builder
		 */
		public Builder lowResourcesStallTimeout(Duration timeout) {
			this.lowResourcesStallTimeout = timeout;
			return this;
		}

		/**
		 * Validates and builds the configuration.
		 * @return the configuration
		 * @throws IllegalArgumentException naming the first invalid option
		 */
		public ServerConfig build() {
			int capacity = (this.queueCapacity != null) ? this.queueCapacity : this.maxConnections;
			int min = (this.minThreads != null) ? this.minThreads : Math.min(DEFAULT_MIN_THREADS, this.maxThreads);
			return new ServerConfig(this.name, this.address, this.port, this.ioModel, this.maxThreads,
					min, capacity, this.selectors, this.acceptBacklog,
					this.maxConnections, this.keepAliveEnabled, this.keepAliveTimeout, this.keepAliveMaxRequests,
					this.keepAliveReleaseThreshold, this.headerTimeout, this.limits,
					(this.bufferBudget != null) ? this.bufferBudget : defaultBufferBudget(), this.shutdownGracePeriod,
					this.pools, this.tls, this.contentLimits, this.minDataRate, this.minDataRateGrace,
					this.lowResourcesEnabled, this.lowResourcesStallTimeout, this.http2Enabled, this.http2,
					this.forwarded, this.accessLog, this.webSocket);
		}

	}

}
