package dev.ariadne.autoconfigure.actuate;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneAutoConfiguration;
import dev.ariadne.autoconfigure.AriadneServers;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * for Ariadne's health contributors: {@code ariadne}, with the application listener's pool and
 * connection figures, and, when {@code ariadne.server.health.saturation-readiness} is set,
 * {@code ariadneReadiness}, which takes the readiness group out of service while
 * {@link SaturationShedding} says so: while the pool is saturated with work waiting, on a
 * bounded duty cycle.
 *
 * <p>The saturation check is a contributor of its own, added to the readiness group by a
 * {@link HealthEndpointGroupsPostProcessor} (the mechanism Boot's availability probes use),
 * rather than a change of Boot's {@code readinessState} contributor, which keeps meaning the
 * application's {@link org.springframework.boot.availability.ReadinessState}. It stays out of
 * the main group, so that a saturated pool fails readiness only, never
 * {@code /actuator/health} or liveness. Both are turned off with
 * {@code management.health.ariadne.enabled=false}.
 */
@AutoConfiguration(after = { AriadneAutoConfiguration.class, AriadneSheddingAutoConfiguration.class },
		afterName = "org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration")
@ConditionalOnClass(value = { HealthIndicator.class, AriadneServer.class },
		name = "org.springframework.boot.actuate.autoconfigure.OnEndpointElementCondition")
@ConditionalOnEnabledHealthIndicator("ariadne")
public final class AriadneHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "ariadneHealthIndicator")
	AriadneHealthIndicator ariadneHealthIndicator(ObjectProvider<AriadneServers> servers) {
		return new AriadneHealthIndicator(servers);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ HealthEndpointGroupsPostProcessor.class, AdditionalPathsMapper.class })
	@ConditionalOnBooleanProperty("ariadne.server.health.saturation-readiness")
	static class SaturationReadinessConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "ariadneReadinessHealthIndicator")
		AriadneReadinessHealthIndicator ariadneReadinessHealthIndicator(ObjectProvider<AriadneServers> servers,
				SaturationShedding shedding) {
			return new AriadneReadinessHealthIndicator(servers, shedding);
		}

		@Bean
		@ConditionalOnMissingBean(name = "ariadneReadinessHealthEndpointGroupsPostProcessor")
		static HealthEndpointGroupsPostProcessor ariadneReadinessHealthEndpointGroupsPostProcessor() {
			return SaturationReadinessGroups.postProcessor(AriadneReadinessHealthIndicator.NAME);
		}

	}

}
