package dev.ariadne.autoconfigure.metrics;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneAutoConfiguration;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.autoconfigure.actuate.SaturationShedding;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * for Ariadne's Micrometer meters: the pool, connection and accept-queue meters of the
 * application listener and, when it has its own, the management listener, and request and
 * queue-wait timers for every listener, and the shedding meters when
 * {@link SaturationShedding} runs. Active only when
 * Micrometer is on the class path and a {@link MeterRegistry} exists.
 */
@AutoConfiguration(after = AriadneAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
				"dev.ariadne.autoconfigure.actuate.AriadneActuatorAutoConfiguration",
				"dev.ariadne.autoconfigure.actuate.AriadneSheddingAutoConfiguration",
				"dev.ariadne.autoconfigure.web.AriadneServletWebServerAutoConfiguration",
				"dev.ariadne.autoconfigure.web.AriadneReactiveWebServerAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, AriadneServer.class })
@ConditionalOnBean(MeterRegistry.class)
public final class AriadneMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AriadneRequestMetrics ariadneRequestMetrics(MeterRegistry registry) {
		return new AriadneRequestMetrics(registry);
	}

	@Bean
	@ConditionalOnBean(AriadneServers.class)
	@ConditionalOnMissingBean
	AriadneServersMetrics ariadneServersMetrics(AriadneServers servers, MeterRegistry registry) {
		return new AriadneServersMetrics(servers, registry);
	}

	@Bean
	@ConditionalOnBean(SaturationShedding.class)
	@ConditionalOnMissingBean
	AriadneSheddingMetrics ariadneSheddingMetrics(SaturationShedding shedding) {
		return new AriadneSheddingMetrics(shedding);
	}

}
