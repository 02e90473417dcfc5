package dev.ariadne.autoconfigure.actuate;

import java.util.OptionalLong;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.ServerStats;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;

/**
 * {@link org.springframework.boot.health.contributor.HealthIndicator HealthIndicator} of the
 * application's Ariadne listener ({@code ariadne}): {@code UP} while it serves,
 * {@code OUT_OF_SERVICE} before it starts and once it stops, with the pool and connection
 * figures that show starvation as details. A saturated pool does not change the status here;
 * see {@code ariadne.server.health.saturation-readiness} for that.
 */
public class AriadneHealthIndicator extends AbstractAriadneHealthIndicator {

	/**
	 * Creates the indicator.
	 * @param servers provides the running listeners, the application's among them
	 */
	public AriadneHealthIndicator(ObjectProvider<AriadneServers> servers) {
		super(servers, "Ariadne health check failed");
	}

	@Override
	protected void check(AriadneServer server, Health.Builder builder) {
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
			.withDetail("saturation", PoolStats.saturation(busy, max))
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
