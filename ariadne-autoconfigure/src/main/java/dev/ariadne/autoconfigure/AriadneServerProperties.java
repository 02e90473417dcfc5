package dev.ariadne.autoconfigure;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ariadne.server.AccessLogConfig;
import dev.ariadne.server.ForwardedConfig;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.TlsConfig;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * {@link ConfigurationProperties @ConfigurationProperties} for the Ariadne server
 * ({@code ariadne.server.*}).
 *
 * <p>Defaults are written as literals so that the configuration processor can publish them;
 * they match the defaults of {@link dev.ariadne.server.ServerConfig} and
 * {@link dev.ariadne.http.ParserLimits}. Values are validated when the server is configured,
 * not here.
 */
@ConfigurationProperties("ariadne.server")
public class AriadneServerProperties {

	/**
	 * Port the server listens on. 0 picks a free port.
	 */
	private int port = 8080;

	/**
	 * Network address the server binds to. Every local address when not set.
	 */
	private InetAddress address;

	/**
	 * How connections are served: a worker per connection (blocking), selectors handing
	 * complete requests to workers (event-loop), or a virtual thread per connection
	 * (virtual-threads, Java 21 or later).
	 */
	private IoModel ioModel = IoModel.EVENT_LOOP;

	/**
	 * Number of selector threads of the event-loop model. Half the available processors, from 1
	 * to 4, when not set.
	 */
	private Integer selectors;

	/**
	 * Length of the kernel's queue of connections waiting to be accepted, as requested from the
	 * operating system.
	 */
	private int acceptBacklog = 100;

	/**
	 * Maximum number of open connections. At the limit the server stops accepting and new
	 * connections wait in the accept queue.
	 */
	private int maxConnections = 16384;

	private final Threads threads = new Threads();

	private final Ssl ssl = new Ssl();

	private final KeepAlive keepAlive = new KeepAlive();

	private final Http2 http2 = new Http2();

	private final WebSocket websocket = new WebSocket();

	private final Forwarded forwarded = new Forwarded();

	private final Accesslog accesslog = new Accesslog();

	private final Request request = new Request();

	private final Shutdown shutdown = new Shutdown();

	private final Buffers buffers = new Buffers();

	private final LowResources lowResources = new LowResources();

	private final Health health = new Health();

	private final Diagnosis diagnosis = new Diagnosis();

	private final Webflux webflux = new Webflux();

	/**
	 * Route pools by name: bounded worker pools of their own, for the routes that name them
	 * (bulkheads), so that a CPU-heavy route cannot take every worker of the server.
	 */
	private final Map<String, Pool> pools = new LinkedHashMap<>();

	/**
	 * Per-route settings by route template. Write the template in brackets to keep its
	 * slashes, for example routes[/api/compute].pool=compute.
	 */
	private final Map<String, RouteSettings> routes = new LinkedHashMap<>();

	/**
	 * More listeners serving the same application, each on a port of its own (an HTTP port
	 * beside HTTPS, say), in the same I/O model and with pools of its own sized as this
	 * listener's. Each entry: port (required), address, name (the metrics listener tag, default
	 * app-PORT), ssl.bundle, ssl.client-auth, ssl.server-name-bundles, ssl.handshake-timeout and
	 * http2.enabled.
	 */
	private final List<AdditionalListenerProperties> additionalListeners = new ArrayList<>();

	/**
	 * Returns the port the server listens on.
	 * @return the port, 0 for a free one
	 */
	public int getPort() {
		return this.port;
	}

	/**
	 * Sets the port the server listens on.
	 * @param port the port, 0 for a free one
	 */
	public void setPort(int port) {
		this.port = port;
	}

	/**
	 * Returns the address the server binds to.
	 * @return the address, or {@code null} for every local address
	 */
	public InetAddress getAddress() {
		return this.address;
	}

	/**
	 * Sets the address the server binds to.
	 * @param address the address, or {@code null} for every local address
	 */
	public void setAddress(InetAddress address) {
		this.address = address;
	}

	/**
	 * Returns the I/O model.
	 * @return the I/O model
	 */
	public IoModel getIoModel() {
		return this.ioModel;
	}

	/**
	 * Sets the I/O model.
	 * @param ioModel the I/O model
	 */
	public void setIoModel(IoModel ioModel) {
		this.ioModel = ioModel;
	}

	/**
	 * Returns the number of selector threads of the event-loop model.
	 * @return the number of selectors, or {@code null} to derive it from the processors
	 */
	public Integer getSelectors() {
		return this.selectors;
	}

	/**
	 * Sets the number of selector threads of the event-loop model.
	 * @param selectors the number of selectors, or {@code null} to derive it from the
	 * processors
	 */
	public void setSelectors(Integer selectors) {
		this.selectors = selectors;
	}

	/**
	 * Returns the requested length of the accept queue.
	 * @return the accept backlog
	 */
	public int getAcceptBacklog() {
		return this.acceptBacklog;
	}

	/**
	 * Sets the requested length of the accept queue.
	 * @param acceptBacklog the accept backlog
	 */
	public void setAcceptBacklog(int acceptBacklog) {
		this.acceptBacklog = acceptBacklog;
	}

	/**
	 * Returns the maximum number of open connections.
	 * @return the connection limit
	 */
	public int getMaxConnections() {
		return this.maxConnections;
	}

	/**
	 * Sets the maximum number of open connections.
	 * @param maxConnections the connection limit
	 */
	public void setMaxConnections(int maxConnections) {
		this.maxConnections = maxConnections;
	}

	/**
	 * Returns the TLS settings.
	 * @return the TLS settings
	 */
	public Ssl getSsl() {
		return this.ssl;
	}

	/**
	 * Returns the worker thread settings.
	 * @return the thread settings
	 */
	public Threads getThreads() {
		return this.threads;
	}

	/**
	 * Returns the HTTP/2 settings.
	 * @return the settings
	 */
	public Http2 getHttp2() {
		return this.http2;
	}

	/**
	 * Returns the WebSocket settings.
	 * @return the settings
	 */
	public WebSocket getWebsocket() {
		return this.websocket;
	}

	/**
	 * Returns the forwarded-headers settings.
	 * @return the settings
	 */
	public Forwarded getForwarded() {
		return this.forwarded;
	}

	/**
	 * Returns the access-log settings.
	 * @return the settings
	 */
	public Accesslog getAccesslog() {
		return this.accesslog;
	}

