package dev.ariadne.autoconfigure.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;

import dev.ariadne.autoconfigure.AdditionalListener;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.autoconfigure.AriadneTls;
import dev.ariadne.AriadneServer;
import dev.ariadne.http.Headers;
import dev.ariadne.server.Handler;
import dev.ariadne.server.Middleware;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.routing.FallbackPools;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RequestListener;
import dev.ariadne.server.websocket.WebSocketSessions;
import dev.ariadne.servlet.GzipCompressionFilter;
import dev.ariadne.servlet.ServletDeployment;

import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.AbstractConfigurableWebServerFactory;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerException;
import org.springframework.util.unit.DataSize;

/**
 * What Ariadne's servlet and reactive web-server factories share: the listener's
 * configuration ({@code ariadne.server.*}), its {@link Route} beans, middleware and request
 * listeners, the pool choice and route naming of the requests that reach the servlet
 * container, and the building of the {@link AriadneWebServer} around a started
 * {@link ServletDeployment}.
 */
public abstract class AbstractAriadneWebServerFactory extends AbstractConfigurableWebServerFactory {

	/** Listener name of the application's listener, its metrics {@code listener} tag. */
	public static final String APPLICATION_LISTENER = "app";

	private ServerConfig serverConfig = ServerConfig.defaults();

	private String listenerName = APPLICATION_LISTENER;

	private final List<Route> routes = new ArrayList<>();

	private final List<Middleware> middleware = new ArrayList<>();

	private final List<RequestListener> requestListeners = new ArrayList<>();

	private FallbackPools fallbackPools = FallbackPools.DEFAULT;

	private Function<HttpServletRequest, String> routeNamer = (request) -> null;

	private Duration shutdownGracePeriod;

	private AriadneServers servers;

	private boolean diagnosis = true;

	private String livePagePath;

	private Duration tlsHandshakeTimeout = TlsConfig.DEFAULT_HANDSHAKE_TIMEOUT;

	private final List<AdditionalListener> additionalListeners = new ArrayList<>();

	/**
	 * Creates a factory for port 8080 with Ariadne's defaults.
	 */
	protected AbstractAriadneWebServerFactory() {
	}

	/**
	 * Creates a factory for a port with Ariadne's defaults.
	 * @param port the port, 0 for any free one
	 */
	protected AbstractAriadneWebServerFactory(int port) {
		super(port);
	}

	/**
	 * Returns the context path the listener's servlet container serves.
	 * @return {@code ""} for the root
	 */
	public abstract String getServletContextPath();

	/**
	 * Returns the configuration of the listener, before the port and address of this factory
	 * are applied to it.
	 * @return the configuration
	 */
	public ServerConfig getServerConfig() {
		return this.serverConfig;
	}

	/**
	 * Sets the configuration of the listener (I/O model, pools, limits, timeouts). The port and
	 * address of this factory ({@code server.port}, {@code server.address}) replace those of
	 * the configuration.
	 * @param serverConfig the configuration
	 */
	public void setServerConfig(ServerConfig serverConfig) {
		this.serverConfig = Objects.requireNonNull(serverConfig, "serverConfig");
	}

	/**
	 * Returns the listener's name.
	 * @return {@code app} unless set
	 */
	public String getListenerName() {
		return this.listenerName;
	}

	/**
	 * Sets the listener's name: its metrics {@code listener} tag and its threads' names.
	 * @param listenerName the name, {@code app} or {@code management}
	 */
	public void setListenerName(String listenerName) {
		this.listenerName = Objects.requireNonNull(listenerName, "listenerName");
	}

	/**
	 * Returns the listeners that serve the application beside the application listener
	 * ({@code ariadne.server.additional-listeners}), as Tomcat's additional connectors.
	 * @return the mutable list of listeners, in order
	 */
	public List<AdditionalListener> getAdditionalListeners() {
		return this.additionalListeners;
	}

	/**
	 * Adds listeners that serve the application beside the application listener, each on a
	 * port of its own with pools of its own, in the same I/O model.
	 * @param listeners the listeners
	 */
	public void addAdditionalListeners(AdditionalListener... listeners) {
		this.additionalListeners.addAll(List.of(listeners));
	}

	/**
	 * Returns the routes served ahead of the servlet chain.
	 * @return the mutable list of routes
	 */
	public List<Route> getRoutes() {
		return this.routes;
	}

	/**
	 * Returns the middleware that wraps the routes' handlers.
	 * @return the mutable list of middleware
	 */
	public List<Middleware> getMiddleware() {
		return this.middleware;
	}

	/**
	 * Returns the listeners told about every finished exchange.
	 * @return the mutable list of listeners
	 */
	public List<RequestListener> getRequestListeners() {
		return this.requestListeners;
	}

