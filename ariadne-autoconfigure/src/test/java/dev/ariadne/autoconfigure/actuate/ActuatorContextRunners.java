package dev.ariadne.autoconfigure.actuate;

import dev.ariadne.autoconfigure.AriadneAutoConfiguration;
import dev.ariadne.autoconfigure.metrics.AriadneMetricsAutoConfiguration;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.jackson.JacksonEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.info.InfoContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.info.InfoEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsEndpointAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.jvm.JvmMetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.ContextRefreshedEvent;

/**
 * Context runners with what {@code spring-boot-starter-actuator} and
 * {@code micrometer-registry-prometheus} auto-configure in an application without a web stack,
 * plus Ariadne's auto-configurations.
 */
final class ActuatorContextRunners {

	/** Boot's actuator, health and metrics auto-configurations, and Ariadne's. */
	static final AutoConfigurations AUTO_CONFIGURATIONS = AutoConfigurations.of(
			ApplicationAvailabilityAutoConfiguration.class, EndpointAutoConfiguration.class,
			JacksonEndpointAutoConfiguration.class, InfoContributorAutoConfiguration.class,
			InfoEndpointAutoConfiguration.class, HealthContributorAutoConfiguration.class,
			HealthContributorRegistryAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
			AvailabilityHealthContributorAutoConfiguration.class, AvailabilityProbesAutoConfiguration.class,
			MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
			PrometheusMetricsExportAutoConfiguration.class, MetricsEndpointAutoConfiguration.class,
			JvmMetricsAutoConfiguration.class, AriadneAutoConfiguration.class,
			AriadneMetricsAutoConfiguration.class, AriadneActuatorAutoConfiguration.class,
			AriadneEndpointAutoConfiguration.class, AriadneSheddingAutoConfiguration.class,
			AriadneHealthContributorAutoConfiguration.class);

	private ActuatorContextRunners() {
	}

	/**
	 * Returns a runner for an application on a free port that exposes the sample's endpoints
	 * and, once refreshed, is live and ready, as {@code SpringApplication} would make it.
	 * @return the runner
	 */
	static ApplicationContextRunner actuator() {
		return new ApplicationContextRunner().withConfiguration(AUTO_CONFIGURATIONS)
			.withInitializer((context) -> context.addApplicationListener((ContextRefreshedEvent event) -> {
				AvailabilityChangeEvent.publish(event.getApplicationContext(), LivenessState.CORRECT);
				AvailabilityChangeEvent.publish(event.getApplicationContext(), ReadinessState.ACCEPTING_TRAFFIC);
			}))
			.withPropertyValues("ariadne.server.port=0",
					"management.endpoints.web.exposure.include=health,info,metrics,prometheus,ariadne");
	}

}
