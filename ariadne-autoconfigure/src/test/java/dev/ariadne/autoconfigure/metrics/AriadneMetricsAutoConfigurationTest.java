package dev.ariadne.autoconfigure.metrics;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneAutoConfiguration;
import dev.ariadne.autoconfigure.RawHttp;
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
			assertThat(context).hasSingleBean(AriadneServerMetrics.class).hasSingleBean(AriadneRequestMetrics.class);
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
				.doesNotHaveBean(AriadneServerMetrics.class)
				.doesNotHaveBean(AriadneRequestMetrics.class));
	}

	@Test
	void backsOffWithoutAMeterRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AriadneAutoConfiguration.class, AriadneMetricsAutoConfiguration.class))
			.withPropertyValues("ariadne.server.port=0")
			.run((context) -> assertThat(context).hasSingleBean(AriadneServer.class)
				.doesNotHaveBean(AriadneServerMetrics.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class Routes {

		@Bean
		Route hello() {
			return Route.get("/hello", (request, response) -> response.send("hello"));
		}

	}

}
