package dev.ariadne.autoconfigure;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;

import dev.ariadne.http.ParserLimits;
import dev.ariadne.server.AccessLogConfig;
import dev.ariadne.server.ContentLimits;
import dev.ariadne.server.ForwardedConfig;
import dev.ariadne.server.Http2Config;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.WebSocketConfig;

import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.context.properties.PropertyMapper;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * Maps {@link AriadneServerProperties} and {@link AriadneServerCustomizer customizers} to a
 * validated {@link ServerConfig}.
 *
 * <p>Properties are applied first and validated on their own, so that an invalid value fails
 * with an {@link InvalidConfigurationPropertyValueException} naming the property and, through
 * Boot's failure analysis, where it was set. Customizers are applied afterwards, in order.
 */
final class AriadneServerConfigMapper {

	static final String PREFIX = "ariadne.server.";

	static final String GRACE_PERIOD_PROPERTY = PREFIX + "shutdown.grace-period";

	static final String PHASE_TIMEOUT_PROPERTY = "spring.lifecycle.timeout-per-shutdown-phase";

	/** Spring Boot's default for {@value #PHASE_TIMEOUT_PROPERTY}. */
	static final Duration DEFAULT_PHASE_TIMEOUT = Duration.ofSeconds(30);

	private static final List<ChronoUnit> FORMAT_UNITS = List.of(ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES,
			ChronoUnit.SECONDS, ChronoUnit.MILLIS);

	private final Environment environment;

	/**
	 * Creates a mapper.
	 * @param environment the environment, to find the value of an invalid property and the
	 * lifecycle's shutdown phase timeout
	 */
	AriadneServerConfigMapper(Environment environment) {
		this.environment = environment;
	}

