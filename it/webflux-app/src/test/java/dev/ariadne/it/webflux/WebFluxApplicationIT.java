package dev.ariadne.it.webflux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.ariadne.autoconfigure.web.AriadneWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux team adds the starter: WebFlux with its Reactor Netty, Actuator and the Prometheus
 * registry, an annotated controller and a functional route. It starts on Ariadne, answers both
 * kinds of endpoint, and serves Ariadne's meters on the management port, tagged with the
 * routes' patterns.
 */
class WebFluxApplicationIT {

	private final HttpClient client = HttpClient.newHttpClient();

	@Test
	void startsOnAriadneWithNothingButTheStarterAdded() throws Exception {
		try (ConfigurableApplicationContext context = SpringApplication.run(WebFluxApplication.class,
				"--server.port=0", "--management.server.port=0",
				"--management.endpoints.web.exposure.include=health,prometheus,ariadne")) {
			WebServerApplicationContext web = (WebServerApplicationContext) context;
			assertThat(web.getWebServer()).isInstanceOf(AriadneWebServer.class);
			int port = web.getWebServer().getPort();
			HttpResponse<String> hello = get(port, "/hello/Ada");
			assertThat(hello.statusCode()).isEqualTo(200);
			assertThat(hello.body()).isEqualTo("{\"hello\":\"Ada\"}");
			HttpResponse<String> item = get(port, "/items/42");
			assertThat(item.statusCode()).isEqualTo(200);
			assertThat(item.body()).isEqualTo("item 42");
			assertThat(get(port, "/missing").statusCode()).isEqualTo(404);
			int managementPort = context.getEnvironment().getProperty("local.management.port", Integer.class);
			assertThat(managementPort).isNotEqualTo(port);
			HttpResponse<String> scrape = get(managementPort, "/actuator/prometheus");
			assertThat(scrape.statusCode()).isEqualTo(200);
			assertThat(scrape.body()).contains("ariadne_pool_saturation{listener=\"app\",pool=\"default\"}")
				.contains("ariadne_pool_saturation{listener=\"management\",pool=\"default\"}")
				.containsPattern("ariadne_requests_seconds_count\\{[^}]*listener=\"app\"[^}]*route=\"/hello/\\{name\\}\"")
				.containsPattern("ariadne_requests_seconds_count\\{[^}]*listener=\"app\"[^}]*route=\"/items/\\{id\\}\"");
			HttpResponse<String> diagnosis = get(managementPort, "/actuator/ariadne/diagnosis");
			assertThat(diagnosis.statusCode()).isEqualTo(200);
			assertThat(diagnosis.body()).contains("\"listener\":\"app\"");
			assertThat(get(port, "/actuator/prometheus").statusCode()).isEqualTo(404);
		}
	}

	@Test
	void keepsAnAccessLogWithTheRoutesPatternsOnTheNativeAdapter(@TempDir Path directory) throws Exception {
		String pattern = "%r|%s|%{route}x|%{pool}x|%{model}x|%{listener}x";
		try (ConfigurableApplicationContext context = SpringApplication.run(WebFluxApplication.class,
				"--server.port=0", "--management.server.port=0", "--management.endpoints.web.exposure.include=prometheus",
				"--ariadne.server.accesslog.enabled=true", "--ariadne.server.accesslog.pattern=" + pattern,
				"--ariadne.server.accesslog.directory=" + directory, "--ariadne.server.accesslog.rotate=false")) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			assertThat(get(port, "/hello/Ada").statusCode()).isEqualTo(200);
			assertThat(get(port, "/items/42").statusCode()).isEqualTo(200);
			int managementPort = context.getEnvironment().getProperty("local.management.port", Integer.class);
			assertThat(get(managementPort, "/actuator/prometheus").body())
				.contains("ariadne_accesslog_dropped_total{listener=\"app\"} 0.0")
				.contains("ariadne_accesslog_dropped_total{listener=\"management\"} 0.0");
		}
		assertThat(Files.readAllLines(directory.resolve("access_log.log"))).containsExactly(
				"GET /hello/Ada HTTP/1.1|200|/hello/{name}|default|event-loop|app",
				"GET /items/42 HTTP/1.1|200|/items/{id}|default|event-loop|app");
		assertThat(Files.readAllLines(directory.resolve("management_access_log.log")))
			.containsExactly("GET /actuator/prometheus HTTP/1.1|200|/actuator/prometheus|default|event-loop|management");
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