	/**
	 * Returns the keep-alive settings.
	 * @return the settings
	 */
	public KeepAlive getKeepAlive() {
		return this.keepAlive;
	}

	/**
	 * Returns the request limits.
	 * @return the request settings
	 */
	public Request getRequest() {
		return this.request;
	}

	/**
	 * Returns the shutdown settings.
	 * @return the shutdown settings
	 */
	public Shutdown getShutdown() {
		return this.shutdown;
	}

	/**
	 * Returns the buffer settings.
	 * @return the buffer settings
	 */
	public Buffers getBuffers() {
		return this.buffers;
	}

	/**
	 * Returns the settings of the low-resources mode.
	 * @return the low-resources settings
	 */
	public LowResources getLowResources() {
		return this.lowResources;
	}

	/**
	 * Returns the health settings.
	 * @return the health settings
	 */
	public Health getHealth() {
		return this.health;
	}

	/**
	 * Returns the diagnosis settings.
	 * @return the diagnosis settings
	 */
	public Diagnosis getDiagnosis() {
		return this.diagnosis;
	}

	/**
	 * Returns the settings of Spring WebFlux applications.
	 * @return the WebFlux settings
	 */
	public Webflux getWebflux() {
		return this.webflux;
	}

	/**
	 * Returns the route pools by name.
	 * @return the route pools
	 */
	public Map<String, Pool> getPools() {
		return this.pools;
	}

	/**
	 * Returns the per-route settings by route template.
	 * @return the route settings
	 */
	public Map<String, RouteSettings> getRoutes() {
		return this.routes;
	}

	/**
	 * Returns the additional listeners.
	 * @return the mutable list, in order
	 */
	public List<AdditionalListenerProperties> getAdditionalListeners() {
		return this.additionalListeners;
	}

	/**
	 * A route pool.
	 */
	public static class Pool {

		/**
		 * Maximum number of handlers of the pool's routes running at once. Required.
		 */
		private Integer threads;

		/**
		 * Maximum number of requests of the pool's routes waiting for one of its threads;
		 * beyond it they are answered with 503.
		 */
		private int queueCapacity = 100;

		/**
		 * Whether the pool's handlers run on virtual threads (Java 21 or later) instead of
		 * platform threads.
		 */
		private boolean virtual;

		/**
		 * Returns the maximum number of handlers running at once.
		 * @return the thread count, or {@code null} when not set
		 */
		public Integer getThreads() {
			return this.threads;
		}

		/**
		 * Sets the maximum number of handlers running at once.
		 * @param threads the thread count
		 */
		public void setThreads(Integer threads) {
			this.threads = threads;
		}

		/**
		 * Returns the capacity of the pool's queue.
		 * @return the capacity
		 */
		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		/**
		 * Sets the capacity of the pool's queue.
		 * @param queueCapacity the capacity
		 */
		public void setQueueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

		/**
		 * Returns whether handlers run on virtual threads.
		 * @return whether virtual
		 */
		public boolean isVirtual() {
			return this.virtual;
		}

		/**
		 * Sets whether handlers run on virtual threads.
		 * @param virtual whether virtual
		 */
		public void setVirtual(boolean virtual) {
			this.virtual = virtual;
		}

	}

	/**
	 * Settings of one route.
	 */
	public static class RouteSettings {

		/**
		 * Name of the route pool (ariadne.server.pools.NAME) that runs the route's handler,
		 * instead of the server's own pool.
		 */
		private String pool;

		/**
		 * Returns the name of the route's pool.
		 * @return the pool name, or {@code null} for the server's own pool
		 */
		public String getPool() {
			return this.pool;
		}

		/**
		 * Sets the name of the route's pool.
		 * @param pool the pool name
		 */
		public void setPool(String pool) {
			this.pool = pool;
		}

	}

	/**
	 * Worker thread settings.
	 */
	public static class Threads {

		/**
		 * Maximum number of worker threads. For virtual-threads, the maximum number of requests
		 * in flight. Size it for concurrent requests, not for processor cores.
		 */
		private int max = 200;

		/**
		 * Minimum number of worker threads kept alive when idle. When not set, 10, or
		 * threads.max when that is lower.
		 */
		private Integer min;

		/**
		 * Maximum number of connections (blocking) or requests (event-loop) waiting for a
		 * worker; beyond it they are answered with 503. max-connections when not set.
		 */
		private Integer queueCapacity;

		/**
		 * Returns the maximum number of worker threads.
		 * @return the maximum number of worker threads
		 */
		public int getMax() {
			return this.max;
		}

		/**
		 * Sets the maximum number of worker threads.
		 * @param max the maximum number of worker threads
		 */
		public void setMax(int max) {
			this.max = max;
		}

		/**
		 * Returns the minimum number of idle worker threads kept alive.
		 * @return the minimum, or {@code null} for the server's default
		 */
		public Integer getMin() {
			return this.min;
		}

		/**
		 * Sets the minimum number of idle worker threads kept alive.
		 * @param min the minimum, or {@code null} for the server's default
		 */
		public void setMin(Integer min) {
			this.min = min;
		}

		/**
		 * Returns the capacity of the queue in front of the workers.
		 * @return the capacity, or {@code null} for the connection limit
		 */
		public Integer getQueueCapacity() {
			return this.queueCapacity;
		}

		/**
		 * Sets the capacity of the queue in front of the workers.
		 * @param queueCapacity the capacity, or {@code null} for the connection limit
		 */
		public void setQueueCapacity(Integer queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

	}

	/**
	 * Forwarded headers: what a proxy in front says of the client.
	 */
	public static class Forwarded {

		/**
		 * Whether the client's address, scheme and host are taken from the Forwarded (RFC 7239)
		 * or X-Forwarded-For, -Proto, -Host and -Port headers of a request from a trusted proxy,
		 * and its path prefix from X-Forwarded-Prefix.
		 * Unset: off, except that in a Spring MVC or WebFlux app server.forward-headers-strategy
		 * decides (native turns it on), and on a cloud platform such as Kubernetes it is on, as
		 * Boot does for Tomcat and Jetty.
		 */
		private Boolean enabled;

