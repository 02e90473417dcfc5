package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

import dev.ariadne.server.Handler;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.Middleware;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.accesslog.LogOutput;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionRegistry;
import dev.ariadne.server.connection.RequestEvents;
import dev.ariadne.server.pool.RoutePools;
import dev.ariadne.server.protocol.Http1Protocol;
import dev.ariadne.server.protocol.Protocol;
import dev.ariadne.server.diagnosis.Diagnosis;
import dev.ariadne.server.routing.FallbackPools;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.routing.Router;
import dev.ariadne.server.stats.RequestListener;
import dev.ariadne.server.stats.ServerStats;
import dev.ariadne.server.tls.TlsEndpoint;
import dev.ariadne.server.transport.Transport;
import dev.ariadne.server.websocket.WebSocketHandler;
import dev.ariadne.server.websocket.WebSocketSessions;

/**
 * An HTTP/1.1 server: one listening socket, served by the configured {@link IoModel}.
 *
 * <pre>{@code
 * AriadneServer server = AriadneServer.builder(ServerConfig.builder().port(8080).build())
 *         .route(Route.get("/", (request, response) -> response.send("Hello")))
 *         .build();
 * server.start();
 * }</pre>
 *
 * <p>While running, the server owns at least one non-daemon thread (its acceptor or a selector),
 * so a JVM whose main thread has returned keeps serving until the server stops.
 * {@link #start()}, {@link #shutdownGracefully()} and {@link #stop()} may be called from any
 * thread; each takes effect once.
 */
public final class AriadneServer implements AutoCloseable {

	private static final Logger logger = System.getLogger(AriadneServer.class.getName());

	private static final String VERSION = readVersion();

	private final ServerConfig config;

	private final Router router;

	private final Transport transport;

	private final TlsEndpoint tls;

	private final ServerStats stats;

	private final Diagnosis diagnosis;

	private final WebSocketSessions webSockets;

	private final ServerLifecycle lifecycle;

	private AriadneServer(ServerConfig config, Router router, List<RequestListener> listeners, boolean diagnosis,
			Protocol.Factory firstProtocol, LogOutput accessLogOutput, WebSocketSessions webSockets) {
		RoutePoolChecks.check(config, router);
		this.config = config;
		this.router = router;
		this.webSockets = webSockets;
		ConnectionRegistry registry = new ConnectionRegistry(config.maxConnections());
		RoutePools routePools = new RoutePools(config);
		ServerAccessLog accessLog = new ServerAccessLog(config, Clock.systemDefaultZone(), accessLogOutput);
		RequestEvents events = new RequestEvents(config.name(), listeners,
				diagnosis ? RoutePoolChecks.poolNames(config) : null, accessLog.log());
		ConnectionContext context = new ConnectionContext(config, router, registry, routePools, events,
				webSockets::tally);
		this.tls = context.tls();
		this.transport = Transports.create(context, firstProtocol);
		this.stats = new StatsView(config, registry, routePools, this.transport, events, context.budget(), this.tls,
				webSockets);
		this.diagnosis = diagnosis ? new Diagnosis(this.stats, config) : null;
		this.lifecycle = new ServerLifecycle(config, registry, this.transport, this.diagnosis, accessLog, webSockets);
	}