	/**
	 * Maps the properties, then the customizers, to a configuration.
	 * @param properties the bound properties
	 * @param customizers the customizers, in the order to apply them
	 * @return the validated configuration
	 * @throws InvalidConfigurationPropertyValueException if a property is invalid
	 * @throws IllegalArgumentException if a customizer made the configuration invalid
	 */
	ServerConfig map(AriadneServerProperties properties, List<AriadneServerCustomizer> customizers) {
		ServerConfig.Builder builder = ServerConfig.builder();
		try {
			apply(properties, builder);
			builder.build();
		}
		catch (IllegalArgumentException ex) {
			throw invalidProperty(ex);
		}
		customizers.forEach((customizer) -> customizer.customize(builder));
		ServerConfig config;
		try {
			config = builder.build();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Invalid server configuration after applying "
					+ AriadneServerCustomizer.class.getSimpleName() + " beans: " + ex.getMessage(), ex);
		}
		checkGracePeriod(config.shutdownGracePeriod());
		return config;
	}

	private void apply(AriadneServerProperties properties, ServerConfig.Builder builder) {
		PropertyMapper map = PropertyMapper.get();
		map.from(properties::getPort).to(builder::port);
		map.from(properties::getAddress).to(builder::address);
		map.from(properties::getIoModel).to(builder::ioModel);
		map.from(properties::getSelectors).to(builder::selectors);
		map.from(properties::getAcceptBacklog).to(builder::acceptBacklog);
		map.from(properties::getMaxConnections).to(builder::maxConnections);
		AriadneServerProperties.Threads threads = properties.getThreads();
		map.from(threads::getMax).to(builder::maxThreads);
		map.from(threads::getMin).to(builder::minThreads);
		map.from(threads::getQueueCapacity).to(builder::queueCapacity);
		AriadneServerProperties.KeepAlive keepAlive = properties.getKeepAlive();
		map.from(keepAlive::isEnabled).to(builder::keepAliveEnabled);
		map.from(keepAlive::getTimeout).to(builder::keepAliveTimeout);
		map.from(keepAlive::getMaxRequests).to(builder::keepAliveMaxRequests);
		map.from(keepAlive::getReleaseThreshold).to(builder::keepAliveReleaseThreshold);
		map.from(properties.getHttp2()::isEnabled).to(builder::http2Enabled);
		map.from(properties.getHttp2()).as(this::http2).to(builder::http2);
		map.from(properties.getWebsocket()).as(this::webSocket).to(builder::webSocket);
		AriadneServerProperties.Forwarded forwarded = properties.getForwarded();
		// unset: on where the platform's ingress forwards, as Boot decides for Tomcat and Jetty
		boolean enabled = (forwarded.getEnabled() != null) ? forwarded.getEnabled() : usingForwardHeaders();
		builder.forwarded(new ForwardedConfig(enabled,
				(forwarded.getTrustedProxies() != null) ? forwarded.getTrustedProxies() : List.of()));
		builder.accessLog(accessLog(properties.getAccesslog()));
		AriadneServerProperties.Request request = properties.getRequest();
		map.from(request::getHeaderTimeout).to(builder::headerTimeout);
		map.from(request).as(this::limits).to(builder::limits);
		map.from(request).as(this::contentLimits).to(builder::contentLimits);
		map.from(request::getMinDataRate).as(DataSize::toBytes).to(builder::minDataRate);
		map.from(request::getMinDataRateGrace).to(builder::minDataRateGrace);
		AriadneServerProperties.LowResources lowResources = properties.getLowResources();
		map.from(lowResources::isEnabled).to(builder::lowResourcesEnabled);
		map.from(lowResources::getStallTimeout).to(builder::lowResourcesStallTimeout);
		map.from(properties.getShutdown()::getGracePeriod).as(this::defaultWithinPhase).to(builder::shutdownGracePeriod);
		map.from(properties.getBuffers()::getBudget).as(DataSize::toBytes).to(builder::bufferBudget);
		properties.getPools().forEach((name, pool) -> builder.pool(name, pool(name, pool)));
	}

	private AccessLogConfig accessLog(AriadneServerProperties.Accesslog log) {
		String pattern = log.getPattern();
		return AccessLogConfig.builder()
			.enabled(log.isEnabled())
			.format(log.getFormat())
			.pattern((pattern != null && !pattern.isBlank()) ? pattern : null)
			.console(log.isConsole())
			.directory(directory(log.getDirectory()))
			.prefix(log.getPrefix())
			.suffix(log.getSuffix())
			.fileDateFormat(log.getFileDateFormat())
			.rotate(log.isRotate())
			.maxDays(log.getMaxDays())
			.queueCapacity(log.getQueueCapacity())
			.build();
	}

	private Path directory(String directory) {
		String property = PREFIX + "accesslog.directory";
		if (directory == null || directory.isBlank()) {
			throw invalidProperty(property, directory, "must name a directory");
		}
		try {
			return Path.of(directory);
		}
		catch (InvalidPathException ex) {
			throw invalidProperty(property, directory, "must be a path (" + ex.getMessage() + ")");
		}
	}

	private boolean usingForwardHeaders() {
		CloudPlatform platform = (this.environment != null) ? CloudPlatform.getActive(this.environment) : null;
		return platform != null && platform.isUsingForwardHeaders();
	}

	private ServerConfig.PoolConfig pool(String name, AriadneServerProperties.Pool pool) {
		if (pool.getThreads() == null) {
			throw invalidProperty(PREFIX + "pools." + name + ".threads", null,
					"must be set: a route pool needs a thread count");
		}
		return new ServerConfig.PoolConfig(pool.getThreads(), pool.getQueueCapacity(), pool.isVirtual());
	}

	private Http2Config http2(AriadneServerProperties.Http2 http2) {
		Http2Config defaults = Http2Config.DEFAULTS;
		return new Http2Config(orDefault(http2.getMaxConcurrentStreams(), defaults.maxConcurrentStreams()),
				intBytes("http2.initial-window-size", http2.getInitialWindowSize(), defaults.initialWindowSize()),
				intBytes("http2.connection-window-size", http2.getConnectionWindowSize(),
						defaults.connectionWindowSize()),
				intBytes("http2.max-frame-size", http2.getMaxFrameSize(), defaults.maxFrameSize()),
				intBytes("http2.max-header-list-size", http2.getMaxHeaderListSize(), defaults.maxHeaderListSize()),
				orDefault(http2.getMaxControlFrames(), defaults.maxControlFrames()),
				orDefault(http2.getMaxResets(), defaults.maxResets()),
				(http2.getRateWindow() != null) ? http2.getRateWindow() : defaults.rateWindow(),
				(http2.getWriteTimeout() != null) ? http2.getWriteTimeout() : defaults.writeTimeout());
	}

	private WebSocketConfig webSocket(AriadneServerProperties.WebSocket webSocket) {
		WebSocketConfig defaults = WebSocketConfig.DEFAULTS;
		return new WebSocketConfig(webSocket.getIdleTimeout(), webSocket.getPingInterval(),
				intBytes("websocket.max-message-size", webSocket.getMaxMessageSize(), defaults.maxMessageSize()),
				intBytes("websocket.max-frame-size", webSocket.getMaxFrameSize(), defaults.maxFrameSize()),
				webSocket.getMaxSessions(), webSocket.isPermessageDeflate());
	}

	private static int orDefault(Integer value, int defaultValue) {
		return (value != null) ? value : defaultValue;
	}

	private ParserLimits limits(AriadneServerProperties.Request request) {
		int maxLineLength = intBytes("request.max-line-length", request.getMaxLineLength(),
				ParserLimits.DEFAULT_MAX_LINE_LENGTH);
		int maxHeaderSize = intBytes("request.max-header-size", request.getMaxHeaderSize(),
				ParserLimits.DEFAULT_MAX_HEADER_SIZE);
		long maxBodySize = (request.getMaxBodySize() != null) ? request.getMaxBodySize().toBytes()
				: ParserLimits.DEFAULT_MAX_BODY_SIZE;
		return new ParserLimits(maxLineLength, maxHeaderSize, request.getMaxHeaderCount(), maxBodySize);
	}

	private ContentLimits contentLimits(AriadneServerProperties.Request request) {
		long maxFormSize = (request.getMaxFormSize() != null) ? request.getMaxFormSize().toBytes()
				: ContentLimits.DEFAULT_MAX_FORM_SIZE;
		int maxPartHeaderSize = intBytes("request.max-part-header-size", request.getMaxPartHeaderSize(),
				ContentLimits.DEFAULT_MAX_PART_HEADER_SIZE);
		return new ContentLimits(request.getMaxParameters(), maxFormSize, request.getMaxCookies(),
				request.getMaxParts(), maxPartHeaderSize);
	}

	private int intBytes(String property, DataSize size, int defaultBytes) {
		if (size == null) {
			return defaultBytes;
		}
		long bytes = size.toBytes();
		if (bytes > Integer.MAX_VALUE) {
			throw invalidProperty(PREFIX + property, size,
					"must be at most " + Integer.MAX_VALUE + " bytes, but was " + bytes + " bytes");
		}
		return (int) bytes;
	}

	/**
	 * Shortens a grace period that nobody set to the lifecycle's shutdown phase: a user who
	 * sets only {@value #PHASE_TIMEOUT_PROPERTY} (Boot's documented way to bound a graceful
	 * shutdown) gets a drain that fits it rather than a startup failure over a default.
	 * @param gracePeriod the bound grace period, perhaps the default
	 * @return the grace period to use
	 */
	private Duration defaultWithinPhase(Duration gracePeriod) {
		if (Binder.get(this.environment).bind(GRACE_PERIOD_PROPERTY, Duration.class).isBound()) {
			return gracePeriod;
		}
		Duration phaseTimeout = phaseTimeout();
		return (gracePeriod.compareTo(phaseTimeout) > 0) ? phaseTimeout : gracePeriod;
	}

	private Duration phaseTimeout() {
		return Binder.get(this.environment).bind(PHASE_TIMEOUT_PROPERTY, Duration.class).orElse(DEFAULT_PHASE_TIMEOUT);
	}

	/**
	 * Fails when the grace period outlasts the lifecycle's shutdown phase: Spring stops
	 * waiting for the drain at the phase timeout and closes the context under requests still
	 * in flight.
	 * @param gracePeriod the configured grace period
	 */
	private void checkGracePeriod(Duration gracePeriod) {
		Duration phaseTimeout = phaseTimeout();
		if (gracePeriod.compareTo(phaseTimeout) > 0) {
			throw invalidProperty(GRACE_PERIOD_PROPERTY, format(gracePeriod),
					"must not be longer than " + PHASE_TIMEOUT_PROPERTY + " (" + format(phaseTimeout)
							+ "), or Spring stops waiting for the drain and cuts requests still in flight; "
							+ "shorten the grace period or raise " + PHASE_TIMEOUT_PROPERTY);
		}
	}

	/**
	 * Formats a duration as a property value in its largest exact unit, such as {@code 30s}.
	 * @param duration the duration
	 * @return the formatted duration
	 */
	static String format(Duration duration) {
		if (duration.isZero()) {
			return "0s";
		}
		for (ChronoUnit unit : FORMAT_UNITS) {
			if (duration.toNanos() % unit.getDuration().toNanos() == 0) {
				return DurationStyle.SIMPLE.print(duration, unit);
			}
		}
		return DurationStyle.SIMPLE.print(duration, ChronoUnit.NANOS);
	}

	/**
	 * Turns a validation failure of the core, whose message starts with the name of the
	 * option, into a failure of that property.
	 * @param ex the validation failure
	 * @return the exception to throw
	 */
	private RuntimeException invalidProperty(IllegalArgumentException ex) {
		String message = (ex.getMessage() != null) ? ex.getMessage() : "";
		if (!message.startsWith(PREFIX)) {
			message = PREFIX + message;
		}
		int end = message.indexOf(' ');
		if (end < 0) {
			return new IllegalArgumentException(message, ex);
		}
		String property = message.substring(0, end);
		Object value = this.environment.getProperty(property);
		if (value == null) {
			return new IllegalArgumentException(message, ex);
		}
		return new InvalidConfigurationPropertyValueException(property, value, message.substring(end + 1));
	}

	private RuntimeException invalidProperty(String property, Object value, String reason) {
		Object configured = this.environment.getProperty(property);
		return new InvalidConfigurationPropertyValueException(property, (configured != null) ? configured : value,
				reason);
	}

}
