package dev.ariadne.autoconfigure.metrics;

import java.time.Duration;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneAutoConfiguration;
import dev.ariadne.autoconfigure.RawHttp;
import dev.ariadne.autoconfigure.actuate.AriadneSheddingAutoConfiguration;
import dev.ariadne.autoconfigure.actuate.SaturationShedding;
import dev.ariadne.server.routing.Route;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AriadneMetricsAutoConfiguration}.
 */
class AriadneMetricsAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AriadneAutoConfiguration.class, AriadneMetricsAutoConfiguration.class,
				MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class))
		.withUserConfiguration(Routes.class)
		.withPropertyValues("ariadne.server.port=0", "ariadne.server.address=127.0.0.1");

	@Test
	void bindsServerMetersAndRecordsRequests() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(AriadneServersMetrics.class).hasSingleBean(AriadneRequestMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("ariadne.pool.threads.max").tag("listener", "app").gauge().value()).isEqualTo(200);
			int port = context.getBean(AriadneServer.class).port();
			assertThat(RawHttp.get(port, "/hello").statusLine()).isEqualTo("HTTP/1.1 200 OK");
			assertThat(registry.get("ariadne.requests").tags("route", "/hello", "status", "200").timer().count())
				.isEqualTo(1);
		});
	}

	@Test
	void bindsToThePrometheusRegistry() {
		this.runner.withConfiguration(AutoConfigurations.of(PrometheusMetricsExportAutoConfiguration.class))
			.run((context) -> {
				PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
				assertThat(registry.scrape()).contains("ariadne_pool_saturation{listener=\"app\",pool=\"default\"}");
			});
	}

	@Test
	void backsOffWithoutMicrometer() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AriadneAutoConfiguration.class, AriadneMetricsAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("ariadne.server.port=0")
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasSingleBean(AriadneServer.class)
				.doesNotHaveBean(AriadneServersMetrics.class)
				.doesNotHaveBean(AriadneRequestMetrics.class));
	}

	@Test
	void bindsTheSheddingMetersWhenSheddingRuns() {
		this.runner.withConfiguration(AutoConfigurations.of(AriadneSheddingAutoConfiguration.class))
			.withPropertyValues("ariadne.server.health.saturation-readiness=true")
			.run((context) -> {
				assertThat(context).hasSingleBean(AriadneSheddingMetrics.class);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("ariadne.shedding.weight").tags("listener", "app", "pool", "default").gauge().value())
					.isEqualTo(1.0);
				assertThat(registry.get("ariadne.shedding.pressure").gauge().value()).isZero();
				assertThat(registry.get("ariadne.shedding.out").gauge().value()).isZero();
			});
	}

	@Test
	void bindsNoSheddingMetersWithoutShedding() {
		this.runner.withConfiguration(AutoConfigurations.of(AriadneSheddingAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(AriadneSheddingMetrics.class);
				assertThat(context.getBean(MeterRegistry.class).find("ariadne.shedding.weight").gauge()).isNull();
			});
	}

	@Test
	void exportsTheSheddingMetersUnderTheirPrometheusNames() {
		this.runner
			.withConfiguration(AutoConfigurations.of(AriadneSheddingAutoConfiguration.class,
					PrometheusMetricsExportAutoConfiguration.class))
			.withPropertyValues("ariadne.server.health.agent.port=0")
			.run((context) -> assertThat(context.getBean(PrometheusMeterRegistry.class).scrape())
				.contains("ariadne_shedding_weight{listener=\"app\",pool=\"default\"} 1.0")
				.contains("ariadne_shedding_pressure{listener=\"app\",pool=\"default\"} 0.0")
				.contains("ariadne_shedding_out{listener=\"app\",pool=\"default\"} 0.0"));
	}

	@Test
	void removesTheSheddingMetersWhenClosed() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		SaturationShedding shedding = new SaturationShedding(() -> null, new SaturationShedding.Settings(
				Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(10), 0.05, false));
		AriadneSheddingMetrics metrics = new AriadneSheddingMetrics(shedding);
		metrics.bindTo(registry);
		assertThat(registry.getMeters()).hasSize(3);
		metrics.close();
		assertThat(registry.getMeters()).isEmpty();
	}

	@Test
	void backsOffWithoutAMeterRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AriadneAutoConfiguration.class, AriadneMetricsAutoConfiguration.class))
			.withPropertyValues("ariadne.server.port=0")
			.run((context) -> assertThat(context).hasSingleBean(AriadneServer.class)
				.doesNotHaveBean(AriadneServersMetrics.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class Routes {

		@Bean
		Route hello() {
			return Route.get("/hello", (request, response) -> response.send("hello"));
		}

	}

}
