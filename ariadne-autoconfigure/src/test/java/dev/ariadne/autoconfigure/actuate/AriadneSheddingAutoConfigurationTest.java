package dev.ariadne.autoconfigure.actuate;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.ariadne.autoconfigure.AriadneAutoConfiguration;
import dev.ariadne.AriadneServer;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.PoolStats;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link AriadneSheddingAutoConfiguration} and the {@link AgentCheckListener} it
 * creates, over real sockets.
 */
class AriadneSheddingAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
				AriadneAutoConfiguration.class, AriadneSheddingAutoConfiguration.class))
		.withBean("helloRoute", Route.class, () -> Route.get("/", (request, response) -> response.send("hello")))
		.withPropertyValues("ariadne.server.port=0", "ariadne.server.address=127.0.0.1");

	@Test
	void shedsNothingByDefault() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(SaturationShedding.class)
			.doesNotHaveBean(AgentCheckListener.class));
	}

	@Test
	void measuresPressureForSaturationReadinessWithoutAnAgent() {
		this.runner.withPropertyValues("ariadne.server.health.saturation-readiness=true").run((context) -> {
			assertThat(context).hasSingleBean(SaturationShedding.class).doesNotHaveBean(AgentCheckListener.class);
			SaturationShedding shedding = context.getBean(SaturationShedding.class);
			assertThat(shedding.isRunning()).isTrue();
			assertThat(shedding.settings()).isEqualTo(new SaturationShedding.Settings(Duration.ofSeconds(1),
					Duration.ofSeconds(5), Duration.ofSeconds(10), 0.05, true));
		});
	}

	@Test
	void answersDrainUntilTheApplicationAcceptsTrafficAndOnceItRefusesItAgain() {
		this.runner.withPropertyValues("ariadne.server.health.agent.port=0").run((context) -> {
			assertThat(context).hasSingleBean(SaturationShedding.class);
			int agent = context.getBean(AgentCheckListener.class).port();
			assertThat(agentCheck(agent)).isEqualTo("drain\n");
			AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
			assertThat(agentCheck(agent)).isEqualTo("ready 100%\n");
			AvailabilityChangeEvent.publish(context, ReadinessState.REFUSING_TRAFFIC);
			assertThat(agentCheck(agent)).isEqualTo("drain\n");
		});
	}

	@Test
	void answersDrainOnceTheServerHasStopped() {
		this.runner.withPropertyValues("ariadne.server.health.agent.port=0").run((context) -> {
			AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
			context.getBean(AriadneServer.class).stop();
			assertThat(agentCheck(context.getBean(AgentCheckListener.class).port())).isEqualTo("drain\n");
		});
	}

	@Test
	void answersFromTheReadinessStateAloneWithoutAnAriadneServerBean() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
					AriadneSheddingAutoConfiguration.class))
			.withPropertyValues("ariadne.server.health.agent.port=0")
			.run((context) -> {
				int agent = context.getBean(AgentCheckListener.class).port();
				assertThat(agentCheck(agent)).isEqualTo("drain\n");
				AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
				assertThat(agentCheck(agent)).isEqualTo("ready 100%\n");
			});
	}

	@Test
	void lowersTheWeightToItsMinimumWhileThePoolIsStarvedAndRaisesItAgainAfterwards() {
		this.runner
			.withPropertyValues("ariadne.server.io-model=blocking", "ariadne.server.threads.max=1",
					"ariadne.server.keep-alive.release-threshold=1", "ariadne.server.health.agent.port=0",
					"ariadne.server.health.shedding.reaction-time=200ms",
					"ariadne.server.health.shedding.min-weight=0.1")
			.run((context) -> {
				AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
				AriadneServer app = context.getBean(AriadneServer.class);
				int agent = context.getBean(AgentCheckListener.class).port();
				PoolStats pool = app.stats().pool();
				try (Socket pinning = PoolConnections.keepAlive(app.port()); Socket waiting = PoolConnections.connect(app.port())) {
					await().atMost(Duration.ofSeconds(10)).until(() -> pool.busyWorkers() == 1 && pool.queued() == 1);
					await().atMost(Duration.ofSeconds(10)).until(() -> agentCheck(agent).equals("ready 10%\n"));
					pinning.close();
					await().atMost(Duration.ofSeconds(10)).until(() -> pool.queued() == 0);
					await().atMost(Duration.ofSeconds(10)).until(() -> agentCheck(agent).equals("ready 100%\n"));
				}
			});
	}

	@Test
	void bindsTheAgentToTheManagementAddress() {
		this.runner
			.withPropertyValues("ariadne.server.health.agent.port=0", "management.server.address=127.0.0.1")
			.run((context) -> assertThat(context.getBean(AgentCheckListener.class).localAddress().getAddress())
				.isEqualTo(InetAddress.getByName("127.0.0.1")));
	}

	@Test
	void stopsAnsweringWhenTheContextCloses() {
		this.runner.withPropertyValues("ariadne.server.health.agent.port=0").run((context) -> {
			int agent = context.getBean(AgentCheckListener.class).port();
			((ConfigurableApplicationContext) context.getSourceApplicationContext()).close();
			assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> agentCheck(agent));
		});
	}

	@Test
	void failsOnAnAgentPortOutOfRangeNamingTheProperty() {
		this.runner.withPropertyValues("ariadne.server.health.agent.port=70000")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("ariadne.server.health.agent.port")
				.hasMessageContaining("must be between 0 and 65535"));
	}

	@Test
	void failsOnAnAgentPortThatIsTheManagementPort() {
		this.runner.withPropertyValues("ariadne.server.health.agent.port=18081", "management.server.port=18081")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("ariadne.server.health.agent.port")
				.hasMessageContaining("must differ from management.server.port"));
	}

	@Test
	void failsOnAZeroMinimumWeightNamingTheProperty() {
		this.runner
			.withPropertyValues("ariadne.server.health.saturation-readiness=true",
					"ariadne.server.health.shedding.min-weight=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("ariadne.server.health.shedding.min-weight")
				.hasMessageContaining("must be above 0 and at most 1"));
	}

	@Test
	void failsOnANonPositiveMaxOutNamingTheProperty() {
		this.runner
			.withPropertyValues("ariadne.server.health.agent.port=0", "ariadne.server.health.shedding.max-out=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("ariadne.server.health.shedding.max-out")
				.hasMessageContaining("must be positive"));
	}

	/** Connects to the agent and reads everything it sends until it closes the connection. */
	private static String agentCheck(int port) throws IOException {
		try (Socket socket = PoolConnections.connect(port)) {
			return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
		}
	}

}
