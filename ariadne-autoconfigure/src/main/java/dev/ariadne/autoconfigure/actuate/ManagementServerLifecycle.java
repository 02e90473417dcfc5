package dev.ariadne.autoconfigure.actuate;

import java.util.HashMap;
import java.util.Map;

import dev.ariadne.autoconfigure.AriadneManagementServer;
import dev.ariadne.server.AriadneServer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * {@link SmartLifecycle} of the management listener: starts it in the same phase as the
 * application's server and drains it in the same phase when the context closes, on its own
 * thread so that both drain at once.
 */
final class ManagementServerLifecycle implements SmartLifecycle {

	/** Phase of the application server's lifecycle, as Boot's {@code WebServerStartStopLifecycle}. */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

	/** Name of the environment property holding the port the management listener listens on. */
	static final String PORT_PROPERTY = "local.management.port";

	/** Name of the property source shared with {@code local.ariadne.port}. */
	private static final String PROPERTY_SOURCE_NAME = "ariadne.ports";

	private static final Log logger = LogFactory.getLog(ManagementServerLifecycle.class);

	private final AriadneServer server;

	private final ConfigurableEnvironment environment;

	/**
	 * Creates the lifecycle.
	 * @param managementServer the management listener
	 * @param environment the environment to add {@value #PORT_PROPERTY} to
	 */
	ManagementServerLifecycle(AriadneManagementServer managementServer, ConfigurableEnvironment environment) {
		this.server = managementServer.server();
		this.environment = environment;
	}

	@Override
	public void start() {
		this.server.start();
		setPortProperty(this.server.port());
		if (logger.isDebugEnabled()) {
			logger.debug("Ariadne management listener started on " + this.server.localAddress());
		}
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
		ports.put(PORT_PROPERTY, port);
	}

	@Override
	public void stop() {
		drain();
	}

	@Override
	public void stop(Runnable callback) {
		Thread drain = new Thread(() -> {
			try {
				drain();
			}
			finally {
				callback.run();
			}
		}, "ariadne-management-shutdown");
		drain.start();
	}

	private void drain() {
		if (!this.server.shutdownGracefully()) {
			logger.warn("Ariadne's management listener closed connections with requests still in flight");
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