	/**
	 * Sets what picks the route pool of a servlet request.
	 * @param fallbackPools the pool choice, applied to every request no route matches
	 */
	public void setFallbackPools(FallbackPools fallbackPools) {
		this.fallbackPools = Objects.requireNonNull(fallbackPools, "fallbackPools");
	}

	/**
	 * Sets what names the route of a servlet request for metrics (Spring MVC's best-matching
	 * pattern); {@code null} from it leaves the container's own bounded value.
	 * @param routeNamer the route namer
	 */
	public void setRouteNamer(Function<HttpServletRequest, String> routeNamer) {
		this.routeNamer = Objects.requireNonNull(routeNamer, "routeNamer");
	}

	/**
	 * Sets how long a graceful shutdown lets requests in flight finish; Spring's lifecycle
	 * bounds it anyway with {@code spring.lifecycle.timeout-per-shutdown-phase}.
	 * @param shutdownGracePeriod the grace period, or {@code null} for the configuration's
	 */
	public void setShutdownGracePeriod(Duration shutdownGracePeriod) {
		this.shutdownGracePeriod = shutdownGracePeriod;
	}

	/**
	 * Sets where the listener registers while it runs, for metrics, health and endpoints.
	 * @param servers the registry, or {@code null}
	 */
	public void setServers(AriadneServers servers) {
		this.servers = servers;
	}

	/**
	 * Sets whether the listener runs its starvation diagnosis ({@code ariadne.server.diagnosis.enabled}).
	 * @param diagnosis whether to diagnose
	 */
	public void setDiagnosis(boolean diagnosis) {
		this.diagnosis = diagnosis;
	}

	/**
	 * Sets the path of the {@code ariadne} endpoint's live page on this listener, which the
	 * startup log line then points to.
	 * @param livePagePath the path, for example {@code /actuator/ariadne/live}, or {@code null}
	 */
	public void setLivePagePath(String livePagePath) {
		this.livePagePath = livePagePath;
	}

	/**
	 * Sets how long a TLS handshake may take when {@code server.ssl.*} turns TLS on
	 * ({@code ariadne.server.ssl.handshake-timeout}).
	 * @param tlsHandshakeTimeout the timeout
	 */
	public void setTlsHandshakeTimeout(Duration tlsHandshakeTimeout) {
		this.tlsHandshakeTimeout = Objects.requireNonNull(tlsHandshakeTimeout, "tlsHandshakeTimeout");
	}

	/**
	 * Returns a builder for the listener's servlet deployment with what every kind of
	 * application shares: the server info, the route naming, the temporary directory, the
	 * class loader, compression, the {@code Server} header and the content limits of
	 * {@code ariadne.server.request.*}.
	 * @return the builder
	 */
	protected ServletDeployment.Builder deploymentBuilder() {
		ServletDeployment.Builder deployment = ServletDeployment.builder()
			.serverInfo("Ariadne/" + AriadneServer.version())
			.routeNamer(this.routeNamer)
			.tempDirectory(createTempDir("ariadne").toPath())
			.contentLimits(this.serverConfig.contentLimits());
		ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
		if (classLoader != null) {
			deployment.classLoader(classLoader);
		}
		GzipCompressionFilter compression = compressionFilter();
		if (compression != null) {
			deployment.initializer(GzipCompressionFilter.initializer(compression));
		}
		String serverHeader = serverHeader();
		if (serverHeader != null) {
			deployment.serverHeader(serverHeader);
		}
		return deployment;
	}

	/**
	 * Returns what {@code server.compression.*} compresses.
	 * @return the compression, or {@code null} when it is off
	 */
	protected GzipCompressionFilter compressionFilter() {
		Compression compression = getCompression();
		if (compression == null || !compression.getEnabled()) {
			return null;
		}
		DataSize minSize = compression.getMinResponseSize();
		return new GzipCompressionFilter(Set.of(compression.getMimeTypes()),
				(compression.getExcludedUserAgents() != null) ? List.of(compression.getExcludedUserAgents()) : List.of(),
				(minSize != null) ? (int) Math.min(Integer.MAX_VALUE, minSize.toBytes()) : 0);
	}

	/**
	 * Returns the {@code Server} header of {@code server.server-header}.
	 * @return the header value, or {@code null} for none
	 */
	protected String serverHeader() {
		String serverHeader = getServerHeader();
		if (serverHeader == null || serverHeader.isBlank()) {
			return null;
		}
		Headers.validate("Server", serverHeader);
		return serverHeader;
	}

