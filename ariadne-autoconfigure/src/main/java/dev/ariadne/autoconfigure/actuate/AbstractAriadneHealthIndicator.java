package dev.ariadne.autoconfigure.actuate;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneServers;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Base of Ariadne's health indicators: looks the application's server up on each check, not
 * when the indicator is created, since health contributors are created while the server that
 * serves the health endpoint is; {@code UNKNOWN} when there is no single server.
 */
public abstract class AbstractAriadneHealthIndicator extends AbstractHealthIndicator {

	private final ObjectProvider<AriadneServers> servers;

	/**
	 * Creates the indicator.
	 * @param servers provides the running listeners, the application's among them
	 * @param failureMessage what to log when a check fails
	 */
	protected AbstractAriadneHealthIndicator(ObjectProvider<AriadneServers> servers, String failureMessage) {
		super(failureMessage);
		this.servers = servers;
	}

	@Override
	protected final void doHealthCheck(Health.Builder builder) {
		AriadneServer server = AriadneServers.application(this.servers);
		if (server == null) {
			builder.unknown();
			return;
		}
		check(server, builder);
	}

	/**
	 * Checks the server.
	 * @param server the application's server
	 * @param builder the health to build
	 */
	protected abstract void check(AriadneServer server, Health.Builder builder);

}
