package dev.ariadne.autoconfigure.actuate;

import dev.ariadne.AriadneServer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Base of Ariadne's health indicators: looks the application's server up on each check, not
 * when the indicator is created, since health contributors are created while the server that
 * serves the health endpoint is; {@code UNKNOWN} when there is no single server.
 */
public abstract class AbstractAriadneHealthIndicator extends AbstractHealthIndicator {

	private final ObjectProvider<AriadneServer> server;

	/**
	 * Creates the indicator.
	 * @param server provides the application's server
	 * @param failureMessage what to log when a check fails
	 */
	protected AbstractAriadneHealthIndicator(ObjectProvider<AriadneServer> server, String failureMessage) {
		super(failureMessage);
		this.server = server;
	}

	@Override
	protected final void doHealthCheck(Health.Builder builder) {
		AriadneServer server = this.server.getIfUnique();
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
