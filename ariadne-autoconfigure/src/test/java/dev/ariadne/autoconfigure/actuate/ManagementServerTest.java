package dev.ariadne.autoconfigure.actuate;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneManagementServer;
import dev.ariadne.autoconfigure.RawHttp;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpointDiscoverer;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the management listener of {@link AriadneActuatorAutoConfiguration}.
 */
@ExtendWith(OutputCaptureExtension.class)
class ManagementServerTest {

	private static final String SHARED_WARNING = "metrics and health starve with it";

	private final ApplicationContextRunner contextRunner = ActuatorContextRunners.actuator()
		.withBean("helloRoute", Route.class, () -> Route.get("/", (request, response) -> response.send("hello")));

	@Test
	void createsNoManagementListenerWithoutManagementPort() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(AriadneManagementServer.class)
			.doesNotHaveBean("ariadneManagementServerLifecycle"));
	}

	@Test
	void servesEndpointsOnlyOnTheManagementListenerWhenItsPortIsSet() {
		this.contextRunner.withPropertyValues("management.server.port=0").run((context) -> {
			assertThat(context).hasSingleBean(AriadneManagementServer.class).hasSingleBean(AriadneServer.class);
			int app = appPort(context);
			int management = managementPort(context);
			assertThat(management).isNotEqualTo(app);
			assertThat(context.getEnvironment().getProperty("local.management.port", Integer.class))
				.isEqualTo(management);
			for (String path : List.of("/actuator/health", "/actuator/health/readiness", "/actuator/metrics",
					"/actuator/prometheus", "/actuator/ariadne", "/actuator")) {
				assertThat(ActuatorHttp.get(management, path).statusLine()).as(path).isEqualTo("HTTP/1.1 200 OK");
				assertThat(ActuatorHttp.get(app, path).statusLine()).as(path).isEqualTo("HTTP/1.1 404 Not Found");
			}
			assertThat(ActuatorHttp.get(app, "/").body()).isEqualTo("hello");
			assertThat(ActuatorHttp.get(management, "/").statusLine()).isEqualTo("HTTP/1.1 404 Not Found");
		});
	}

	@Test
	void exportsTheMetersOfBothListenersTaggedByListener() {
		this.contextRunner.withPropertyValues("management.server.port=0").run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("ariadne.pool.threads.max").tag("listener", "management").gauge().value())
				.isEqualTo(2);
			assertThat(registry.get("ariadne.pool.threads.max").tag("listener", "app").gauge().value()).isEqualTo(200);
			assertThat(registry.get("ariadne.server.info").tag("listener", "management").tag("io_model", "event-loop")
				.gauge()).isNotNull();
		});
	}

	@Test
	void givesTheManagementListenerASmallEventLoopOfItsOwn() {
		this.contextRunner.withPropertyValues("management.server.port=0", "ariadne.server.io-model=blocking",
				"ariadne.server.threads.max=4")
			.run((context) -> {
				ServerConfig config = context.getBean(AriadneManagementServer.class).server().config();
				assertThat(config.name()).isEqualTo("management");
				assertThat(config.ioModel()).isEqualTo(IoModel.EVENT_LOOP);
				assertThat(config.selectors()).isEqualTo(1);
				assertThat(config.maxThreads()).isEqualTo(2);
				assertThat(context.getBean(AriadneServer.class).config().maxThreads()).isEqualTo(4);
			});
	}

	@Test
	void logsTheManagementListenersRequestsToFilesOfItsOwnWhenTheAccessLogIsOn(@TempDir Path directory) {
		this.contextRunner
			.withPropertyValues("management.server.port=0", "ariadne.server.accesslog.enabled=true",
					"ariadne.server.accesslog.pattern=%r %s %{listener}x", "ariadne.server.accesslog.rotate=false",
					"ariadne.server.accesslog.directory=" + directory)
			.run((context) -> {
				assertThat(context.getBean(AriadneManagementServer.class).server().config().accessLog().prefix())
					.isEqualTo("management_access_log");
				assertThat(ActuatorHttp.get(managementPort(context), "/actuator/health").statusLine())
					.isEqualTo("HTTP/1.1 200 OK");
				assertThat(ActuatorHttp.get(appPort(context), "/").body()).isEqualTo("hello");
				context.getBean(AriadneManagementServer.class).server().stop();
				context.getBean(AriadneServer.class).stop();
				assertThat(Files.readAllLines(directory.resolve("management_access_log.log")))
					.containsExactly("GET /actuator/health HTTP/1.1 200 management");
				assertThat(Files.readAllLines(directory.resolve("access_log.log"))).containsExactly("GET / HTTP/1.1 200 app");
			});
	}

	@Test
	void servesEndpointsOnTheApplicationListenerWhenBothPortsAreEqual() throws IOException {
		int port = freePort();
		this.contextRunner.withPropertyValues("ariadne.server.port=" + port, "management.server.port=" + port)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(AriadneManagementServer.class);
				assertThat(ActuatorHttp.get(port, "/actuator/health").statusLine()).isEqualTo("HTTP/1.1 200 OK");
			});
	}

	@Test
	void honoursManagementBasePathAndAddress() {
		this.contextRunner
			.withPropertyValues("management.server.port=0", "management.server.base-path=/ops",
					"management.server.address=127.0.0.1")
			.run((context) -> {
				AriadneServer server = context.getBean(AriadneManagementServer.class).server();
				assertThat(server.localAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
				int management = server.port();
				assertThat(ActuatorHttp.get(management, "/ops/actuator/health").statusLine())
					.isEqualTo("HTTP/1.1 200 OK");
				assertThat(ActuatorHttp.get(management, "/ops/actuator").statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(ActuatorHttp.get(management, "/actuator/health").statusLine())
					.isEqualTo("HTTP/1.1 404 Not Found");
			});
	}

	@Test
	void servesLinksAtTheRootOfTheManagementListenerWithAnEmptyBasePath() {
		this.contextRunner.withPropertyValues("management.server.port=0", "management.endpoints.web.base-path=/")
			.run((context) -> {
				int management = managementPort(context);
				RawHttp.Response links = ActuatorHttp.get(management, "/");
				assertThat(links.statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(JsonPath.<String>read(links.body(), "$._links.health.href"))
					.isEqualTo("http://localhost:" + management + "/health");
				assertThat(ActuatorHttp.get(management, "/health").statusLine()).isEqualTo("HTTP/1.1 200 OK");
			});
	}

	@Test
	void keepsAdditionalProbePathsOnTheApplicationListener() {
		this.contextRunner
			.withPropertyValues("management.server.port=0", "management.endpoint.health.probes.add-additional-paths=true")
			.run((context) -> {
				assertThat(ActuatorHttp.get(appPort(context), "/livez").statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(ActuatorHttp.get(appPort(context), "/readyz").statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(ActuatorHttp.get(managementPort(context), "/livez").statusLine())
					.isEqualTo("HTTP/1.1 404 Not Found");
			});
	}

	@Test
	void showsBothListenersInTheAriadneEndpoint() {
		this.contextRunner.withPropertyValues("management.server.port=0").run((context) -> {
			String body = ActuatorHttp.get(managementPort(context), "/actuator/ariadne").body();
			assertThat(JsonPath.<Map<String, Object>>read(body, "$.listeners")).containsOnlyKeys("app", "management");
			assertThat(JsonPath.<Integer>read(body, "$.listeners.management.port")).isEqualTo(managementPort(context));
			assertThat(JsonPath.<Integer>read(body, "$.listeners.management.pool.max")).isEqualTo(2);
			assertThat(JsonPath.<String>read(body, "$.listeners.management.ioModel")).isEqualTo("event-loop");
		});
	}

	@Test
	void reportsManagementExchangesToRequestListeners() {
		this.contextRunner.withPropertyValues("management.server.port=0").run((context) -> {
			int management = managementPort(context);
			assertThat(ActuatorHttp.get(management, "/actuator/health").statusLine()).isEqualTo("HTTP/1.1 200 OK");
			await().atMost(Duration.ofSeconds(5))
				.until(() -> ActuatorHttp.get(management, "/actuator/prometheus", "text/plain")
					.body()
					.contains("ariadne_requests_seconds_count{listener=\"management\",method=\"GET\","
							+ "outcome=\"SUCCESS\",refusal=\"none\",route=\"/actuator/health\",status=\"200\"}"));
		});
	}

	@Test
	void stopsTheManagementListenerWithTheContext() {
		this.contextRunner.withPropertyValues("management.server.port=0").run((context) -> {
			AriadneServer management = context.getBean(AriadneManagementServer.class).server();
			assertThat(management.isRunning()).isTrue();
			context.close();
			assertThat(management.isRunning()).isFalse();
		});
	}

	@Test
	void failsNamingTheManagementPortWhenOutOfRange() {
		this.contextRunner.withPropertyValues("management.server.port=70000").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("management.server.port");
		});
	}

	@Test
	void warnsThatABlockingApplicationListenerStarvesTheEndpoints(CapturedOutput output) {
		this.contextRunner.withPropertyValues("ariadne.server.io-model=blocking").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("WARN").contains(SHARED_WARNING).contains("management.server.port");
		});
	}

	@Test
	void doesNotWarnWithAManagementListener(CapturedOutput output) {
		this.contextRunner.withPropertyValues("ariadne.server.io-model=blocking", "management.server.port=0")
			.run((context) -> assertThat(output).doesNotContain(SHARED_WARNING));
	}

	@Test
	void doesNotWarnWithAnEventLoopApplicationListener(CapturedOutput output) {
		this.contextRunner.withPropertyValues("ariadne.server.io-model=event-loop")
			.run((context) -> assertThat(output).doesNotContain(SHARED_WARNING));
	}

	@Test
	void summarizesTheManagementListenerAtStartup(CapturedOutput output) {
		this.contextRunner.withPropertyValues("management.server.port=0", "ariadne.server.threads.max=7")
			.run((context) -> assertThat(output)
				.contains("Ariadne started on ")
				.contains("(io-model event-loop, threads.max 7); management on ")
				.contains(":" + managementPort(context) + " (io-model event-loop, threads.max 2)"));
	}

	@Test
	void pointsToTheLivePageOnTheManagementListenerAtStartup(CapturedOutput output) {
		this.contextRunner.withPropertyValues("management.server.port=0", "management.server.address=127.0.0.1")
			.run((context) -> assertThat(output).contains("; live diagnosis on http://127.0.0.1:"
					+ managementPort(context) + "/actuator/ariadne/live"));
	}

	@Test
	void pointsToNoLivePageWhenTheDiagnosisIsOff(CapturedOutput output) {
		this.contextRunner.withPropertyValues("management.server.port=0", "ariadne.server.diagnosis.enabled=false")
			.run((context) -> assertThat(output).contains("Ariadne started on ").doesNotContain("live diagnosis"));
	}

	@Test
	void summarizesActuatorOnTheApplicationPortAtStartup(CapturedOutput output) {
		this.contextRunner.run((context) -> assertThat(output)
			.contains(":" + appPort(context) + " (io-model event-loop, threads.max 200); actuator on the application port"));
	}

	@Test
	void summarizesActuatorOffHttpAtStartup(CapturedOutput output) {
		this.contextRunner.withPropertyValues("management.server.port=-1")
			.run((context) -> assertThat(output)
				.contains("(io-model event-loop, threads.max 200); actuator not served over HTTP (management.server.port=-1)")
				.doesNotContain("live diagnosis"));
	}

	@Test
	void summarizesNoActuatorWithoutActuator(CapturedOutput output) {
		this.contextRunner.withClassLoader(new FilteredClassLoader(WebEndpointDiscoverer.class))
			.run((context) -> assertThat(output)
				.contains(":" + appPort(context) + " (io-model event-loop, threads.max 200)\n")
				.doesNotContain("actuator on the application port"));
	}

	private static int appPort(AssertableApplicationContext context) {
		return context.getBean(AriadneServer.class).port();
	}

	private static int managementPort(AssertableApplicationContext context) {
		return context.getBean(AriadneManagementServer.class).server().port();
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
