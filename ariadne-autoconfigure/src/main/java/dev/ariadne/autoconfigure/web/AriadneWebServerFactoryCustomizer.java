package dev.ariadne.autoconfigure.web;

import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import jakarta.servlet.http.HttpServletRequest;

import dev.ariadne.autoconfigure.AdditionalListener;
import dev.ariadne.autoconfigure.AriadneServerProperties;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.autoconfigure.AriadneServerSettings;
import dev.ariadne.http.ParserLimits;
import dev.ariadne.server.ForwardedConfig;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.unit.DataSize;

/**
 * Applies {@code ariadne.server.*} to Ariadne's web-server factory of a servlet or reactive
 * application, after Boot's own customizer has applied {@code server.*}.
 *
 * <p>Where the two overlap, {@code server.*} decides, as it does for Tomcat and Jetty, and the
 * {@code ariadne.server.*} value applies only when its {@code server.*} counterpart is not set;
 * both set to different values logs a warning naming both:
 * <ul>
 * <li>{@code server.port} / {@code ariadne.server.port} and {@code server.address} /
 * {@code ariadne.server.address};</li>
 * <li>{@code server.max-http-request-header-size} / {@code ariadne.server.request.max-header-size};</li>
 * <li>{@code server.shutdown} decides whether the server drains, and the drain lasts
 * {@code ariadne.server.shutdown.grace-period} when set, else
 * {@code spring.lifecycle.timeout-per-shutdown-phase}.</li>
 * </ul>
 * {@code spring.threads.virtual.enabled=true} selects {@code virtual-threads} unless
 * {@code ariadne.server.io-model} is set. {@code ariadne.server.additional-listeners} adds
 * listeners to the application's factory, never to the management listener's.
 */