		/**
		 * Addresses or CIDR blocks of the proxies whose forwarded headers are believed; a request
		 * from any other peer keeps its connection's values. Default: the private, shared,
		 * loopback and link-local ranges (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16,
		 * 100.64.0.0/10, 127.0.0.0/8, 169.254.0.0/16, ::1/128, fc00::/7, fe80::/10).
		 */
		private List<String> trustedProxies = new ArrayList<>(ForwardedConfig.INTERNAL_PROXIES);

		/**
		 * Returns whether forwarded headers are read, {@code null} when not set.
		 * @return whether enabled
		 */
		public Boolean getEnabled() {
			return this.enabled;
		}

		/**
		 * Sets whether forwarded headers are read.
		 * @param enabled whether enabled
		 */
		public void setEnabled(Boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Returns the trusted proxies.
		 * @return addresses and CIDR blocks
		 */
		public List<String> getTrustedProxies() {
			return this.trustedProxies;
		}

		/**
		 * Sets the trusted proxies.
		 * @param trustedProxies addresses and CIDR blocks
		 */
		public void setTrustedProxies(List<String> trustedProxies) {
			this.trustedProxies = trustedProxies;
		}

	}

	/**
	 * Access log: a line per exchange, written by a thread of its own off the request path.
	 */
	public static class Accesslog {

		/**
		 * Whether exchanges are logged. The management listener, when it has a port of its own,
		 * logs too, to files whose names start with management_.
		 */
		private boolean enabled;

		/**
		 * Named format of a line: common, combined (common with the referrer and the user agent)
		 * or json (one object per line, with the wait for a worker, the pool and the I/O model).
		 */
		private AccessLogConfig.Format format = AccessLogConfig.Format.COMBINED;

		/**
		 * Pattern of %-codes in the manner of Apache and Tomcat, which replaces the format: %h,
		 * %t, %r, %s, %b, %D, %{Referer}i and the like, and Ariadne's %{wait}x (time waited for
		 * a worker, ms), %{pool}x, %{model}x, %{listener}x and %{route}x.
		 */
		private String pattern;

		/**
		 * Whether lines go to standard output instead of a file.
		 */
		private boolean console;

		/**
		 * Directory of the log files, relative to the working directory unless absolute.
		 */
		private String directory = "logs";

		/**
		 * Start of a log file's name.
		 */
		private String prefix = "access_log";

		/**
		 * End of a log file's name.
		 */
		private String suffix = ".log";

		/**
		 * Date between prefix and suffix, as a date-time pattern; a new file begins when it
		 * changes (daily by default, hourly with a pattern that has the hour).
		 */
		private String fileDateFormat = ".yyyy-MM-dd";

		/**
		 * Whether log files are dated and begin anew; without, one file named prefix and suffix.
		 */
		private boolean rotate = true;

		/**
		 * Number of days dated log files are kept before they are deleted; -1 keeps every one.
		 */
		private int maxDays = -1;

		/**
		 * Maximum number of lines waiting for the writer; beyond it lines are dropped and
		 * counted (ariadne_accesslog_dropped_total) rather than holding up a request.
		 */
		private int queueCapacity = 8192;

		/**
		 * Returns whether exchanges are logged.
		 * @return whether enabled
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets whether exchanges are logged.
		 * @param enabled whether enabled
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Returns the named format.
		 * @return the format
		 */
		public AccessLogConfig.Format getFormat() {
			return this.format;
		}

		/**
		 * Sets the named format.
		 * @param format the format
		 */
		public void setFormat(AccessLogConfig.Format format) {
			this.format = format;
		}

		/**
		 * Returns the pattern.
		 * @return the pattern, or {@code null}
		 */
		public String getPattern() {
			return this.pattern;
		}

		/**
		 * Sets the pattern.
		 * @param pattern the pattern
		 */
		public void setPattern(String pattern) {
			this.pattern = pattern;
		}

		/**
		 * Returns whether lines go to standard output.
		 * @return whether to the console
		 */
		public boolean isConsole() {
			return this.console;
		}

		/**
		 * Sets whether lines go to standard output.
		 * @param console whether to the console
		 */
		public void setConsole(boolean console) {
			this.console = console;
		}

		/**
		 * Returns the directory of the log files.
		 * @return the directory
		 */
		public String getDirectory() {
			return this.directory;
		}

		/**
		 * Sets the directory of the log files.
		 * @param directory the directory
		 */
		public void setDirectory(String directory) {
			this.directory = directory;
		}

		/**
		 * Returns the start of a log file's name.
		 * @return the prefix
		 */
		public String getPrefix() {
			return this.prefix;
		}

		/**
		 * Sets the start of a log file's name.
		 * @param prefix the prefix
		 */
		public void setPrefix(String prefix) {
			this.prefix = prefix;
		}

		/**
		 * Returns the end of a log file's name.
		 * @return the suffix
		 */
		public String getSuffix() {
			return this.suffix;
		}

		/**
		 * Sets the end of a log file's name.
		 * @param suffix the suffix
		 */
		public void setSuffix(String suffix) {
			this.suffix = suffix;
		}

		/**
		 * Returns the date part of a log file's name.
		 * @return a date-time pattern
		 */
		public String getFileDateFormat() {
			return this.fileDateFormat;
		}

		/**
		 * Sets the date part of a log file's name.
		 * @param fileDateFormat a date-time pattern
		 */
		public void setFileDateFormat(String fileDateFormat) {
			this.fileDateFormat = fileDateFormat;
		}

		/**
		 * Returns whether log files are dated and begin anew.
		 * @return whether to rotate
		 */
		public boolean isRotate() {
			return this.rotate;
		}

		/**
		 * Sets whether log files are dated and begin anew.
		 * @param rotate whether to rotate
		 */
		public void setRotate(boolean rotate) {
			this.rotate = rotate;
		}

		/**
		 * Returns how many days dated log files are kept.
		 * @return the days, -1 for every file
		 */
		public int getMaxDays() {
			return this.maxDays;
		}

		/**
		 * Sets how many days dated log files are kept.
		 * @param maxDays the days, -1 for every file
		 */
		public void setMaxDays(int maxDays) {
			this.maxDays = maxDays;
		}

		/**
		 * Returns the most lines waiting for the writer.
		 * @return the capacity
		 */
		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		/**
		 * Sets the most lines waiting for the writer.
		 * @param queueCapacity the capacity
		 */
		public void setQueueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

	}

	/**
	 * HTTP/2 settings.
	 */
	public static class Http2 {