	/**
	 * Returns the listener's TLS configuration from {@code server.ssl.*} (or
	 * {@code management.server.ssl.*}): Boot's bundle for it, its client authentication, its
	 * SNI bundles ({@code server.ssl.server-name-bundles}), and the reload of named bundles.
	 * @return the configuration
	 */
	private TlsConfig tlsConfig() {
		String prefix = "management".equals(this.listenerName) ? "management.server.ssl" : "server.ssl";
		Ssl ssl = getSsl();
		SslBundles bundles = getSslBundles();
		TlsConfig.Builder tls = AriadneTls.builder(prefix + ((ssl.getBundle() != null) ? ".bundle" : ".*"),
				getSslBundle(), ssl.getBundle(), bundles);
		Map<String, String> names = new LinkedHashMap<>();
		ssl.getServerNameBundles().forEach((entry) -> names.put(entry.serverName(), entry.bundle()));
		AriadneTls.serverNames(tls, prefix + ".server-name-bundles", getServerNameSslBundles(), names, bundles);
		if (ssl.getClientAuth() != null) {
			tls.clientAuth(TlsConfig.ClientAuth.valueOf(ssl.getClientAuth().name()));
		}
		return tls.handshakeTimeout(this.tlsHandshakeTimeout).build();
	}

	/**
	 * Starts a deployment and builds the web server that serves it, not yet listening.
	 * @param deployment the listener's servlet deployment, not started
	 * @return the web server
	 * @throws WebServerException if the deployment fails to start
	 */
	protected final WebServer createWebServer(ServletDeployment deployment) {
		try {
			// its load-on-startup servlets are initialised when the server starts, as on Tomcat
			deployment.startDeferringLoadOnStartup();
		}
		catch (Exception ex) {
			throw new WebServerException("Unable to start the servlet context of Ariadne's '" + this.listenerName
					+ "' listener: " + ex.getMessage(), ex);
		}
		try {
			return createWebServer(deployment.handler(), deployment);
		}
		catch (RuntimeException ex) {
			deployment.stop();
			throw ex;
		}
	}

	/**
	 * Builds the web server that serves requests no {@link Route} matches with a handler of
	 * their own, not yet listening.
	 * @param handler the handler
	 * @return the web server
	 */
	protected final WebServer createWebServer(Handler handler) {
		return createWebServer(handler, null);
	}

	private WebServer createWebServer(Handler handler, ServletDeployment deployment) {
		ServerConfig.Builder builder = this.serverConfig.toBuilder()
			.name(this.listenerName)
			.port(Math.max(getPort(), 0))
			.address(getAddress());
		if (Ssl.isEnabled(getSsl())) {
			builder.tls(tlsConfig());
		}
		if (getHttp2() != null && getHttp2().isEnabled()) {
			// h2 by ALPN on a TLS listener, h2c on a plaintext one
			builder.http2Enabled(true);
		}
		ServerConfig config = builder.build();
		List<AriadneWebServer.Listener> listeners = new ArrayList<>();
		listeners.add(new AriadneWebServer.Listener(listenerServer(config, handler), null));
		Set<String> names = new HashSet<>(Set.of(this.listenerName));
		for (AdditionalListener additional : this.additionalListeners) {
			if (!names.add(additional.name())) {
				throw new WebServerException("Two of Ariadne's listeners are named '" + additional.name() + "' ("
						+ additional.describe() + ")", null);
			}
			// the same application on another port: its own pools, meters and diagnosis
			listeners.add(new AriadneWebServer.Listener(listenerServer(additional.configure(config), handler), additional));
		}
		Duration grace = (this.shutdownGracePeriod != null) ? this.shutdownGracePeriod : config.shutdownGracePeriod();
		return new AriadneWebServer(listeners, deployment, getPort() >= 0, getShutdown() == Shutdown.GRACEFUL, grace,
				this.servers, this.livePagePath);
	}

	/** Builds a listener's server; a WebFlux handler's WebSocket sessions run among that server's. */
	private Supplier<AriadneServer> listenerServer(ServerConfig config, Handler handler) {
		if (handler instanceof ReactiveHandlerAdapter reactive) {
			AtomicReference<WebSocketSessions> sessions = new AtomicReference<>();
			AriadneServer.Builder builder = serverBuilder(config, reactive.forListener(sessions::get));
			return () -> {
				AriadneServer server = builder.build();
				sessions.set(server.webSockets());
				return server;
			};
		}
		return serverBuilder(config, handler)::build;
	}

	private AriadneServer.Builder serverBuilder(ServerConfig config, Handler handler) {
		AriadneServer.Builder server = AriadneServer.builder(config)
			.diagnosis(this.diagnosis)
			.routes(this.routes)
			.fallback(handler, this.fallbackPools);
		this.middleware.forEach(server::middleware);
		this.requestListeners.forEach(server::requestListener);
		return server;
	}

}
