package dev.ariadne.autoconfigure.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

import dev.ariadne.autoconfigure.actuate.SaturationShedding;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Binds {@link SaturationShedding} to a {@link MeterRegistry}: the pressure it measures on the
 * application's default pool, the weight the instance asks load balancers for, and whether
 * saturation has taken readiness out. Tagged {@code listener=app} and {@code pool=default},
 * like the pool's own meters, so that they join them in queries. {@link #close()} removes
 * every meter this binder registered.
 */
public final class AriadneSheddingMetrics implements MeterBinder, AutoCloseable {

	static final String PRESSURE = "ariadne.shedding.pressure";

	static final String WEIGHT = "ariadne.shedding.weight";

	static final String OUT = "ariadne.shedding.out";

	private static final Tags TAGS = Tags.of("listener", "app", "pool", "default");

	private final SaturationShedding shedding;

	private final List<Meter.Id> registered = new ArrayList<>();

	private MeterRegistry registry;

	/**
	 * Creates a binder.
	 * @param shedding the shedding to report
	 */
	public AriadneSheddingMetrics(SaturationShedding shedding) {
		this.shedding = shedding;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
		gauge(registry, PRESSURE, "Smoothed share of recent time the pool was saturated with work waiting, 0 to 1",
				SaturationShedding::pressure);
		gauge(registry, WEIGHT, "Weight the instance asks load balancers for, as a share of its full weight; "
				+ "never 0 for saturation", SaturationShedding::weight);
		gauge(registry, OUT, "1 while saturation takes readiness out of service (saturation-readiness), else 0",
				(shedding) -> shedding.readinessOut() ? 1 : 0);
	}

	private void gauge(MeterRegistry registry, String name, String description,
			ToDoubleFunction<SaturationShedding> value) {
		this.registered.add(Gauge.builder(name, this.shedding, value)
			.description(description)
			.tags(TAGS)
			.register(registry)
			.getId());
	}

	/**
	 * Removes every meter this binder registered.
	 */
	@Override
	public void close() {
		MeterRegistry registry = this.registry;
		if (registry != null) {
			this.registered.forEach(registry::remove);
			this.registered.clear();
		}
	}

}