		/**
		 * Whether the listener also serves HTTP/2 beside HTTP/1.1 on the same port: h2 by ALPN
		 * on TLS, h2c on plaintext (by prior knowledge, or by an Upgrade request without
		 * content). In a Spring MVC or WebFlux app, server.http2.enabled does the same.
		 */
		private boolean enabled;

		/**
		 * Streams a client may have open at once on one connection (SETTINGS_MAX_CONCURRENT_STREAMS);
		 * one more is refused with REFUSED_STREAM. Tomcat 100, Jetty 128.
		 */
		private Integer maxConcurrentStreams = 100;

		/**
		 * Bytes a client may send on one stream before the server reads them (SETTINGS_INITIAL_WINDOW_SIZE),
		 * from 65535B: the request content held for a stream that is slow to read it.
		 */
		private DataSize initialWindowSize = DataSize.ofBytes(65535);

		/**
		 * Bytes a client may send on all streams of a connection before the server reads them, from
		 * 65535B.
		 */
		private DataSize connectionWindowSize = DataSize.ofMegabytes(1);

		/**
		 * Largest frame payload a client may send (SETTINGS_MAX_FRAME_SIZE), 16KB to 16777215B.
		 */
		private DataSize maxFrameSize = DataSize.ofKilobytes(16);

		/**
		 * Largest decoded header list of a request (SETTINGS_MAX_HEADER_LIST_SIZE); a larger one is
		 * answered 431. When unset, request.max-header-size (or server.max-http-request-header-size).
		 */
		private DataSize maxHeaderListSize;

		/**
		 * Frames that cost work and carry no request (SETTINGS, PING, PRIORITY, empty DATA, WINDOW_UPDATEs
		 * of small credit never used, unknown types) a client may send per rate-window; one more ends
		 * the connection with ENHANCE_YOUR_CALM.
		 */
		private Integer maxControlFrames = 1000;

		/**
		 * Streams a client may reset before their response ended (Rapid Reset), and separately streams
		 * it may make the server reset by invalid frames (MadeYouReset), per rate-window; one more ends
		 * the connection with ENHANCE_YOUR_CALM.
		 */
		private Integer maxResets = 200;

		/**
		 * Window over which max-control-frames and max-resets are counted.
		 */
		private Duration rateWindow = Duration.ofSeconds(30);

		/**
		 * Longest a stream's response may wait for flow-control credit, or for the client to read,
		 * before the stream is reset.
		 */
		private Duration writeTimeout = Duration.ofSeconds(20);

		/**
		 * Returns whether HTTP/2 is served.
		 * @return whether enabled
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets whether HTTP/2 is served.
		 * @param enabled whether enabled
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Returns the most concurrent streams.
		 * @return the most concurrent streams
		 */
		public Integer getMaxConcurrentStreams() {
			return this.maxConcurrentStreams;
		}

		/**
		 * Sets the most concurrent streams.
		 * @param maxConcurrentStreams the most concurrent streams
		 */
		public void setMaxConcurrentStreams(Integer maxConcurrentStreams) {
			this.maxConcurrentStreams = maxConcurrentStreams;
		}

		/**
		 * Returns the stream window.
		 * @return the stream window
		 */
		public DataSize getInitialWindowSize() {
			return this.initialWindowSize;
		}

		/**
		 * Sets the stream window.
		 * @param initialWindowSize the stream window
		 */
		public void setInitialWindowSize(DataSize initialWindowSize) {
			this.initialWindowSize = initialWindowSize;
		}

		/**
		 * Returns the connection window.
		 * @return the connection window
		 */
		public DataSize getConnectionWindowSize() {
			return this.connectionWindowSize;
		}

		/**
		 * Sets the connection window.
		 * @param connectionWindowSize the connection window
		 */
		public void setConnectionWindowSize(DataSize connectionWindowSize) {
			this.connectionWindowSize = connectionWindowSize;
		}

		/**
		 * Returns the largest frame.
		 * @return the largest frame
		 */
		public DataSize getMaxFrameSize() {
			return this.maxFrameSize;
		}

		/**
		 * Sets the largest frame.
		 * @param maxFrameSize the largest frame
		 */
		public void setMaxFrameSize(DataSize maxFrameSize) {
			this.maxFrameSize = maxFrameSize;
		}

		/**
		 * Returns the largest header list.
		 * @return the largest header list
		 */
		public DataSize getMaxHeaderListSize() {
			return this.maxHeaderListSize;
		}

		/**
		 * Sets the largest header list.
		 * @param maxHeaderListSize the largest header list
		 */
		public void setMaxHeaderListSize(DataSize maxHeaderListSize) {
			this.maxHeaderListSize = maxHeaderListSize;
		}

		/**
		 * Returns the most control frames per window.
		 * @return the most control frames per window
		 */
		public Integer getMaxControlFrames() {
			return this.maxControlFrames;
		}

		/**
		 * Sets the most control frames per window.
		 * @param maxControlFrames the most control frames per window
		 */
		public void setMaxControlFrames(Integer maxControlFrames) {
			this.maxControlFrames = maxControlFrames;
		}

		/**
		 * Returns the most resets per window.
		 * @return the most resets per window
		 */
		public Integer getMaxResets() {
			return this.maxResets;
		}

		/**
		 * Sets the most resets per window.
		 * @param maxResets the most resets per window
		 */
		public void setMaxResets(Integer maxResets) {
			this.maxResets = maxResets;
		}

		/**
		 * Returns the rate window.
		 * @return the rate window
		 */
		public Duration getRateWindow() {
			return this.rateWindow;
		}

		/**
		 * Sets the rate window.
		 * @param rateWindow the rate window
		 */
		public void setRateWindow(Duration rateWindow) {
			this.rateWindow = rateWindow;
		}

		/**
		 * Returns the stream write timeout.
		 * @return the stream write timeout
		 */
		public Duration getWriteTimeout() {
			return this.writeTimeout;
		}

		/**
		 * Sets the stream write timeout.
		 * @param writeTimeout the stream write timeout
		 */
		public void setWriteTimeout(Duration writeTimeout) {
			this.writeTimeout = writeTimeout;
		}

	}

	/**
	 * Keep-alive (persistent connection) settings.
	 */
	public static class KeepAlive {

		/**
		 * Whether connections are kept open between requests.
		 */
		private boolean enabled = true;

		/**
		 * Time an idle connection is kept open, and longest time a response write may make no
		 * progress.
		 */
		private Duration timeout = Duration.ofSeconds(20);

