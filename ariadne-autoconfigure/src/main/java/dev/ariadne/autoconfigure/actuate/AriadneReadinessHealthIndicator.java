package dev.ariadne.autoconfigure.actuate;

import dev.ariadne.AriadneServer;
import dev.ariadne.server.stats.PoolStats;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;

/**
 * {@link org.springframework.boot.health.contributor.HealthIndicator HealthIndicator} that
 * makes the readiness group {@code OUT_OF_SERVICE} while the application's worker pool is
 * saturated (every worker busy) and connections or requests wait for a worker, and
 * {@code UP} again as soon as nothing waits. Created when
 * {@code ariadne.server.health.saturation-readiness} is set, as the {@code ariadneReadiness}
 * contributor, a member of the readiness group only.
 */
public class AriadneReadinessHealthIndicator extends AbstractAriadneHealthIndicator {

	/** Name of the contributor, as its bean name without the indicator suffix. */
	public static final String NAME = "ariadneReadiness";

	/**
	 * Creates the indicator.
	 * @param server provides the application's server
	 */
	public AriadneReadinessHealthIndicator(ObjectProvider<AriadneServer> server) {
		super(server, "Ariadne readiness check failed");
	}

	@Override
	protected void check(AriadneServer server, Health.Builder builder) {
		PoolStats pool = server.stats().pool();
		int busy = pool.busyWorkers();
		int max = pool.maxWorkers();
		int queued = pool.queued();
		if (busy >= max && queued > 0) {
			builder.outOfService();
		}
		else {
			builder.up();
		}
		builder.withDetail("busy", busy).withDetail("max", max).withDetail("queued", queued);
	}

}
