package dev.ariadne.it.newuser;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.ariadne.autoconfigure.web.AriadneWebServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The new user of the Spring MVC issue: Spring MVC (with its Tomcat), Actuator and the
 * Prometheus registry, one controller, and the starter added. It starts on Ariadne, answers
 * through its controller, and serves Ariadne's meters on the management port.
 */
class NewUserApplicationIT {

	private final HttpClient client = HttpClient.newHttpClient();

	@Test
	void startsOnAriadneWithNothingButTheStarterAdded() throws Exception {
		try (ConfigurableApplicationContext context = SpringApplication.run(NewUserApplication.class,
				"--server.port=0", "--management.server.port=0",
				"--management.endpoints.web.exposure.include=health,prometheus")) {
			WebServerApplicationContext web = (WebServerApplicationContext) context;
			assertThat(web.getWebServer()).isInstanceOf(AriadneWebServer.class);
			int port = web.getWebServer().getPort();
			HttpResponse<String> greeting = get(port, "/greeting/Ada");
			assertThat(greeting.statusCode()).isEqualTo(200);
			assertThat(greeting.headers().firstValue("Content-Type")).hasValueSatisfying(
					(type) -> assertThat(type).startsWith("application/json"));
			assertThat(greeting.body()).isEqualTo("{\"greeting\":\"Hello, Ada!\"}");
			int managementPort = context.getEnvironment().getProperty("local.management.port", Integer.class);
			assertThat(managementPort).isNotEqualTo(port);
			HttpResponse<String> scrape = get(managementPort, "/actuator/prometheus");
			assertThat(scrape.statusCode()).isEqualTo(200);
			assertThat(scrape.body()).contains("ariadne_pool_saturation{listener=\"app\",pool=\"default\"}")
				.contains("ariadne_pool_saturation{listener=\"management\",pool=\"default\"}");
			assertThat(get(port, "/actuator/prometheus").statusCode()).isEqualTo(404);
		}
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