		/**
		 * Maximum number of requests served on one connection. 0 for no limit.
		 */
		private int maxRequests = 0;

		/**
		 * Share of busy workers, blocking model only, above which, while connections wait for
		 * a worker, responses carry 'Connection: close' so that workers pinned by idle
		 * connections are released, one per waiting connection. 1 disables it.
		 */
		private double releaseThreshold = 0.75;

		/**
		 * Returns whether connections are kept open between requests.
		 * @return whether keep-alive is enabled
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets whether connections are kept open between requests.
		 * @param enabled whether keep-alive is enabled
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Returns the idle timeout of a kept connection.
		 * @return the timeout
		 */
		public Duration getTimeout() {
			return this.timeout;
		}

		/**
		 * Sets the idle timeout of a kept connection.
		 * @param timeout the timeout
		 */
		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		/**
		 * Returns the maximum number of requests served on one connection.
		 * @return the maximum, 0 for no limit
		 */
		public int getMaxRequests() {
			return this.maxRequests;
		}

		/**
		 * Sets the maximum number of requests served on one connection.
		 * @param maxRequests the maximum, 0 for no limit
		 */
		public void setMaxRequests(int maxRequests) {
			this.maxRequests = maxRequests;
		}

		/**
		 * Returns the share of busy workers above which kept connections are released.
		 * @return the threshold, in (0, 1]
		 */
		public double getReleaseThreshold() {
			return this.releaseThreshold;
		}

		/**
		 * Sets the share of busy workers above which kept connections are released.
		 * @param releaseThreshold the threshold, in (0, 1]; 1 disables it
		 */
		public void setReleaseThreshold(double releaseThreshold) {
			this.releaseThreshold = releaseThreshold;
		}

	}

	/**
	 * Request limits.
	 */
	public static class Request {

		/**
		 * Time a client may take to send a request's head, and longest pause between two reads
		 * of a request body.
		 */
		private Duration headerTimeout = Duration.ofSeconds(20);

		/**
		 * Maximum length of the request line. Longer lines are answered with 414.
		 */
		private DataSize maxLineLength = DataSize.ofKilobytes(8);

		/**
		 * Maximum size of the header section. Larger sections are answered with 431.
		 */
		private DataSize maxHeaderSize = DataSize.ofKilobytes(16);

		/**
		 * Maximum number of header fields. More fields are answered with 431.
		 */
		private int maxHeaderCount = 100;

		/**
		 * Maximum size of a request body. Larger bodies are answered with 413 before any of it
		 * is read.
		 */
		private DataSize maxBodySize = DataSize.ofMegabytes(10);

		/**
		 * Slowest a request body may arrive, per second, while the server waits for it: every
		 * min-data-rate-grace of waiting must bring at least this rate's worth of bytes, or the
		 * request is answered 408 (the connection closed once the response is committed). Time in
		 * which the server did not ask for bytes does not count. 0 disables the check.
		 */
		private DataSize minDataRate = DataSize.ofKilobytes(1);

		/**
		 * Time the server waits for a request body before the minimum data rate applies, and
		 * the period over which the rate is measured from then on.
		 */
		private Duration minDataRateGrace = Duration.ofSeconds(20);

		/**
		 * Maximum number of request parameters, query string and form body (or multipart
		 * fields) together. More are answered with 400.
		 */
		private int maxParameters = 1000;

		/**
		 * Maximum size of an application/x-www-form-urlencoded body parsed into parameters.
		 * Larger forms are answered with 413.
		 */
		private DataSize maxFormSize = DataSize.ofMegabytes(2);

		/**
		 * Maximum number of cookies in a request. More are answered with 400.
		 */
		private int maxCookies = 200;

		/**
		 * Maximum number of parts of a multipart body, fields and files together. More are
		 * answered with 400.
		 */
		private int maxParts = 50;

		/**
		 * Maximum size of the header section of one part of a multipart body. Larger sections
		 * are answered with 413.
		 */
		private DataSize maxPartHeaderSize = DataSize.ofBytes(512);

		/**
		 * Returns the time allowed for a request's head.
		 * @return the header timeout
		 */
		public Duration getHeaderTimeout() {
			return this.headerTimeout;
		}

		/**
		 * Sets the time allowed for a request's head.
		 * @param headerTimeout the header timeout
		 */
		public void setHeaderTimeout(Duration headerTimeout) {
			this.headerTimeout = headerTimeout;
		}

		/**
		 * Returns the maximum length of the request line.
		 * @return the maximum line length
		 */
		public DataSize getMaxLineLength() {
			return this.maxLineLength;
		}

		/**
		 * Sets the maximum length of the request line.
		 * @param maxLineLength the maximum line length
		 */
		public void setMaxLineLength(DataSize maxLineLength) {
			this.maxLineLength = maxLineLength;
		}

		/**
		 * Returns the maximum size of the header section.
		 * @return the maximum header size
		 */
		public DataSize getMaxHeaderSize() {
			return this.maxHeaderSize;
		}

		/**
		 * Sets the maximum size of the header section.
		 * @param maxHeaderSize the maximum header size
		 */
		public void setMaxHeaderSize(DataSize maxHeaderSize) {
			this.maxHeaderSize = maxHeaderSize;
		}

		/**
		 * Returns the maximum number of header fields.
		 * @return the maximum header count
		 */
		public int getMaxHeaderCount() {
			return this.maxHeaderCount;
		}

		/**
		 * Sets the maximum number of header fields.
		 * @param maxHeaderCount the maximum header count
		 */
		public void setMaxHeaderCount(int maxHeaderCount) {
			this.maxHeaderCount = maxHeaderCount;
		}

		/**
		 * Returns the maximum size of a request body.
		 * @return the maximum body size
		 */
		public DataSize getMaxBodySize() {
			return this.maxBodySize;
		}

		/**
		 * Sets the maximum size of a request body.
		 * @param maxBodySize the maximum body size
		 */
		public void setMaxBodySize(DataSize maxBodySize) {
			this.maxBodySize = maxBodySize;
		}

		/**
		 * Returns the slowest a request body may arrive, per second.
		 * @return the minimum data rate
		 */
		public DataSize getMinDataRate() {
			return this.minDataRate;
		}

		/**
		 * Sets the slowest a request body may arrive, per second.
		 * @param minDataRate the minimum data rate, 0 to disable the check
		 */
		public void setMinDataRate(DataSize minDataRate) {
			this.minDataRate = minDataRate;
		}

