package dev.ariadne.autoconfigure.actuate;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneManagementServer;
import dev.ariadne.autoconfigure.RawHttp;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.PoolStats;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link AriadneHealthContributorAutoConfiguration}.
 */
class AriadneHealthContributorAutoConfigurationTest {

	private final ApplicationContextRunner contextRunner = ActuatorContextRunners.actuator();

	@Test
	void contributesAriadneHealthWithPoolDetails() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(AriadneHealthIndicator.class)
				.doesNotHaveBean(AriadneReadinessHealthIndicator.class);
			Health health = context.getBean(AriadneHealthIndicator.class).health(true);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("ioModel", "event-loop")
				.containsEntry("listener", "app")
				.containsEntry("busy", 0)
				.containsEntry("max", 200)
				.containsEntry("saturation", 0.0)
				.containsEntry("queued", 0)
				.containsKeys("queueCapacity", "openConnections", "idleConnections");
		});
	}

	@Test
	void reportsOutOfServiceOnceTheServerHasStopped() {
		this.contextRunner.run((context) -> {
			AriadneHealthIndicator indicator = context.getBean(AriadneHealthIndicator.class);
			context.getBean(AriadneServer.class).stop();
			assertThat(indicator.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
		});
	}

	@Test
	void backsOffWhenTheAriadneIndicatorIsDisabled() {
		this.contextRunner
			.withPropertyValues("management.health.ariadne.enabled=false",
					"ariadne.server.health.saturation-readiness=true")
			.run((context) -> assertThat(context).doesNotHaveBean(AriadneHealthIndicator.class)
				.doesNotHaveBean(AriadneReadinessHealthIndicator.class));
	}

	@Test
	void takesReadinessOutOfServiceWhileThePoolIsSaturatedWithWaiters() throws Exception {
		this.contextRunner
			.withPropertyValues("ariadne.server.io-model=blocking", "ariadne.server.threads.max=1",
					"ariadne.server.keep-alive.release-threshold=1", "management.server.port=0",
					"ariadne.server.health.saturation-readiness=true",
					"ariadne.server.health.shedding.reaction-time=200ms")
			.withBean("helloRoute", Route.class, () -> Route.get("/", (request, response) -> response.send("hello")))
			.run((context) -> {
				AriadneServer app = context.getBean(AriadneServer.class);
				int management = context.getBean(AriadneManagementServer.class).server().port();
				assertThat(readiness(management).statusLine()).isEqualTo("HTTP/1.1 200 OK");
				PoolStats pool = app.stats().pool();
				try (Socket pinning = PoolConnections.keepAlive(app.port()); Socket waiting = PoolConnections.connect(app.port())) {
					await().atMost(Duration.ofSeconds(10)).until(() -> pool.busyWorkers() == 1 && pool.queued() == 1);
					await().atMost(Duration.ofSeconds(10))
						.until(() -> readiness(management).statusLine().equals("HTTP/1.1 503 Service Unavailable"));
					assertThat(readiness(management).body()).isEqualTo("{\"status\":\"OUT_OF_SERVICE\"}");
					assertThat(ActuatorHttp.get(management, "/actuator/health/liveness").statusLine())
						.isEqualTo("HTTP/1.1 200 OK");
					RawHttp.Response main = ActuatorHttp.get(management, "/actuator/health");
					assertThat(main.statusLine()).isEqualTo("HTTP/1.1 200 OK");
					pinning.close();
					await().atMost(Duration.ofSeconds(10)).until(() -> pool.queued() == 0);
					await().atMost(Duration.ofSeconds(10))
						.until(() -> readiness(management).statusLine().equals("HTTP/1.1 200 OK"));
				}
			});
	}

	@Test
	void bringsReadinessBackAfterMaxOutEvenWhileThePoolStaysSaturated() throws Exception {
		this.contextRunner
			.withPropertyValues("ariadne.server.io-model=blocking", "ariadne.server.threads.max=1",
					"ariadne.server.keep-alive.release-threshold=1", "management.server.port=0",
					"ariadne.server.health.saturation-readiness=true",
					"ariadne.server.health.shedding.reaction-time=200ms", "ariadne.server.health.shedding.max-out=1s",
					"ariadne.server.health.shedding.min-in=1m")
			.withBean("helloRoute", Route.class, () -> Route.get("/", (request, response) -> response.send("hello")))
			.run((context) -> {
				AriadneServer app = context.getBean(AriadneServer.class);
				SaturationShedding shedding = context.getBean(SaturationShedding.class);
				int management = context.getBean(AriadneManagementServer.class).server().port();
				PoolStats pool = app.stats().pool();
				try (Socket pinning = PoolConnections.keepAlive(app.port()); Socket waiting = PoolConnections.connect(app.port())) {
					await().atMost(Duration.ofSeconds(10))
						.until(() -> readiness(management).statusLine().equals("HTTP/1.1 503 Service Unavailable"));
					await().atMost(Duration.ofSeconds(10))
						.until(() -> readiness(management).statusLine().equals("HTTP/1.1 200 OK"));
					assertThat(pool.busyWorkers()).isEqualTo(1);
					assertThat(pool.queued()).isEqualTo(1);
					assertThat(shedding.pressure()).isGreaterThan(SaturationShedding.OUT_THRESHOLD);
					assertThat(shedding.timesOut()).isEqualTo(1);
				}
			});
	}

	@Test
	void showsTheSaturationCheckAsAReadinessComponent() {
		this.contextRunner
			.withPropertyValues("ariadne.server.health.saturation-readiness=true",
					"management.endpoint.health.show-details=always",
					"management.endpoint.health.group.readiness.show-components=always")
			.run((context) -> {
				int port = context.getBean(AriadneServer.class).port();
				String readiness = readiness(port).body();
				assertThat(JsonPath.<String>read(readiness, "$.components.ariadneReadiness.status")).isEqualTo("UP");
				assertThat(JsonPath.<String>read(readiness, "$.components.readinessState.status")).isEqualTo("UP");
				String main = ActuatorHttp.get(port, "/actuator/health").body();
				assertThat(JsonPath.<Map<String, Object>>read(main, "$.components"))
					.containsKey("ariadne")
					.doesNotContainKey("ariadneReadiness");
			});
	}

	private static RawHttp.Response readiness(int port) throws IOException {
		return ActuatorHttp.get(port, "/actuator/health/readiness");
	}

}