final class AriadneWebServerFactoryCustomizer
		implements WebServerFactoryCustomizer<AbstractAriadneWebServerFactory>, Ordered {

	/** Runs after Boot's {@code server.*} customizers (order 0). */
	static final int ORDER = 10;

	private static final Log logger = LogFactory.getLog(AriadneWebServerFactoryCustomizer.class);

	private static final String BEST_MATCHING_PATTERN = "org.springframework.web.servlet.HandlerMapping.bestMatchingPattern";

	/**
	 * Request attribute carrying the route of a WebFlux request (its best-matching pattern),
	 * set by {@link ReactiveRouteAttributeFilter} on the servlet request under the exchange.
	 */
	static final String REACTIVE_ROUTE = "dev.ariadne.autoconfigure.web.route";

	/** Listener name of Actuator's listener in Boot's management child context. */
	static final String MANAGEMENT_LISTENER = "management";

	/** Worker threads of the management listener, as for a non-web application's. */
	static final int MANAGEMENT_MAX_THREADS = 2;

	private static final String ARIADNE_ENDPOINT = "ariadneEndpoint";

	private final boolean management;

	private final ApplicationContext context;

	private final Environment environment;

	private final AriadneServerProperties properties;

	private final AriadneServerSettings settings;

	private final AriadneServers servers;

	/**
	 * Creates the customizer.
	 * @param context the context whose factory it customizes: the application's, or Boot's
	 * management child context (server namespace {@code management})
	 * @param environment the environment
	 * @param properties the bound {@code ariadne.server.*} properties
	 * @param settings the routes, middleware, listeners and customizers of the application
	 * @param servers the registry of running listeners
	 */
	AriadneWebServerFactoryCustomizer(ApplicationContext context, Environment environment,
			AriadneServerProperties properties, AriadneServerSettings settings, AriadneServers servers) {
		this.management = WebServerApplicationContext.hasServerNamespace(context, MANAGEMENT_LISTENER);
		this.context = context;
		this.environment = environment;
		this.properties = properties;
		this.settings = settings;
		this.servers = servers;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public void customize(AbstractAriadneWebServerFactory factory) {
		factory.setServers(this.servers);
		factory.setShutdownGracePeriod(gracePeriod());
		factory.setDiagnosis(this.properties.getDiagnosis().isEnabled());
		factory.setLivePagePath(livePagePath(factory));
		factory.setTlsHandshakeTimeout(this.properties.getSsl().getHandshakeTimeout());
		if (factory instanceof AriadneReactiveWebServerFactory reactive) {
			reactive.setAdapter(this.properties.getWebflux().getAdapter());
			// Boot maps server.server-header to servlet factories only; Ariadne honours it for both
			String serverHeader = bind("server.server-header", String.class);
			if (serverHeader != null && reactive.getServerHeader() == null) {
				reactive.setServerHeader(serverHeader);
			}
		}
		String bundle = this.properties.getSsl().getBundle();
		if (bundle != null && !bundle.isBlank()) {
			throw new InvalidConfigurationPropertyValueException("ariadne.server.ssl.bundle", bundle,
					"applies to Route applications only; a servlet or reactive application serves TLS with "
							+ "server.ssl.bundle=" + bundle + " (or server.ssl.*)");
		}
		if (this.management) {
			customizeManagement(factory);
			return;
		}
		ServerConfig config = this.settings.serverConfig(this.properties);
		ServerConfig.Builder builder = config.toBuilder();
		reconcilePort(factory);
		reconcileAddress(factory);
		selectVirtualThreads(builder);
		reconcileMaxHeaderSize(builder, config);
		reconcileForwardHeaders(builder, config);
		factory.setServerConfig(builder.build());
		factory.setListenerName(AbstractAriadneWebServerFactory.APPLICATION_LISTENER);
		List<Route> routes = this.settings.routes(this.properties, true);
		factory.getRoutes().addAll(routes);
		factory.getMiddleware().addAll(this.settings.middleware());
		factory.getRequestListeners().addAll(this.settings.requestListeners());
		Map<String, String> pools = new LinkedHashMap<>();
		this.properties.getRoutes().forEach((key, route) -> {
			if (route.getPool() != null && !route.getPool().isBlank()) {
				pools.put(key, route.getPool());
			}
		});
		PathPatternPools servletPools = new PathPatternPools(pools, config.pools().keySet(),
				factory.getServletContextPath());
		if (!servletPools.isEmpty()) {
			factory.setFallbackPools(servletPools);
		}
		factory.setRouteNamer(routeNamer());
		factory.getAdditionalListeners()
			.addAll(AdditionalListener.of(this.properties.getAdditionalListeners(), factory.getSslBundles()));
	}

	/**
	 * The management listener: Boot's management customizer has set its port and address;
	 * it gets an event loop with a small pool of its own, no routes, the request listeners
	 * (metrics), and the application's access log into files of its own.
	 */
	private void customizeManagement(AbstractAriadneWebServerFactory factory) {
		factory.setListenerName(MANAGEMENT_LISTENER);
		factory.setServerConfig(ServerConfig.builder()
			.name(MANAGEMENT_LISTENER)
			.ioModel(IoModel.EVENT_LOOP)
			.selectors(1)
			.maxThreads(MANAGEMENT_MAX_THREADS)
			.accessLog(AriadneServerSettings.managementAccessLog(this.settings.serverConfig(this.properties).accessLog()))
			.build());
		factory.getRequestListeners().addAll(this.settings.requestListeners());
		factory.setRouteNamer(routeNamer());
	}

	/**
	 * Where this listener serves the {@code ariadne} endpoint's live page: on the management
	 * listener when there is one, else on the application's, when the endpoint exists and the
	 * diagnosis runs.
	 */
	private String livePagePath(AbstractAriadneWebServerFactory factory) {
		ApplicationContext root = (this.management && this.context.getParent() != null) ? this.context.getParent()
				: this.context;
		Integer managementPort = bind("management.server.port", Integer.class);
		boolean ownManagementListener = managementPort != null && managementPort >= 0;
		if (!this.properties.getDiagnosis().isEnabled() || !root.containsBean(ARIADNE_ENDPOINT)
				|| ownManagementListener != this.management) {
			return null;
		}
		String prefix = this.management ? environmentValue("management.server.base-path", "")
				: factory.getServletContextPath();
		String basePath = environmentValue("management.endpoints.web.base-path", "/actuator");
		String mapping = environmentValue("management.endpoints.web.path-mapping.ariadne", "ariadne");
		return trimSlash(prefix) + basePath + "/" + mapping + "/live";
	}

	private String environmentValue(String name, String defaultValue) {
		String value = this.environment.getProperty(name);
		return (value != null) ? value : defaultValue;
	}

	private static String trimSlash(String path) {
		return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
	}

	private void reconcilePort(AbstractAriadneWebServerFactory factory) {
		Integer serverPort = bind("server.port", Integer.class);
		Integer ariadnePort = bind("ariadne.server.port", Integer.class);
		if (ariadnePort == null) {
			return;
		}
		if (serverPort == null) {
			factory.setPort(ariadnePort);
		}
		else if (!serverPort.equals(ariadnePort)) {
			warnConflict("server.port", serverPort, "ariadne.server.port", ariadnePort);
		}
	}

	private void reconcileAddress(AbstractAriadneWebServerFactory factory) {
		InetAddress serverAddress = bind("server.address", InetAddress.class);
		InetAddress ariadneAddress = bind("ariadne.server.address", InetAddress.class);
		if (ariadneAddress == null) {
			return;
		}
		if (serverAddress == null) {
			factory.setAddress(ariadneAddress);
		}
		else if (!serverAddress.equals(ariadneAddress)) {
			warnConflict("server.address", serverAddress.getHostAddress(), "ariadne.server.address",
					ariadneAddress.getHostAddress());
		}
	}

	private void selectVirtualThreads(ServerConfig.Builder builder) {
		if (bind("ariadne.server.io-model", String.class) == null && Threading.VIRTUAL.isActive(this.environment)) {
			builder.ioModel(IoModel.VIRTUAL_THREADS);
		}
	}

	/**
	 * {@code server.forward-headers-strategy} decides when set: {@code native} reads the
	 * forwarded headers in the server, {@code framework} leaves them to Spring's
	 * {@code ForwardedHeaderFilter} (Boot registers it), {@code none} ignores them.
	 */
	private void reconcileForwardHeaders(ServerConfig.Builder builder, ServerConfig config) {
		String strategy = bind("server.forward-headers-strategy", String.class);
		if (strategy == null) {
			return;
		}
		boolean native_ = strategy.trim().equalsIgnoreCase("native");
		Boolean ariadne = this.properties.getForwarded().getEnabled();
		if (ariadne != null && ariadne != native_) {
			warnConflict("server.forward-headers-strategy", strategy, "ariadne.server.forwarded.enabled", ariadne);
		}
		builder.forwarded(new ForwardedConfig(native_, config.forwarded().trustedProxies()));
	}

	private void reconcileMaxHeaderSize(ServerConfig.Builder builder, ServerConfig config) {
		DataSize serverSize = bind("server.max-http-request-header-size", DataSize.class);
		DataSize ariadneSize = bind("ariadne.server.request.max-header-size", DataSize.class);
		if (serverSize == null) {
			return;
		}
		if (ariadneSize != null && !ariadneSize.equals(serverSize)) {
			warnConflict("server.max-http-request-header-size", serverSize, "ariadne.server.request.max-header-size",
					ariadneSize);
		}
		long bytes = serverSize.toBytes();
		if (bytes <= 0 || bytes > Integer.MAX_VALUE) {
			throw new InvalidConfigurationPropertyValueException(
					"server.max-http-request-header-size", serverSize,
					"must be between 1 byte and " + Integer.MAX_VALUE + " bytes");
		}
		ParserLimits limits = config.limits();
		builder.limits(new ParserLimits(limits.maxLineLength(), (int) bytes, limits.maxHeaderCount(),
				limits.maxBodySize()));
	}

	private Duration gracePeriod() {
		Duration ariadne = bind("ariadne.server.shutdown.grace-period", Duration.class);
		Duration phase = bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class);
		Duration phaseTimeout = (phase != null) ? phase : Duration.ofSeconds(30);
		if (ariadne == null) {
			return phaseTimeout;
		}
		return ariadne;
	}

	private Function<HttpServletRequest, String> routeNamer() {
		boolean mvc = ClassUtils.isPresent("org.springframework.web.servlet.HandlerMapping", getClass().getClassLoader());
		MvcOptionsRoutes options = mvc ? new MvcOptionsRoutes() : null;
		return (request) -> {
			Object pattern = mvc ? request.getAttribute(BEST_MATCHING_PATTERN) : null;
			if (pattern == null && options != null && "OPTIONS".equals(request.getMethod())) {
				pattern = options.pattern(request);
			}
			if (pattern == null) {
				pattern = request.getAttribute(REACTIVE_ROUTE);
			}
			return (pattern != null) ? pattern.toString() : null;
		};
	}

	private <T> T bind(String name, Class<T> type) {
		return Binder.get(this.environment).bind(name, type).orElse(null);
	}

	private static void warnConflict(String serverName, Object serverValue, String ariadneName, Object ariadneValue) {
		logger.warn(serverName + "=" + serverValue + " and " + ariadneName + "=" + ariadneValue
				+ " are both set; in a servlet or reactive application " + serverName + " decides, so " + ariadneName
				+ " is ignored");
	}

}