		/**
		 * Returns the time waited for a body before the minimum data rate applies.
		 * @return the grace period
		 */
		public Duration getMinDataRateGrace() {
			return this.minDataRateGrace;
		}

		/**
		 * Sets the time waited for a body before the minimum data rate applies.
		 * @param minDataRateGrace the grace period
		 */
		public void setMinDataRateGrace(Duration minDataRateGrace) {
			this.minDataRateGrace = minDataRateGrace;
		}

		/**
		 * Returns the maximum number of request parameters.
		 * @return the maximum parameter count
		 */
		public int getMaxParameters() {
			return this.maxParameters;
		}

		/**
		 * Sets the maximum number of request parameters.
		 * @param maxParameters the maximum parameter count
		 */
		public void setMaxParameters(int maxParameters) {
			this.maxParameters = maxParameters;
		}

		/**
		 * Returns the maximum size of a form body.
		 * @return the maximum form size
		 */
		public DataSize getMaxFormSize() {
			return this.maxFormSize;
		}

		/**
		 * Sets the maximum size of a form body.
		 * @param maxFormSize the maximum form size
		 */
		public void setMaxFormSize(DataSize maxFormSize) {
			this.maxFormSize = maxFormSize;
		}

		/**
		 * Returns the maximum number of cookies in a request.
		 * @return the maximum cookie count
		 */
		public int getMaxCookies() {
			return this.maxCookies;
		}

		/**
		 * Sets the maximum number of cookies in a request.
		 * @param maxCookies the maximum cookie count
		 */
		public void setMaxCookies(int maxCookies) {
			this.maxCookies = maxCookies;
		}

		/**
		 * Returns the maximum number of parts of a multipart body.
		 * @return the maximum part count
		 */
		public int getMaxParts() {
			return this.maxParts;
		}

		/**
		 * Sets the maximum number of parts of a multipart body.
		 * @param maxParts the maximum part count
		 */
		public void setMaxParts(int maxParts) {
			this.maxParts = maxParts;
		}

		/**
		 * Returns the maximum size of a part's header section.
		 * @return the maximum part header size
		 */
		public DataSize getMaxPartHeaderSize() {
			return this.maxPartHeaderSize;
		}

		/**
		 * Sets the maximum size of a part's header section.
		 * @param maxPartHeaderSize the maximum part header size
		 */
		public void setMaxPartHeaderSize(DataSize maxPartHeaderSize) {
			this.maxPartHeaderSize = maxPartHeaderSize;
		}

	}

	/**
	 * Settings of the buffers the server holds for its connections.
	 */
	public static class Buffers {

		/**
		 * Most bytes held in buffers over all connections: request bodies waiting to be read or
		 * read whole for a handler, unread pipelined requests, and response bytes not yet sent.
		 * At the budget the event loop stops reading from connections that need a new buffer,
		 * writers wait, and a handler reading a body whole waits, then answers 503. When not
		 * set, a quarter of the maximum heap, at least 16MB.
		 */
		private DataSize budget;

		/**
		 * Returns the buffer budget.
		 * @return the budget, or {@code null} for a quarter of the maximum heap
		 */
		public DataSize getBudget() {
			return this.budget;
		}

		/**
		 * Sets the buffer budget.
		 * @param budget the budget, or {@code null} for a quarter of the maximum heap
		 */
		public void setBudget(DataSize budget) {
			this.budget = budget;
		}

	}

	/**
	 * Settings of the low-resources mode: while a pool is starved (every worker busy and work
	 * waiting for one), a client that keeps one of its workers waiting is cut off sooner.
	 */
	public static class LowResources {

		/**
		 * Whether a client that keeps a worker of a starved pool waiting, for a body it does not
		 * send or a response it does not read, is cut off after the stall timeout instead of
		 * request.header-timeout, request.min-data-rate-grace and keep-alive.timeout.
		 */
		private boolean enabled = true;

		/**
		 * Longest a client may keep a worker of a starved pool waiting for its request body or
		 * for room to write its response.
		 */
		private Duration stallTimeout = Duration.ofSeconds(1);

		/**
		 * Returns whether the low-resources mode is on.
		 * @return whether enabled
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets whether the low-resources mode is on.
		 * @param enabled whether enabled
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Returns the stall timeout of a starved pool.
		 * @return the stall timeout
		 */
		public Duration getStallTimeout() {
			return this.stallTimeout;
		}

		/**
		 * Sets the stall timeout of a starved pool.
		 * @param stallTimeout the stall timeout
		 */
		public void setStallTimeout(Duration stallTimeout) {
			this.stallTimeout = stallTimeout;
		}

	}

	/**
	 * TLS settings.
	 */
	public static class Ssl {

		/**
		 * Name of the SSL bundle (spring.ssl.bundle.*) the listener of a Route application
		 * serves TLS with. Servlet and reactive applications use server.ssl.* instead.
		 */
		private String bundle;

		/**
		 * Whether clients must present a certificate: none, want or need.
		 */
		private TlsConfig.ClientAuth clientAuth = TlsConfig.ClientAuth.NONE;

		/**
		 * SSL bundles by the host name a client asks for (SNI), such as a.example.com or
		 * *.example.com.
		 */
		private Map<String, String> serverNameBundles = new LinkedHashMap<>();

		/**
		 * Time a connection may take from accept to the end of its TLS handshake, in every
		 * kind of application.
		 */
		private Duration handshakeTimeout = Duration.ofSeconds(10);

		/**
		 * Returns the bundle's name.
		 * @return the name, or {@code null} for plaintext HTTP
		 */
		public String getBundle() {
			return this.bundle;
		}

		/**
		 * Sets the bundle's name.
		 * @param bundle the name
		 */
		public void setBundle(String bundle) {
			this.bundle = bundle;
		}

		/**
		 * Returns whether clients must present a certificate.
		 * @return the client authentication
		 */
		public TlsConfig.ClientAuth getClientAuth() {
			return this.clientAuth;
		}

		/**
		 * Sets whether clients must present a certificate.
		 * @param clientAuth the client authentication
		 */
		public void setClientAuth(TlsConfig.ClientAuth clientAuth) {
			this.clientAuth = clientAuth;
		}

