package dev.ariadne.autoconfigure.actuate;

import java.net.InetAddress;

import dev.ariadne.autoconfigure.AriadneAutoConfiguration;
import dev.ariadne.autoconfigure.AriadneServerProperties;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.AriadneServer;
import dev.ariadne.server.stats.PoolStats;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * for shedding load while the application's pool is saturated: the {@link SaturationShedding}
 * that measures the pool's pressure, when {@code ariadne.server.health.saturation-readiness}
 * is set or {@code ariadne.server.health.agent.port} is, and, for the latter, the
 * {@link AgentCheckListener} that reports the instance's weight to HAProxy.
 *
 * <p>The agent listener binds to {@code ariadne.server.health.agent.address}, else to
 * {@code management.server.address}, else to every local address. It answers {@code drain}
 * until the application accepts traffic ({@link ReadinessState#ACCEPTING_TRAFFIC}) and once it
 * refuses it again, when the context closes; in between, {@code ready} and the weight.
 */
@AutoConfiguration(after = AriadneAutoConfiguration.class)
@ConditionalOnClass(AriadneServer.class)
@Conditional(AriadneSheddingAutoConfiguration.OnSheddingCondition.class)
@EnableConfigurationProperties(AriadneServerProperties.class)
public final class AriadneSheddingAutoConfiguration {

	private static final String PREFIX = "ariadne.server.health.";

	@Bean
	@ConditionalOnMissingBean
	SaturationShedding ariadneSaturationShedding(ObjectProvider<AriadneServers> servers,
			AriadneServerProperties properties, Environment environment) {
		AriadneServerProperties.Health health = properties.getHealth();
		AriadneServerProperties.Shedding shedding = health.getShedding();
		SaturationShedding.Settings settings;
		try {
			settings = new SaturationShedding.Settings(shedding.getReactionTime(), shedding.getMaxOut(),
					shedding.getMinIn(), shedding.getMinWeight(), health.isSaturationReadiness());
		}
		catch (IllegalArgumentException ex) {
			throw invalidProperty(environment, ex);
		}
		return new SaturationShedding(() -> applicationPool(servers), settings);
	}

	private static PoolStats applicationPool(ObjectProvider<AriadneServers> servers) {
		AriadneServer server = AriadneServers.application(servers);
		return (server != null && server.isRunning()) ? server.stats().pool() : null;
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty(AgentCheckListener.PORT_PROPERTY)
	AgentCheckListener ariadneAgentCheckListener(SaturationShedding shedding, AriadneServerProperties properties,
			ObjectProvider<ApplicationAvailability> availability, ObjectProvider<AriadneServers> servers,
			Environment environment) {
		AriadneServerProperties.Agent agent = properties.getHealth().getAgent();
		int port = agent.getPort();
		if (port < 0 || port > 65535) {
			throw new InvalidConfigurationPropertyValueException(AgentCheckListener.PORT_PROPERTY,
					environment.getProperty(AgentCheckListener.PORT_PROPERTY), "must be between 0 and 65535");
		}
		checkPortIsFree(environment, port);
		InetAddress address = (agent.getAddress() != null) ? agent.getAddress()
				: ManagementServerSettings.get(environment).address();
		return new AgentCheckListener(address, port,
				() -> AgentCheckListener.answer(accepting(availability, servers), shedding.weight()));
	}

	private static void checkPortIsFree(Environment environment, int port) {
		if (port == 0) {
			return;
		}
		ManagementServerSettings management = ManagementServerSettings.get(environment);
		if (port == management.applicationPort()) {
			throw new InvalidConfigurationPropertyValueException(AgentCheckListener.PORT_PROPERTY, port,
					"must differ from ariadne.server.port, where the application listens");
		}
		if (management.port() != null && port == management.port()) {
			throw new InvalidConfigurationPropertyValueException(AgentCheckListener.PORT_PROPERTY, port,
					"must differ from management.server.port, where the management listener listens");
		}
	}

	/**
	 * Whether the application accepts traffic: its readiness state says so and its server, when
	 * there is one to look at, runs.
	 */
	private static boolean accepting(ObjectProvider<ApplicationAvailability> availability,
			ObjectProvider<AriadneServers> servers) {
		AriadneServer server = AriadneServers.application(servers);
		if (server != null && !server.isRunning()) {
			return false;
		}
		ApplicationAvailability state = availability.getIfAvailable();
		return (state != null) ? state.getReadinessState() == ReadinessState.ACCEPTING_TRAFFIC : server != null;
	}

	/**
	 * Turns a validation failure of the settings, whose message starts with the property's
	 * name, into a failure of that property.
	 */
	private static RuntimeException invalidProperty(Environment environment, IllegalArgumentException ex) {
		String message = ex.getMessage();
		int end = message.indexOf(' ');
		String property = message.substring(0, end);
		Object value = environment.getProperty(property);
		String reason = message.substring(end + 1);
		return (value != null) ? new InvalidConfigurationPropertyValueException(property, value, reason) : ex;
	}

	/**
	 * Matches when saturation readiness is enabled or an agent port is set.
	 */
	static final class OnSheddingCondition extends AnyNestedCondition {

		OnSheddingCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnBooleanProperty(PREFIX + "saturation-readiness")
		static final class SaturationReadiness {

		}

		@ConditionalOnProperty(PREFIX + "agent.port")
		static final class AgentPort {

		}

	}

}
