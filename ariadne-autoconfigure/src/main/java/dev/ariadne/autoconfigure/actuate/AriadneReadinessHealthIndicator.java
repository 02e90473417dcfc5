package dev.ariadne.autoconfigure.actuate;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.server.stats.PoolStats;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;

/**
 * {@link org.springframework.boot.health.contributor.HealthIndicator HealthIndicator} that
 * makes the readiness group {@code OUT_OF_SERVICE} while {@link SaturationShedding} takes
 * readiness out for saturation: after the application's worker pool has stayed saturated with
 * work waiting for about half the reaction time, for a bounded time, and with at least the
 * shedding's minimum time in service between two times out. Created when
 * {@code ariadne.server.health.saturation-readiness} is set, as the {@code ariadneReadiness}
 * contributor, a member of the readiness group only.
 */
public class AriadneReadinessHealthIndicator extends AbstractAriadneHealthIndicator {

	/** Name of the contributor, as its bean name without the indicator suffix. */
	public static final String NAME = "ariadneReadiness";

	private final SaturationShedding shedding;

	/**
	 * Creates the indicator.
	 * @param servers provides the running listeners, the application's among them
	 * @param shedding decides when saturation takes readiness out
	 */
	public AriadneReadinessHealthIndicator(ObjectProvider<AriadneServers> servers, SaturationShedding shedding) {
		super(servers, "Ariadne readiness check failed");
		this.shedding = shedding;
	}

	@Override
	protected void check(AriadneServer server, Health.Builder builder) {
		if (this.shedding.readinessOut()) {
			builder.outOfService();
		}
		else {
			builder.up();
		}
		PoolStats pool = server.stats().pool();
		builder.withDetail("busy", pool.busyWorkers())
			.withDetail("max", pool.maxWorkers())
			.withDetail("queued", pool.queued())
			.withDetail("pressure", round(this.shedding.pressure()))
			.withDetail("weight", round(this.shedding.weight()))
			.withDetail("timesOut", this.shedding.timesOut());
	}

	private static double round(double value) {
		return Math.round(value * 1000) / 1000.0;
	}

}