		/**
		 * Returns the bundles by SNI host name.
		 * @return the mutable map
		 */
		public Map<String, String> getServerNameBundles() {
			return this.serverNameBundles;
		}

		/**
		 * Sets the bundles by SNI host name.
		 * @param serverNameBundles the bundles
		 */
		public void setServerNameBundles(Map<String, String> serverNameBundles) {
			this.serverNameBundles = serverNameBundles;
		}

		/**
		 * Returns the handshake timeout.
		 * @return the timeout
		 */
		public Duration getHandshakeTimeout() {
			return this.handshakeTimeout;
		}

		/**
		 * Sets the handshake timeout.
		 * @param handshakeTimeout the timeout
		 */
		public void setHandshakeTimeout(Duration handshakeTimeout) {
			this.handshakeTimeout = handshakeTimeout;
		}

	}

	/**
	 * Shutdown settings.
	 */
	public static class Shutdown {

		/**
		 * Time a graceful shutdown lets requests in flight finish before closing their
		 * connections. Must not be longer than spring.lifecycle.timeout-per-shutdown-phase;
		 * when not set, the default is shortened to that timeout.
		 */
		private Duration gracePeriod = Duration.ofSeconds(30);

		/**
		 * Returns the grace period of a graceful shutdown.
		 * @return the grace period
		 */
		public Duration getGracePeriod() {
			return this.gracePeriod;
		}

		/**
		 * Sets the grace period of a graceful shutdown.
		 * @param gracePeriod the grace period
		 */
		public void setGracePeriod(Duration gracePeriod) {
			this.gracePeriod = gracePeriod;
		}

	}

	/**
	 * Settings of Spring WebFlux applications on Ariadne.
	 */
	public static class Webflux {

		/**
		 * How the application's HttpHandler is served: native runs it on Ariadne's exchange
		 * directly; servlet runs it through Spring's ServletHttpHandlerAdapter on Ariadne's
		 * servlet container, as Boot runs WebFlux on Tomcat and Jetty (slower; kept to compare
		 * the two and as a fallback).
		 */
		private WebfluxAdapter adapter = WebfluxAdapter.NATIVE;

		/**
		 * Returns how the application's HttpHandler is served.
		 * @return the adapter
		 */
		public WebfluxAdapter getAdapter() {
			return this.adapter;
		}

		/**
		 * Sets how the application's HttpHandler is served.
		 * @param adapter the adapter
		 */
		public void setAdapter(WebfluxAdapter adapter) {
			this.adapter = adapter;
		}

	}

	/**
	 * How a Spring WebFlux application's HttpHandler reaches Ariadne.
	 */
	public enum WebfluxAdapter {

		/** On Ariadne's exchange directly. */
		NATIVE,

		/** Through Spring's ServletHttpHandlerAdapter on Ariadne's servlet container. */
		SERVLET

	}

	/**
	 * Settings of the diagnosis, which says why a pool is starved and what to change.
	 */
	public static class Diagnosis {

		/**
		 * Whether each listener diagnoses its pools: once a second, on a thread of its own, it
		 * names why clients wait (thread-per-connection, cpu-bound, blocked downstream, slow clients,
		 * a hot route, the connection limit, the accept backlog) with the evidence and the
		 * settings to change, for the ariadne endpoint's diagnosis, the
		 * ariadne.pool.starvation meter, the log and the live page. Costs one counter add per
		 * exchange.
		 */
		private boolean enabled = true;

		/**
		 * Returns whether the diagnosis runs.
		 * @return whether the listeners diagnose their pools
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets whether the diagnosis runs.
		 * @param enabled whether the listeners diagnose their pools
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Health settings: how the instance reports saturation to load balancers and
	 * orchestrators.
	 */
	public static class Health {

		/**
		 * Whether the readiness group reports OUT_OF_SERVICE while the application's pool is
		 * saturated with work waiting, within the duty cycle of the shedding settings: out for
		 * at most shedding.max-out at a time, then in for at least shedding.min-in, so that a
		 * fleet saturated as a whole keeps serving. Liveness and the main health group are not
		 * affected.
		 */
		private boolean saturationReadiness;

		private final Shedding shedding = new Shedding();

		private final Agent agent = new Agent();

		/**
		 * Returns whether readiness reports the pool's saturation.
		 * @return whether saturation makes the application not ready
		 */
		public boolean isSaturationReadiness() {
			return this.saturationReadiness;
		}

		/**
		 * Sets whether readiness reports the pool's saturation.
		 * @param saturationReadiness whether saturation makes the application not ready
		 */
		public void setSaturationReadiness(boolean saturationReadiness) {
			this.saturationReadiness = saturationReadiness;
		}

		/**
		 * Returns how the instance sheds load while its pool is saturated.
		 * @return the shedding settings
		 */
		public Shedding getShedding() {
			return this.shedding;
		}

		/**
		 * Returns the load-balancer agent settings.
		 * @return the agent settings
		 */
		public Agent getAgent() {
			return this.agent;
		}

	}

	/**
	 * How the instance sheds load while its application pool is saturated with work waiting:
	 * the pressure it measures, the weight it asks balancers for, and the duty cycle of
	 * saturation readiness.
	 */
	public static class Shedding {

		/**
		 * Time the pool must stay saturated with work waiting before the instance sheds in
		 * full (weight at min-weight), and about the time it takes to recover once nothing
		 * waits. Readiness goes out about halfway.
		 */
		private Duration reactionTime = Duration.ofSeconds(1);

		/**
		 * Longest time readiness stays out of service for saturation at a time. Each time out
		 * lasts between half of it and all of it, at random, so that instances saturated
		 * together do not come back together.
		 */
		private Duration maxOut = Duration.ofSeconds(5);

		/**
		 * Time readiness then stays in service, saturated or not, before it may go out again.
		 */
		private Duration minIn = Duration.ofSeconds(10);

		/**
		 * Lowest weight, as a share of the full weight (above 0, at most 1), that saturation
		 * alone makes the instance ask balancers for. Never 0, so that saturation cannot take
		 * every instance of a fleet out.
		 */
		private double minWeight = 0.05;

		/**
		 * Returns the reaction time.
		 * @return the reaction time
		 */
		public Duration getReactionTime() {
			return this.reactionTime;
		}

		/**
		 * Sets the reaction time.
		 * @param reactionTime the reaction time
		 */
		public void setReactionTime(Duration reactionTime) {
			this.reactionTime = reactionTime;
		}

