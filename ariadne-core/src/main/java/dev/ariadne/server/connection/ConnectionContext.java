package dev.ariadne.server.connection;

import java.util.function.Supplier;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.WebSocketTally;
import dev.ariadne.server.internal.BufferBudget;
import dev.ariadne.server.internal.ByteArrayPool;
import dev.ariadne.server.internal.DateClock;
import dev.ariadne.server.pool.RoutePools;
import dev.ariadne.server.routing.Router;
import dev.ariadne.server.tls.TlsEndpoint;

/**
 * What every connection of one server shares, as parts with one job each: the configuration,
 * the router, the {@link ConnectionRegistry} (permits, counts, shutdown state), the route pools,
 * the request listeners, the {@code Date} clock, the {@link BufferBudget}, the pool of response
 * buffers, the TLS side (when the listener speaks TLS), and where the WebSocket sessions of an
 * implementation other than the server's own are counted. Immutable; any thread.
 */
public final class ConnectionContext {

	private final ServerConfig config;

	private final Router router;

	private final ConnectionRegistry registry;

	private final RoutePools routePools;

	private final RequestEvents events;

	private final DateClock clock = new DateClock();

	private final BufferBudget budget;

	/** Response buffers, borrowed per exchange: 8 KiB each, at most 256 kept (2 MiB). */
	private final ByteArrayPool outputBuffers;

	private final TlsEndpoint tls;

	private final LowResources lowResources;

	private final Supplier<WebSocketTally> webSockets;

	/**
	 * Creates the shared parts of a server's connections.
	 * @param config the configuration
	 * @param router the router
	 * @param registry the open connections and their counts
	 * @param routePools the route pools
	 * @param events the request listeners
	 * @param webSockets takes a place among the listener's WebSocket sessions for a session of
	 * another implementation ({@link dev.ariadne.server.Response#countWebSocket()}), or answers
	 * {@code null} when the listener takes no more
	 */
	public ConnectionContext(ServerConfig config, Router router, ConnectionRegistry registry, RoutePools routePools,
			RequestEvents events, Supplier<WebSocketTally> webSockets) {
		this.config = config;
		this.router = router;
		this.registry = registry;
		this.routePools = routePools;
		this.events = events;
		this.budget = new BufferBudget(config.bufferBudget());
		this.outputBuffers = new ByteArrayPool(8192, 256, this.budget);
		this.tls = (config.tls() != null) ? TlsEndpoint.create(config.tls(), this.budget, config.http2Enabled()) : null;
		this.lowResources = new LowResources(config, routePools);
		this.webSockets = webSockets;
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
	 * Returns the open connections, their permits and counts.
	 * @return the registry
	 */
	public ConnectionRegistry registry() {
		return this.registry;
	}

	/**
	 * Returns the route pools.
	 * @return the route pools
	 */
	public RoutePools routePools() {
		return this.routePools;
	}

	/**
	 * Returns the request listeners.
	 * @return the listeners
	 */
	public RequestEvents events() {
		return this.events;
	}

	/**
	 * Returns the shared {@code Date} header clock.
	 * @return the clock
	 */
	public DateClock clock() {
		return this.clock;
	}

	/**
	 * Returns the bytes the server's connections may hold in buffers.
	 * @return the budget
	 */
	public BufferBudget budget() {
		return this.budget;
	}

	/**
	 * Returns the TLS side of the listener.
	 * @return the endpoint, or {@code null} when the listener speaks plaintext HTTP
	 */
	public TlsEndpoint tls() {
		return this.tls;
	}

	/**
	 * Returns the pool of response buffers shared by the server's connections.
	 * @return the pool
	 */
	public ByteArrayPool outputBuffers() {
		return this.outputBuffers;
	}

	/**
	 * Returns the low-resources mode: how long a slow client may keep a worker of a starved pool
	 * waiting.
	 * @return the low-resources mode
	 */
	public LowResources lowResources() {
		return this.lowResources;
	}

	/**
	 * Takes a place among the listener's WebSocket sessions for a session that an implementation
	 * other than the server's own runs on an upgraded exchange.
	 * @return the session's tally, or {@code null} when the listener takes no more sessions
	 */
	public WebSocketTally countWebSocket() {
		return this.webSockets.get();
	}

}
