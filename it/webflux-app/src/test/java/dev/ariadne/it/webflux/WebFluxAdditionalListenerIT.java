package dev.ariadne.it.webflux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.ariadne.Await;
import dev.ariadne.autoconfigure.AriadneServers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux application with an additional listener ({@code ariadne.server.additional-listeners}),
 * with either adapter: the controller and the functional route answer on both ports, and the
 * additional listener's meters carry its name.
 */
class WebFluxAdditionalListenerIT {

	private final HttpClient client = HttpClient.newHttpClient();

	@ParameterizedTest(name = "webflux.adapter={0}")
	@ValueSource(strings = { "native", "servlet" })
	void servesTheHandlerOnTheAdditionalListenerWithItsOwnMeters(String adapter) throws Exception {
		try (ConfigurableApplicationContext context = SpringApplication.run(WebFluxApplication.class,
				"--server.port=0", "--server.address=127.0.0.1", "--management.server.port=0",
				"--management.endpoints.web.exposure.include=prometheus", "--ariadne.server.webflux.adapter=" + adapter,
				"--ariadne.server.additional-listeners[0].port=0", "--ariadne.server.additional-listeners[0].name=second")) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			int second = context.getBean(AriadneServers.class).find("second").port();
			assertThat(second).isNotEqualTo(port);
			for (int listener : new int[] { port, second }) {
				assertThat(get(listener, "/hello/Ada").body()).isEqualTo("{\"hello\":\"Ada\"}");
				assertThat(get(listener, "/items/42").body()).isEqualTo("item 42");
			}
			int managementPort = context.getEnvironment().getProperty("local.management.port", Integer.class);
			Await.until(() -> scrape(managementPort).contains("listener=\"second\",method=\"GET\",outcome=\"SUCCESS\","
					+ "refusal=\"none\",route=\"/items/{id}\",status=\"200\"} 1"),
					() -> "the second listener's exchange on /actuator/prometheus");
			assertThat(scrape(managementPort))
				.contains("ariadne_pool_saturation{listener=\"second\",pool=\"default\"}")
				.contains("ariadne_pool_saturation{listener=\"app\",pool=\"default\"}");
		}
	}

	private String scrape(int managementPort) {
		try {
			return get(managementPort, "/actuator/prometheus").body();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build();
		HttpResponse<String> response = this.client.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(path).isEqualTo(200);
		return response;
	}

}