		/**
		 * Returns the longest time readiness stays out at a time.
		 * @return the longest time out
		 */
		public Duration getMaxOut() {
			return this.maxOut;
		}

		/**
		 * Sets the longest time readiness stays out at a time.
		 * @param maxOut the longest time out
		 */
		public void setMaxOut(Duration maxOut) {
			this.maxOut = maxOut;
		}

		/**
		 * Returns the time readiness stays in before it may go out again.
		 * @return the shortest time in
		 */
		public Duration getMinIn() {
			return this.minIn;
		}

		/**
		 * Sets the time readiness stays in before it may go out again.
		 * @param minIn the shortest time in
		 */
		public void setMinIn(Duration minIn) {
			this.minIn = minIn;
		}

		/**
		 * Returns the lowest weight saturation alone leads to.
		 * @return the lowest weight, above 0 and at most 1
		 */
		public double getMinWeight() {
			return this.minWeight;
		}

		/**
		 * Sets the lowest weight saturation alone leads to.
		 * @param minWeight the lowest weight, above 0 and at most 1
		 */
		public void setMinWeight(double minWeight) {
			this.minWeight = minWeight;
		}

	}

	/**
	 * A TCP listener answering HAProxy's agent-check with the instance's weight, on a port of
	 * its own.
	 */
	public static class Agent {

		/**
		 * Port of the agent listener, which answers each connection with one line in HAProxy's
		 * agent-check format ("ready 75%" while serving, "drain" while starting or stopping)
		 * and closes it. 0 picks a free port. No agent listener when not set.
		 */
		private Integer port;

		/**
		 * Network address the agent listener binds to. management.server.address when not
		 * set, else every local address.
		 */
		private InetAddress address;

		/**
		 * Returns the port of the agent listener.
		 * @return the port, or {@code null} for no agent listener
		 */
		public Integer getPort() {
			return this.port;
		}

		/**
		 * Sets the port of the agent listener.
		 * @param port the port, 0 for a free one, or {@code null} for no agent listener
		 */
		public void setPort(Integer port) {
			this.port = port;
		}

		/**
		 * Returns the address the agent listener binds to.
		 * @return the address, or {@code null} for the management listener's address
		 */
		public InetAddress getAddress() {
			return this.address;
		}

		/**
		 * Sets the address the agent listener binds to.
		 * @param address the address, or {@code null} for the management listener's address
		 */
		public void setAddress(InetAddress address) {
			this.address = address;
		}

	}

	/**
	 * WebSocket settings, for the sessions that routes open (WebSocketHandler), those of a WebFlux
	 * application's WebSocketHandlers on the native adapter, and a Spring MVC application's Jakarta
	 * WebSocket sessions (Tyrus's engine), except where a setting says otherwise.
	 */
	public static class WebSocket {

		/**
		 * How long a session may pass without a frame either way (the server's own pings do not count,
		 * the client's pongs do) before the server closes it with 1001.
		 */
		private Duration idleTimeout = Duration.ofMinutes(5);

		/**
		 * How often the server pings a session that has been quiet that long, so that proxies keep it
		 * and dead clients are found; 0 for never.
		 */
		private Duration pingInterval = Duration.ZERO;

		/**
		 * Largest message a client may send, once decompressed; a larger one closes the session with
		 * 1009. For Jakarta WebSocket sessions, the container's default limit, which the
		 * application's ServletServerContainerFactoryBean may replace.
		 */
		private DataSize maxMessageSize = DataSize.ofKilobytes(64);

		/**
		 * Largest data frame a client may send, as sent; a larger one closes the session with 1009.
		 */
		private DataSize maxFrameSize = DataSize.ofKilobytes(128);

		/**
		 * Sessions open at once on the listener; a handshake beyond it is answered 503 and counted.
		 * 0 for no limit but max-connections.
		 */
		private int maxSessions;

		/**
		 * Whether the server agrees to compress messages (permessage-deflate, RFC 7692) when a
		 * client offers it. Routes' and WebFlux sessions only: Jakarta WebSocket sessions (Spring
		 * MVC) are never compressed, as Tyrus's engine installs no extension.
		 */
		private boolean permessageDeflate = true;

		/**
		 * Returns the idle timeout.
		 * @return the idle timeout
		 */
		public Duration getIdleTimeout() {
			return this.idleTimeout;
		}

		/**
		 * Sets the idle timeout.
		 * @param idleTimeout the idle timeout
		 */
		public void setIdleTimeout(Duration idleTimeout) {
			this.idleTimeout = idleTimeout;
		}

		/**
		 * Returns the ping interval.
		 * @return the ping interval
		 */
		public Duration getPingInterval() {
			return this.pingInterval;
		}

		/**
		 * Sets the ping interval.
		 * @param pingInterval the ping interval
		 */
		public void setPingInterval(Duration pingInterval) {
			this.pingInterval = pingInterval;
		}

		/**
		 * Returns the largest message.
		 * @return the largest message
		 */
		public DataSize getMaxMessageSize() {
			return this.maxMessageSize;
		}

		/**
		 * Sets the largest message.
		 * @param maxMessageSize the largest message
		 */
		public void setMaxMessageSize(DataSize maxMessageSize) {
			this.maxMessageSize = maxMessageSize;
		}

		/**
		 * Returns the largest frame.
		 * @return the largest frame
		 */
		public DataSize getMaxFrameSize() {
			return this.maxFrameSize;
		}

		/**
		 * Sets the largest frame.
		 * @param maxFrameSize the largest frame
		 */
		public void setMaxFrameSize(DataSize maxFrameSize) {
			this.maxFrameSize = maxFrameSize;
		}

		/**
		 * Returns the session limit.
		 * @return the session limit
		 */
		public int getMaxSessions() {
			return this.maxSessions;
		}

		/**
		 * Sets the session limit.
		 * @param maxSessions the session limit
		 */
		public void setMaxSessions(int maxSessions) {
			this.maxSessions = maxSessions;
		}

		/**
		 * Returns whether permessage-deflate is agreed.
		 * @return whether agreed
		 */
		public boolean isPermessageDeflate() {
			return this.permessageDeflate;
		}

		/**
		 * Sets whether permessage-deflate is agreed.
		 * @param permessageDeflate whether agreed
		 */
		public void setPermessageDeflate(boolean permessageDeflate) {
			this.permessageDeflate = permessageDeflate;
		}

	}

}
