package dev.ariadne.autoconfigure.actuate;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneManagementServer;
import dev.ariadne.autoconfigure.RawHttp;
import dev.ariadne.server.routing.Route;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpointDiscoverer;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointWebExtension;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AriadneActuatorAutoConfiguration}: Actuator's endpoints served by the
 * application's listener, over a raw socket.
 */
class AriadneActuatorAutoConfigurationTest {

	private static final String V3_JSON = "application/vnd.spring-boot.actuator.v3+json";

	private final ApplicationContextRunner contextRunner = ActuatorContextRunners.actuator();

	@Test
	void startsWithEveryActuatorPartOnAndServesHealthAsV3Json() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(WebEndpointDiscoverer.class)
				.hasSingleBean(HealthEndpointWebExtension.class)
				.hasSingleBean(AriadneEndpoint.class)
				.hasSingleBean(AriadneHealthIndicator.class)
				.doesNotHaveBean(AriadneManagementServer.class);
			RawHttp.Response response = ActuatorHttp.get(port(context), "/actuator/health");
			assertThat(response.statusLine()).isEqualTo("HTTP/1.1 200 OK");
			assertThat(response.header("Content-Type")).isEqualTo(V3_JSON);
			assertThat(JsonPath.<String>read(response.body(), "$.status")).isEqualTo("UP");
			assertThat(JsonPath.<List<String>>read(response.body(), "$.groups")).contains("liveness", "readiness");
		});
	}

	@Test
	void servesProbeGroups() {
		this.contextRunner.run((context) -> {
			for (String probe : List.of("/actuator/health/liveness", "/actuator/health/readiness")) {
				RawHttp.Response response = ActuatorHttp.get(port(context), probe);
				assertThat(response.statusLine()).as(probe).isEqualTo("HTTP/1.1 200 OK");
				assertThat(response.body()).as(probe).isEqualTo("{\"status\":\"UP\"}");
			}
			assertThat(ActuatorHttp.get(port(context), "/actuator/health/nonexistent").statusLine())
				.isEqualTo("HTTP/1.1 404 Not Found");
		});
	}

	@Test
	void servesHealthDetailsOfTheAriadneContributor() {
		this.contextRunner.withPropertyValues("management.endpoint.health.show-details=always").run((context) -> {
			String body = ActuatorHttp.get(port(context), "/actuator/health").body();
			assertThat(JsonPath.<String>read(body, "$.components.ariadne.status")).isEqualTo("UP");
			Map<String, Object> details = JsonPath.read(body, "$.components.ariadne.details");
			assertThat(details).containsEntry("ioModel", "event-loop")
				.containsEntry("listener", "app")
				.containsEntry("max", 200)
				.containsKeys("busy", "saturation", "queued", "queueCapacity", "openConnections", "idleConnections");
		});
	}

	@Test
	void answersServiceUnavailableWhenAContributorIsDown() {
		this.contextRunner.withUserConfiguration(DownConfiguration.class).run((context) -> {
			RawHttp.Response response = ActuatorHttp.get(port(context), "/actuator/health");
			assertThat(response.statusLine()).isEqualTo("HTTP/1.1 503 Service Unavailable");
			assertThat(JsonPath.<String>read(response.body(), "$.status")).isEqualTo("DOWN");
		});
	}

	@Test
	void servesInfo() {
		this.contextRunner.withPropertyValues("management.info.env.enabled=true", "info.app.name=ariadne-test")
			.run((context) -> {
				RawHttp.Response response = ActuatorHttp.get(port(context), "/actuator/info");
				assertThat(response.statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(response.body()).isEqualTo("{\"app\":{\"name\":\"ariadne-test\"}}");
			});
	}

	@Test
	void servesMetricsWithNamesTagsAndErrors() {
		this.contextRunner.run((context) -> {
			int port = port(context);
			RawHttp.Response names = ActuatorHttp.get(port, "/actuator/metrics");
			assertThat(names.statusLine()).isEqualTo("HTTP/1.1 200 OK");
			assertThat(JsonPath.<List<String>>read(names.body(), "$.names")).contains("jvm.memory.used",
					"ariadne.pool.saturation");
			RawHttp.Response heap = ActuatorHttp.get(port, "/actuator/metrics/jvm.memory.used?tag=area:heap");
			assertThat(heap.statusLine()).isEqualTo("HTTP/1.1 200 OK");
			assertThat(JsonPath.<String>read(heap.body(), "$.name")).isEqualTo("jvm.memory.used");
			assertThat(ActuatorHttp.get(port, "/actuator/metrics/no.such.meter").statusLine())
				.isEqualTo("HTTP/1.1 404 Not Found");
			RawHttp.Response badTag = ActuatorHttp.get(port, "/actuator/metrics/jvm.memory.used?tag=bogus");
			assertThat(badTag.statusLine()).isEqualTo("HTTP/1.1 400 Bad Request");
			assertThat(JsonPath.<String>read(badTag.body(), "$.message")).contains("key:value");
		});
	}

	@Test
	void negotiatesPrometheusTextAndOpenMetrics() {
		this.contextRunner.run((context) -> {
			int port = port(context);
			RawHttp.Response text = ActuatorHttp.get(port, "/actuator/prometheus", "text/plain");
			assertThat(text.statusLine()).isEqualTo("HTTP/1.1 200 OK");
			assertThat(text.header("Content-Type")).isEqualTo("text/plain;version=0.0.4;charset=utf-8");
			assertThat(text.body()).contains("# TYPE ariadne_pool_threads_busy gauge").doesNotContain("# EOF");
			RawHttp.Response openMetrics = ActuatorHttp.get(port, "/actuator/prometheus",
					"application/openmetrics-text;version=1.0.0;q=0.9, text/plain;q=0.5");
			assertThat(openMetrics.statusLine()).isEqualTo("HTTP/1.1 200 OK");
			assertThat(openMetrics.header("Content-Type"))
				.isEqualTo("application/openmetrics-text;version=1.0.0;charset=utf-8");
			assertThat(openMetrics.body()).endsWith("# EOF\n");
			assertThat(ActuatorHttp.get(port, "/actuator/prometheus", "application/json").statusLine())
				.isEqualTo("HTTP/1.1 406 Not Acceptable");
		});
	}

	@Test
	void servesTheAriadneEndpoint() {
		this.contextRunner.run((context) -> {
			RawHttp.Response response = ActuatorHttp.get(port(context), "/actuator/ariadne");
			assertThat(response.statusLine()).isEqualTo("HTTP/1.1 200 OK");
			assertThat(response.header("Content-Type")).isEqualTo(V3_JSON);
			String body = response.body();
			assertThat(JsonPath.<Map<String, Object>>read(body, "$.listeners")).containsOnlyKeys("app");
			assertThat(JsonPath.<String>read(body, "$.listeners.app.ioModel")).isEqualTo("event-loop");
			assertThat(JsonPath.<Integer>read(body, "$.listeners.app.port")).isEqualTo(port(context));
			assertThat(JsonPath.<Integer>read(body, "$.listeners.app.pool.max")).isEqualTo(200);
			assertThat(JsonPath.<Map<String, Object>>read(body, "$.listeners.app.connections.rejected"))
				.containsOnlyKeys("queue-full", "pool-full", "shutting-down", "websocket-sessions");
			assertThat(JsonPath.<Map<String, Object>>read(body, "$.listeners.app.errors.accept"))
				.containsOnlyKeys("descriptors", "buffers", "memory", "other")
				.containsValue(0);
			assertThat(JsonPath.<Integer>read(body, "$.listeners.app.errors.fatal")).isZero();
			assertThat(JsonPath.<String>read(body, "$.listeners.app.config.keepAlive.timeout")).isEqualTo("PT20S");
			assertThat(JsonPath.<Integer>read(body, "$.listeners.app.config.threads.max")).isEqualTo(200);
		});
	}

	@Test
	void servesTheDiagnosisOfEveryPool() {
		this.contextRunner.run((context) -> {
			int port = port(context);
			Awaits.until(() -> JsonPath.<List<Object>>read(ActuatorHttp.get(port, "/actuator/ariadne/diagnosis").body(),
					"$.pools").size() == 1);
			RawHttp.Response response = ActuatorHttp.get(port, "/actuator/ariadne/diagnosis");
			assertThat(response.statusLine()).isEqualTo("HTTP/1.1 200 OK");
			assertThat(response.header("Content-Type")).isEqualTo(V3_JSON);
			String body = response.body();
			assertThat(JsonPath.<String>read(body, "$.status")).isEqualTo("ok");
			assertThat(JsonPath.<String>read(body, "$.pools[0].listener")).isEqualTo("app");
			assertThat(JsonPath.<String>read(body, "$.pools[0].pool")).isEqualTo("default");
			assertThat(JsonPath.<String>read(body, "$.pools[0].status")).isEqualTo("ok");
			// the endpoint's own request may hold a worker of the pool it describes
			assertThat(JsonPath.<String>read(body, "$.pools[0].evidence"))
				.matches("[0-9]+ of 200 workers busy, [0-9]+ requests? waiting for a worker; [0-9]+ connections? open, .*");
			assertThat(JsonPath.<List<Object>>read(body, "$.pools[0].advice")).isEmpty();
			assertThat(JsonPath.<Map<String, Object>>read(body, "$.pools[0]")).doesNotContainKey("cause");
		});
	}

	@Test
	void servesTheHistoryAsColumns() {
		this.contextRunner.run((context) -> {
			int port = port(context);
			Awaits.until(() -> JsonPath.<List<Object>>read(ActuatorHttp.get(port, "/actuator/ariadne/history").body(),
					"$.listeners[0].times").size() >= 2);
			String body = ActuatorHttp.get(port, "/actuator/ariadne/history").body();
			assertThat(JsonPath.<Integer>read(body, "$.intervalMillis")).isEqualTo(1000);
			assertThat(JsonPath.<String>read(body, "$.listeners[0].listener")).isEqualTo("app");
			int samples = JsonPath.<List<Object>>read(body, "$.listeners[0].times").size();
			assertThat(JsonPath.<List<Object>>read(body, "$.listeners[0].connections")).hasSize(samples);
			// without HTTP/2 its columns are there, and zero
			assertThat(JsonPath.<List<Integer>>read(body, "$.listeners[0].http2Streams")).hasSize(samples).containsOnly(0);
			assertThat(JsonPath.<List<Integer>>read(body, "$.listeners[0].http2Queued")).hasSize(samples).containsOnly(0);
			assertThat(JsonPath.<String>read(body, "$.listeners[0].pools[0].pool")).isEqualTo("default");
			assertThat(JsonPath.<List<Integer>>read(body, "$.listeners[0].pools[0].max")).hasSize(samples)
				.containsOnly(200);
			assertThat(JsonPath.<List<Double>>read(body, "$.listeners[0].pools[0].saturation")).hasSize(samples);
		});
	}

	@Test
	void servesTheLivePageFromTheJarWithoutExternalResources() {
		this.contextRunner.run((context) -> {
			RawHttp.Response page = ActuatorHttp.get(port(context), "/actuator/ariadne/live",
					"text/html,application/xhtml+xml,*/*;q=0.8");
			assertThat(page.statusLine()).isEqualTo("HTTP/1.1 200 OK");
			assertThat(page.header("Content-Type")).isEqualTo("text/html;charset=UTF-8");
			assertThat(page.body()).contains("<title>Ariadne live</title>")
				.contains("fetchJson(\"diagnosis\")")
				.doesNotContainPattern("(src|href)=\"(https?:)?//");
			assertThat(ActuatorHttp.get(port(context), "/actuator/ariadne/live", "application/json").header("Content-Type"))
				.isEqualTo("text/html;charset=UTF-8");
			assertThat(ActuatorHttp.get(port(context), "/actuator/ariadne/nothing").statusLine())
				.isEqualTo("HTTP/1.1 404 Not Found");
		});
	}

	@Test
	void servesNoVerdictWhenTheDiagnosisIsOff() {
		this.contextRunner.withPropertyValues("ariadne.server.diagnosis.enabled=false").run((context) -> {
			assertThat(context.getBean(AriadneServer.class).diagnosis()).isEmpty();
			String body = ActuatorHttp.get(port(context), "/actuator/ariadne/diagnosis").body();
			assertThat(JsonPath.<String>read(body, "$.status")).isEqualTo("ok");
			assertThat(JsonPath.<List<Object>>read(body, "$.pools")).isEmpty();
		});
	}

	@Test
	void servesLinksAtTheBasePath() {
		this.contextRunner.run((context) -> {
			int port = port(context);
			RawHttp.Response response = ActuatorHttp.get(port, "/actuator");
			assertThat(response.statusLine()).isEqualTo("HTTP/1.1 200 OK");
			assertThat(JsonPath.<String>read(response.body(), "$._links.health.href"))
				.isEqualTo("http://localhost:" + port + "/actuator/health");
			assertThat(JsonPath.<Map<String, Object>>read(response.body(), "$._links")).containsKeys("self", "info",
					"metrics", "prometheus", "ariadne", "health-path");
		});
	}

	@Test
	void leavesUnknownAndUnexposedEndpointsToTheServersNotFound() {
		// the test endpoints are beans whatever the exposure: only the exposure filter hides them
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=health,ariadne,echo",
					"management.endpoints.web.exposure.exclude=ariadne,echo")
			.withUserConfiguration(TestEndpointsConfiguration.class)
			.run((context) -> {
				int port = port(context);
				assertThat(ActuatorHttp.get(port, "/actuator/health").statusLine()).isEqualTo("HTTP/1.1 200 OK");
				for (String path : List.of("/actuator/nope", "/actuator/ariadne", "/actuator/prometheus",
						"/actuator/metrics", "/actuator/env", "/actuator/echo/ada", "/actuator/segments/a",
						"/actuator/download")) {
					RawHttp.Response response = ActuatorHttp.get(port, path);
					assertThat(response.statusLine()).as(path).isEqualTo("HTTP/1.1 404 Not Found");
					assertThat(response.body()).as(path).isEqualTo("Not Found");
				}
			});
	}

	@Test
	void honoursBasePathAndPathMapping() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.base-path=/manage",
					"management.endpoints.web.path-mapping.health=healthz")
			.run((context) -> {
				int port = port(context);
				assertThat(ActuatorHttp.get(port, "/manage/healthz").statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(ActuatorHttp.get(port, "/manage/healthz/readiness").statusLine())
					.isEqualTo("HTTP/1.1 200 OK");
				assertThat(ActuatorHttp.get(port, "/manage").statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(ActuatorHttp.get(port, "/actuator/health").statusLine())
					.isEqualTo("HTTP/1.1 404 Not Found");
				assertThat(ActuatorHttp.get(port, "/manage/health").statusLine()).isEqualTo("HTTP/1.1 404 Not Found");
			});
	}

	@Test
	void servesAdditionalProbePathsOnTheApplicationListener() {
		this.contextRunner.withPropertyValues("management.endpoint.health.probes.add-additional-paths=true")
			.run((context) -> {
				RawHttp.Response livez = ActuatorHttp.get(port(context), "/livez");
				assertThat(livez.statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(livez.body()).isEqualTo("{\"status\":\"UP\"}");
				assertThat(ActuatorHttp.get(port(context), "/readyz").statusLine()).isEqualTo("HTTP/1.1 200 OK");
			});
	}

	@Test
	void answersMethodNotAllowedForAReadOnlyPath() {
		this.contextRunner.run((context) -> {
			RawHttp.Response response = ActuatorHttp.request(port(context), "POST", "/actuator/health", null,
					"application/json", "{}");
			assertThat(response.statusLine()).isEqualTo("HTTP/1.1 405 Method Not Allowed");
		});
	}

	@Test
	void passesSelectorsBodiesAndRemainingSegmentsToOperations() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=echo,segments")
			.withUserConfiguration(TestEndpointsConfiguration.class)
			.run((context) -> {
				int port = port(context);
				RawHttp.Response read = ActuatorHttp.get(port, "/actuator/echo/ada?tag=a&tag=b");
				assertThat(read.statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(read.body()).isEqualTo("{\"name\":\"ada\",\"tags\":[\"a\",\"b\"]}");
				RawHttp.Response write = ActuatorHttp.request(port, "POST", "/actuator/echo/ada", null,
						"application/json", "{\"message\":\"hi\",\"count\":3}");
				assertThat(write.statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(write.body()).isEqualTo("{\"name\":\"ada\",\"message\":\"hi\",\"count\":3}");
				RawHttp.Response missing = ActuatorHttp.request(port, "POST", "/actuator/echo/ada", null,
						"application/json", "{\"count\":3}");
				assertThat(missing.statusLine()).isEqualTo("HTTP/1.1 400 Bad Request");
				RawHttp.Response notJson = ActuatorHttp.request(port, "POST", "/actuator/echo/ada", null,
						"application/json", "{message");
				assertThat(notJson.statusLine()).isEqualTo("HTTP/1.1 400 Bad Request");
				RawHttp.Response wrongType = ActuatorHttp.request(port, "POST", "/actuator/echo/ada", null,
						"text/plain", "message=hi");
				assertThat(wrongType.statusLine()).isEqualTo("HTTP/1.1 415 Unsupported Media Type");
				RawHttp.Response delete = ActuatorHttp.request(port, "DELETE", "/actuator/echo/ada", null, null,
						null);
				assertThat(delete.statusLine()).isEqualTo("HTTP/1.1 204 No Content");
				RawHttp.Response segments = ActuatorHttp.get(port, "/actuator/segments/a/b%2Fc/d%20e/");
				assertThat(segments.body()).isEqualTo("[\"a\",\"b/c\",\"d e\"]");
				assertThat(ActuatorHttp.get(port, "/actuator/echo/nobody").statusLine())
					.isEqualTo("HTTP/1.1 404 Not Found");
			});
	}

	@Test
	void servesOnlyReadOperationsWithReadOnlyAccess() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=echo",
					"management.endpoints.access.default=READ_ONLY")
			.withUserConfiguration(TestEndpointsConfiguration.class)
			.run((context) -> {
				int port = port(context);
				assertThat(ActuatorHttp.get(port, "/actuator/echo/ada").statusLine()).isEqualTo("HTTP/1.1 200 OK");
				RawHttp.Response write = ActuatorHttp.request(port, "POST", "/actuator/echo/ada", null,
						"application/json", "{\"message\":\"hi\",\"count\":3}");
				assertThat(write.statusLine()).isEqualTo("HTTP/1.1 405 Method Not Allowed");
			});
	}

	@Test
	void servesNoLinksWhenDiscoveryIsOff() {
		this.contextRunner.withPropertyValues("management.endpoints.web.discovery.enabled=false").run((context) -> {
			assertThat(ActuatorHttp.get(port(context), "/actuator").statusLine()).isEqualTo("HTTP/1.1 404 Not Found");
			assertThat(ActuatorHttp.get(port(context), "/actuator/health").statusLine()).isEqualTo("HTTP/1.1 200 OK");
		});
	}

	@Test
	void streamsResourcesAndWritesTextAsIs() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=download")
			.withUserConfiguration(TestEndpointsConfiguration.class)
			.run((context) -> {
				RawHttp.Response resource = ActuatorHttp.get(port(context), "/actuator/download");
				assertThat(resource.statusLine()).isEqualTo("HTTP/1.1 200 OK");
				assertThat(resource.header("Content-Type")).isEqualTo("application/octet-stream");
				assertThat(resource.header("Transfer-Encoding")).isEqualTo("chunked");
				assertThat(resource.body()).contains("resource bytes");
				RawHttp.Response text = ActuatorHttp.get(port(context), "/actuator/download/greeting");
				assertThat(text.header("Content-Type")).isEqualTo("text/plain;charset=UTF-8");
				assertThat(text.body()).isEqualTo("h\u00e9llo");
			});
	}

	@Test
	void servesEndpointsBesideApplicationRoutes() {
		this.contextRunner.withBean("helloRoute", Route.class, () -> Route.get("/", (request, response) -> response.send("hello")))
			.run((context) -> {
				assertThat(ActuatorHttp.get(port(context), "/").body()).isEqualTo("hello");
				assertThat(ActuatorHttp.get(port(context), "/actuator/health").statusLine())
					.isEqualTo("HTTP/1.1 200 OK");
			});
	}

	@Test
	void writesJsonWithoutNullsWhenTheIsolatedMapperIsOff() {
		this.contextRunner.withPropertyValues("management.endpoints.jackson.isolated-json-mapper=false")
			.withPropertyValues("management.endpoints.web.exposure.include=ariadne")
			.run((context) -> {
				String body = ActuatorHttp.get(port(context), "/actuator/ariadne").body();
				assertThat(JsonPath.<Map<String, Object>>read(body, "$.listeners.app")).doesNotContainKey("routePools");
				assertThat(JsonPath.<Map<String, Object>>read(body, "$.listeners.app.config"))
					.doesNotContainKey("address");
			});
	}

	@Test
	void servesNoEndpointOverHttpWhenManagementPortIsNegative() {
		this.contextRunner.withPropertyValues("management.server.port=-1").run((context) -> {
			assertThat(context).doesNotHaveBean(AriadneManagementServer.class);
			assertThat(ActuatorHttp.get(port(context), "/actuator/health").statusLine())
				.isEqualTo("HTTP/1.1 404 Not Found");
		});
	}

	@Test
	void leavesTheServerAloneWithoutActuator() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(WebEndpointDiscoverer.class))
			.withBean("helloRoute", Route.class, () -> Route.get("/", (request, response) -> response.send("hello")))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(AriadneServer.class)
					.doesNotHaveBean(WebEndpointsSupplier.class)
					.doesNotHaveBean(ActuatorRouteFactory.class)
					.doesNotHaveBean(HealthEndpointWebExtension.class)
					.doesNotHaveBean(AriadneManagementServer.class);
				assertThat(ActuatorHttp.get(port(context), "/").body()).isEqualTo("hello");
				assertThat(ActuatorHttp.get(port(context), "/actuator/health").statusLine())
					.isEqualTo("HTTP/1.1 404 Not Found");
			});
	}

	private static int port(AssertableApplicationContext context) {
		return context.getBean(AriadneServer.class).port();
	}

	@Configuration(proxyBeanMethods = false)
	static class DownConfiguration {

		@Bean
		HealthIndicator brokenHealthIndicator() {
			return () -> Health.down().withDetail("reason", "test").build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TestEndpointsConfiguration {

		@Bean
		EchoEndpoint echoEndpoint() {
			return new EchoEndpoint();
		}

		@Bean
		SegmentsEndpoint segmentsEndpoint() {
			return new SegmentsEndpoint();
		}

		@Bean
		DownloadEndpoint downloadEndpoint() {
			return new DownloadEndpoint();
		}

	}

	@Endpoint(id = "echo")
	static class EchoEndpoint {

		@ReadOperation
		public @Nullable Map<String, Object> read(@Selector String name, @Nullable List<String> tag) {
			if ("nobody".equals(name)) {
				return null;
			}
			Map<String, Object> result = new LinkedHashMap<>();
			result.put("name", name);
			result.put("tags", tag);
			return result;
		}

		@WriteOperation
		public Map<String, Object> write(@Selector String name, String message, int count) {
			Map<String, Object> result = new LinkedHashMap<>();
			result.put("name", name);
			result.put("message", message);
			result.put("count", count);
			return result;
		}

		@DeleteOperation
		public void delete(@Selector String name) {
		}

	}

	@Endpoint(id = "segments")
	static class SegmentsEndpoint {

		@ReadOperation
		public String[] read(@Selector(match = Match.ALL_REMAINING) String[] path) {
			return path;
		}

	}

	@Endpoint(id = "download")
	static class DownloadEndpoint {

		@ReadOperation(produces = "application/octet-stream")
		public Resource read() {
			return new ByteArrayResource("resource bytes".getBytes(StandardCharsets.UTF_8));
		}

		@ReadOperation(produces = "text/plain;charset=UTF-8")
		public String text(@Selector String name) {
			return "h\u00e9llo";
		}

	}

}
