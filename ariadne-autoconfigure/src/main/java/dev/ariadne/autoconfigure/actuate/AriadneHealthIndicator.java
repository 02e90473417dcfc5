package dev.ariadne.autoconfigure.actuate;

import java.util.OptionalLong;

import dev.ariadne.server.AriadneServer;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.ServerStats;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * {@link org.springframework.boot.health.contributor.HealthIndicator HealthIndicator} of the
 * application's Ariadne listener ({@code ariadne}): {@code UP} while it serves,
 * {@code OUT_OF_SERVICE} before it starts and once it stops, with the pool and connection
 * figures that show starvation as details. A saturated pool does not change the status here;
 * see {@code ariadne.server.health.saturation-readiness} for that.
 *
 * <p>The server is looked up on each check, not when the indicator is created, since health
 * contributors are created while the server that serves the health endpoint is.
 */
public class AriadneHealthIndicator extends AbstractHealthIndicator {

	private final ObjectProvider<AriadneServer> server;

	/**
	 * Creates the indicator.
	 * @param server provides the application's server
	 */
	public AriadneHealthIndicator(ObjectProvider<AriadneServer> server) {
		super("Ariadne health check failed");
		this.server = server;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		AriadneServer server = this.server.getIfUnique();
		if (server == null) {
			builder.unknown();
			return;
		}
		if (server.isRunning()) {
			builder.up();
		}
		else {
			builder.outOfService();
		}
		ServerStats stats = server.stats();
		PoolStats pool = stats.pool();
		int busy = pool.busyWorkers();
		int max = pool.maxWorkers();
		builder.withDetail("ioModel", stats.ioModel())
			.withDetail("listener", stats.listener())
			.withDetail("busy", busy)
			.withDetail("max", max)
			.withDetail("saturation", ListenerDescriptor.saturation(busy, max))
			.withDetail("queued", pool.queued())
			.withDetail("queueCapacity", pool.queueCapacity())
			.withDetail("openConnections", stats.openConnections())
			.withDetail("idleConnections", stats.idleConnections());
		OptionalLong acceptQueueDepth = stats.acceptQueueDepth();
		if (acceptQueueDepth.isPresent()) {
			builder.withDetail("acceptQueueDepth", acceptQueueDepth.getAsLong());
		}
	}

}
