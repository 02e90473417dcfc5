package dev.ariadne.autoconfigure;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

import dev.ariadne.AriadneServer;
import dev.ariadne.server.ServerConfig;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * {@link SmartLifecycle} that starts an {@link AriadneServer} once the context is refreshed
 * and shuts it down gracefully when the context closes.
 *
 * <p>It runs in the same phase as Spring Boot's web server start/stop lifecycle: after the
 * ordinary lifecycle beans have started, and stopping after them. {@link #stop(Runnable)}
 * drains on its own thread so that the lifecycle processor can wait for it, up to
 * {@code spring.lifecycle.timeout-per-shutdown-phase}. While the server runs it owns a
 * non-daemon thread, which keeps the JVM alive after {@code main} returns.
 */
final class AriadneServerLifecycle implements SmartLifecycle {

	/** Phase of this lifecycle, as Boot's {@code WebServerStartStopLifecycle}. */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

	/** Name of the environment property holding the port the server listens on. */
	static final String PORT_PROPERTY = "local.ariadne.port";

	/** Name of the environment property holding the port the management listener listens on. */
	static final String MANAGEMENT_PORT_PROPERTY = "local.management.port";

	/** Name of the property source holding {@value #PORT_PROPERTY}. */
	static final String PROPERTY_SOURCE_NAME = "ariadne.ports";

	private static final Log logger = LogFactory.getLog(AriadneServerLifecycle.class);

	private final AriadneServer server;

	private final ConfigurableEnvironment environment;

	private final String portProperty;

	private final String name;

	private final Runnable onStarted;

	private AriadneServers servers;

	private AriadneAdditionalServers additional;

	/**
	 * Creates a lifecycle for a server.
	 * @param server the server to start and stop
	 * @param environment the environment to add {@value #PORT_PROPERTY} to
	 * @param eventPublisher publishes the {@link AriadneServerInitializedEvent}
	 * @param managementSummary says where the Actuator endpoints are served, for the startup
	 * summary; may return {@code null} to say nothing
	 */
	AriadneServerLifecycle(AriadneServer server, ConfigurableEnvironment environment,
			ApplicationEventPublisher eventPublisher, Supplier<String> managementSummary) {
		this(server, environment, PORT_PROPERTY, "Ariadne", () -> {
			ServerConfig config = server.config();
			String management = managementSummary.get();
			logger.info("Ariadne started on " + describe(server.localAddress()) + " (io-model "
					+ config.ioModel().value() + ", threads.max " + config.maxThreads() + ")"
					+ ((management != null) ? "; " + management : ""));
			eventPublisher.publishEvent(new AriadneServerInitializedEvent(server));
		});
	}

	private AriadneServerLifecycle(AriadneServer server, ConfigurableEnvironment environment, String portProperty,
			String name, Runnable onStarted) {
		this.server = server;
		this.environment = environment;
		this.portProperty = portProperty;
		this.name = name;
		this.onStarted = onStarted;
	}

	/**
	 * Creates the lifecycle of a management listener: same phase as the application's server,
	 * its port published as {@value #MANAGEMENT_PORT_PROPERTY}.
	 * @param server the management listener
	 * @param environment the environment
	 * @return the lifecycle
	 */
	static AriadneServerLifecycle forManagement(AriadneServer server, ConfigurableEnvironment environment) {
		return new AriadneServerLifecycle(server, environment, MANAGEMENT_PORT_PROPERTY,
				"Ariadne's management listener", () -> {
					if (logger.isDebugEnabled()) {
						logger.debug("Ariadne management listener started on " + server.localAddress());
					}
				});
	}

	/**
	 * Registers the server in a registry while it runs, for metrics, health and endpoints.
	 * @param servers the registry, or {@code null} for none
	 * @return this lifecycle
	 */
	AriadneServerLifecycle registerIn(AriadneServers servers) {
		this.servers = servers;
		return this;
	}

	/**
	 * Starts and drains additional listeners with the server ({@code ariadne.server.additional-listeners}).
	 * @param additional the additional listeners, or {@code null} for none
	 * @return this lifecycle
	 */
	AriadneServerLifecycle withAdditional(AriadneAdditionalServers additional) {
		this.additional = additional;
		return this;
	}

	@Override
	public void start() {
		this.server.start();
		setPortProperty(this.server.port());
		if (this.servers != null) {
			this.servers.register(this.server);
		}
		List<AriadneServer> others = additionalServers();
		for (int i = 0; i < others.size(); i++) {
			try {
				this.additional.start(i);
			}
			catch (RuntimeException ex) {
				// all or none: the listeners started so far stop again
				for (AriadneServer started : others.subList(0, i)) {
					started.stop();
					unregister(started);
				}
				this.server.stop();
				unregister(this.server);
				throw ex;
			}
			if (this.servers != null) {
				this.servers.register(others.get(i));
			}
		}
		this.onStarted.run();
		for (AriadneServer other : others) {
			ServerConfig config = other.config();
			logger.info("Ariadne '" + config.name() + "' listener started on " + describe(other.localAddress()) + " ("
					+ ((config.tls() != null) ? "https" : "http") + ", io-model " + config.ioModel().value()
					+ ", threads.max " + config.maxThreads() + ")");
		}
	}

	private List<AriadneServer> additionalServers() {
		return (this.additional != null) ? this.additional.servers() : List.of();
	}

	private void unregister(AriadneServer server) {
		if (this.servers != null) {
			this.servers.unregister(server);
		}
	}

	/**
	 * Formats a socket address as {@code host:port}, with brackets around an IPv6 host.
	 * @param address the address; an unresolved or wildcard one (IPv4 or IPv6) is shown as
	 * {@code 0.0.0.0}
	 * @return the formatted address
	 */
	static String describe(InetSocketAddress address) {
		if (address.getAddress() == null || address.getAddress().isAnyLocalAddress()) {
			return "0.0.0.0:" + address.getPort();
		}
		String host = address.getAddress().getHostAddress();
		return ((host.indexOf(':') >= 0) ? "[" + host + "]" : host) + ":" + address.getPort();
	}

	private void setPortProperty(int port) {
		MutablePropertySources sources = this.environment.getPropertySources();
		PropertySource<?> source = sources.get(PROPERTY_SOURCE_NAME);
		if (source == null) {
			source = new MapPropertySource(PROPERTY_SOURCE_NAME, new HashMap<>());
			sources.addFirst(source);
		}
		@SuppressWarnings("unchecked")
		Map<String, Object> ports = (Map<String, Object>) source.getSource();
		ports.put(this.portProperty, port);
	}

	/**
	 * Shuts the server down gracefully, blocking until the drain ends.
	 */
	@Override
	public void stop() {
		drain();
	}

	/**
	 * Shuts the server down gracefully on a separate thread, then runs the callback.
	 * @param callback told when the drain has ended
	 */
	@Override
	public void stop(Runnable callback) {
		Thread drain = new Thread(() -> {
			try {
				drain();
			}
			finally {
				callback.run();
			}
		}, (this.portProperty.equals(PORT_PROPERTY)) ? "ariadne-shutdown" : "ariadne-management-shutdown");
		drain.start();
	}

	private void drain() {
		// the additional listeners drain on threads of their own, alongside this one
		List<CompletableFuture<Boolean>> others = additionalServers().stream()
			.map((other) -> other.shutdownGracefullyInBackground(other.config().shutdownGracePeriod()))
			.toList();
		try {
			shutDown();
		}
		finally {
			unregister(this.server);
			List<AriadneServer> servers = additionalServers();
			for (int i = 0; i < others.size(); i++) {
				awaitDrain(servers.get(i), others.get(i));
				unregister(servers.get(i));
			}
		}
	}

	private static void awaitDrain(AriadneServer server, CompletableFuture<Boolean> drain) {
		boolean drained;
		try {
			drained = drain.join();
		}
		catch (CompletionException ex) {
			drained = false;
		}
		if (!drained) {
			logger.warn("Ariadne's '" + server.config().name() + "' listener closed connections with requests still "
					+ "in flight after the grace period of "
					+ AriadneServerConfigMapper.format(server.config().shutdownGracePeriod())
					+ " (ariadne.server.shutdown.grace-period)");
		}
	}

	private void shutDown() {
		String gracePeriod = AriadneServerConfigMapper.format(this.server.config().shutdownGracePeriod());
		logger.info(this.name + " shutting down gracefully, waiting up to " + gracePeriod + " for requests in flight");
		if (this.server.shutdownGracefully()) {
			logger.info(this.name + " shut down gracefully");
		}
		else {
			logger.warn(this.name + " closed connections with requests still in flight after the grace period of "
					+ gracePeriod + " (ariadne.server.shutdown.grace-period)");
		}
	}

	@Override
	public boolean isRunning() {
		return this.server.isRunning();
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
