package dev.ariadne.autoconfigure;

import java.util.Objects;

import dev.ariadne.AriadneServer;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The management listener: a second {@link AriadneServer}, named {@code management}, that
 * serves the Actuator endpoints when {@code management.server.port} is set and differs from
 * {@code ariadne.server.port}, so that health checks and scrapes keep being answered while
 * the application's pool is starved.
 *
 * <p>It is a bean of its own type, not a second {@link AriadneServer} bean, so that injecting
 * {@link AriadneServer} keeps meaning the application's server. Its lifecycle follows the
 * application server's: it starts and stops in the same phase.
 */
public final class AriadneManagementServer implements AutoCloseable {

	private final AriadneServer server;

	/**
	 * Wraps the management listener's server.
	 * @param server the server, named {@code management}
	 */
	public AriadneManagementServer(AriadneServer server) {
		this.server = Objects.requireNonNull(server, "server");
	}

	/**
	 * Returns the management listener's server.
	 * @return the server
	 */
	public AriadneServer server() {
		return this.server;
	}

	/**
	 * Stops the server now, requests in flight included; called when the context is destroyed,
	 * after the lifecycle has already drained it.
	 */
	/**
	 * Returns the lifecycle that starts this listener with the application's server and
	 * drains it in the same phase when the context closes; its port is published as
	 * {@code local.management.port}.
	 * @param environment the environment to publish the port in
	 * @return the lifecycle
	 */
	public SmartLifecycle lifecycle(ConfigurableEnvironment environment) {
		return lifecycle(environment, null);
	}

	/**
	 * Returns the lifecycle that starts this listener with the application's and drains it
	 * when the context closes, registering it in a registry while it runs.
	 * @param environment the environment, where its port is published as
	 * {@code local.management.port}
	 * @param servers the registry of running listeners, or {@code null}
	 * @return the lifecycle
	 */
	public SmartLifecycle lifecycle(ConfigurableEnvironment environment, AriadneServers servers) {
		return AriadneServerLifecycle.forManagement(this.server, environment).registerIn(servers);
	}

	@Override
	public void close() {
		this.server.stop();
	}

	@Override
	public String toString() {
		return "AriadneManagementServer[" + this.server + "]";
	}

}