	private static String readVersion() {
		try (InputStream in = AriadneServer.class.getResourceAsStream("version.properties")) {
			Properties properties = new Properties();
			if (in != null) {
				properties.load(in);
			}
			return properties.getProperty("version", "unknown");
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	/**
	 * Returns Ariadne's version.
	 * @return the version, for example {@code 0.1.0}, or {@code unknown}
	 */
	public static String version() {
		return VERSION;
	}

	/**
	 * Returns a builder for a server with the given configuration.
	 * @param config the configuration
	 * @return a new builder
	 */
	public static Builder builder(ServerConfig config) {
		return new Builder(config);
	}

	/**
	 * Binds the listening socket and starts serving.
	 * @throws UncheckedIOException if the address cannot be bound, naming the address
	 * @throws IllegalStateException if the server was already started
	 */
	public void start() {
		this.lifecycle.start();
		// also starts the logging backend while descriptors are at hand: started first by a
		// warning when none is left, it could not read its configuration or the time zone of
		// its timestamps, and would write nothing, then or later
		logger.log(Level.INFO, () -> "Ariadne '" + this.config.name() + "' (" + this.config.ioModel().value()
				+ ") listening on " + localAddress());
	}

	/**
	 * Stops accepting, closes idle connections, lets requests in flight finish (answered with
	 * {@code Connection: close}) for up to {@code shutdown.grace-period}, then closes whatever
	 * is left. Blocks until done.
	 * @return whether every connection finished within the grace period
	 */
	public boolean shutdownGracefully() {
		return shutdownGracefully(this.config.shutdownGracePeriod());
	}

	/**
	 * Shuts down gracefully with the given grace period.
	 * @param gracePeriod how long requests in flight may take to finish
	 * @return whether every connection finished within the grace period
	 */
	public boolean shutdownGracefully(Duration gracePeriod) {
		return this.lifecycle.shutdownGracefully(gracePeriod);
	}

	/**
	 * Shuts down gracefully on a thread of its own ({@code ariadne-<name>-shutdown}), as a
	 * server that must not hold the caller does (Spring Boot's graceful shutdown). The shutdown
	 * begins on the calling thread: a {@link #stop()} that comes next, even before that thread
	 * runs, cuts it short, and the result says whether requests were still active then.
	 * @param gracePeriod how long requests in flight may take to finish
	 * @return completes with whether every connection finished within the grace period
	 */
	public CompletableFuture<Boolean> shutdownGracefullyInBackground(Duration gracePeriod) {
		return this.lifecycle.shutdownGracefullyInBackground(gracePeriod);
	}

	/**
	 * Stops now: closes the listening socket and every connection, requests in flight
	 * included. During a graceful shutdown, cuts it short. The access log's last lines are
	 * written before it returns.
	 */
	public void stop() {
		this.lifecycle.stop();
	}

	/**
	 * Same as {@link #stop()}.
	 */
	@Override
	public void close() {
		stop();
	}

	/**
	 * Returns whether the server is serving.
	 * @return whether started and not yet stopped
	 */
	public boolean isRunning() {
		return this.lifecycle.isRunning();
	}

	/**
	 * Returns the port the server listens on, which is the configured one unless that was 0.
	 * @return the bound port
	 * @throws IllegalStateException if the server has not been started
	 */
	public int port() {
		return localAddress().getPort();
	}

	/**
	 * Returns the address the server listens on.
	 * @return the bound address
	 * @throws IllegalStateException if the server has not been started
	 */
	public InetSocketAddress localAddress() {
		return this.lifecycle.localAddress();
	}

	/**
	 * Returns the live statistics of this server.
	 * @return the statistics, readable from any thread at any time
	 */
	public ServerStats stats() {
		return this.stats;
	}

	/**
	 * Returns the diagnosis that says why this server's pools are starved and what to change,
	 * evaluated once a second while the server runs.
	 * @return the diagnosis, empty when it was turned off ({@link Builder#diagnosis(boolean)})
	 */
	public Optional<Diagnosis> diagnosis() {
		return Optional.ofNullable(this.diagnosis);
	}

	/**
	 * Returns the WebSocket sessions of this server's routes ({@link WebSocketHandler}), under its
	 * {@code websocket.*} settings, for an adapter that opens sessions of its own among them.
	 * @return the sessions
	 */
	public WebSocketSessions webSockets() {
		return this.webSockets;
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
	 * Returns the pooled buffers the connections hold (the transport's and TLS's), for leak
	 * checks in tests.
	 * @return the borrowed buffers, 0 for the models that pool none
	 */
	int borrowedBuffers() {
		return this.transport.borrowedBuffers() + ((this.tls != null) ? this.tls.borrowedBuffers() : 0);
	}

	@Override
	public String toString() {
		return "AriadneServer[" + this.config.name() + ", " + this.config.ioModel() + "]";
	}

	/**
	 * Collects what a server serves.
	 */
	public static final class Builder {

		private final ServerConfig config;

		private final Router.Builder router = Router.builder();

		private final List<RequestListener> listeners = new ArrayList<>();

		private boolean diagnosis = true;

		private Protocol.Factory firstProtocol = Http1Protocol::new;

		private LogOutput accessLogOutput;

		private final WebSocketSessions webSockets;

		private Builder(ServerConfig config) {
			this.config = Objects.requireNonNull(config, "config");
			this.webSockets = new WebSocketSessions(config);
		}

		/**
		 * Adds a route. A route whose handler is a {@link WebSocketHandler} runs its sessions
		 * among the server's, under its {@code websocket.*} settings.
		 * @param route the route
		 * @return this builder
		 */
		public Builder route(Route route) {
			this.router.route(bindWebSocket(route));
			return this;
		}

		private Route bindWebSocket(Route route) {
			if (route.handler() instanceof WebSocketHandler handler && handler.sessions() == null) {
				return new Route(route.method(), route.template(), handler.bind(this.webSockets), route.pool());
			}
			return route;
		}

		/**
		 * Adds routes.
		 * @param routes the routes
		 * @return this builder
		 */
		public Builder routes(Iterable<Route> routes) {
			routes.forEach(this::route);
			return this;
		}

		/**
		 * Adds a middleware after those already added.
		 * @param middleware the middleware
		 * @return this builder
		 */
		public Builder middleware(Middleware middleware) {
			this.router.middleware(middleware);
			return this;
		}

		/**
		 * Sets the handler for requests that no route matches, such as a servlet container:
		 * routes keep precedence, and the requests the router would answer 404 or 405 go to
		 * the fallback instead, run by the pool that {@code pools} picks. A pool name that is
		 * not configured ({@code ariadne.server.pools.<name>}) runs the request in the default
		 * pool and is logged once.
		 * @param handler the fallback handler; it reports its route value with
		 * {@link Request#route(String)}
		 * @param pools picks the pool per request, before the request is handed to a worker
		 * @return this builder
		 */
		public Builder fallback(Handler handler, FallbackPools pools) {
			this.router.fallback(handler, RoutePoolChecks.checked(Objects.requireNonNull(pools, "pools"), this.config));
			return this;
		}

		/**
		 * Adds a listener told about every finished exchange.
		 * @param listener the listener
		 * @return this builder
		 */
		public Builder requestListener(RequestListener listener) {
			this.listeners.add(Objects.requireNonNull(listener, "listener"));
			return this;
		}

		/**
		 * Sets whether the server runs its {@link Diagnosis} (on by default): an evaluation a
		 * second on a thread of its own, and one add per exchange to count worker time per
		 * route ({@code ariadne.server.diagnosis.enabled}).
		 * @param enabled whether to diagnose
		 * @return this builder
		 */
		public Builder diagnosis(boolean enabled) {
			this.diagnosis = enabled;
			return this;
		}

		/**
		 * Sets what speaks first on every connection, instead of HTTP/1.1: for the tests of the
		 * hand-off between protocols.
		 * @param first makes each connection's first protocol
		 * @return this builder
		 */
		Builder firstProtocol(Protocol.Factory first) {
			this.firstProtocol = Objects.requireNonNull(first, "first");
			return this;
		}

		/**
		 * Sets where the access log writes instead of its file: for the tests of its last lines.
		 * @param output the output
		 * @return this builder
		 */
		Builder accessLogOutput(LogOutput output) {
			this.accessLogOutput = output;
			return this;
		}

		/**
		 * Builds the server, not yet started.
		 * @return the server
		 * @throws IllegalArgumentException if routes conflict
		 * @throws IllegalStateException if the I/O model cannot run on this JVM
		 */
		public AriadneServer build() {
			return new AriadneServer(this.config, this.router.build(), List.copyOf(this.listeners), this.diagnosis,
					this.firstProtocol, this.accessLogOutput, this.webSockets);
		}

	}

}
