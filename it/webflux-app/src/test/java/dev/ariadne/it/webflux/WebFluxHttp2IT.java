package dev.ariadne.it.webflux;

import java.net.URI;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.ariadne.server.IoModel;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A WebFlux application on the native adapter with Boot's {@code server.http2.enabled=true}, in
 * every model, against Jetty's HTTP/2 client with prior knowledge (h2c): an annotated and a
 * functional endpoint answer over streams, a streamed request body larger than the windows is
 * echoed back, and Spring's own request meter says 200 and SUCCESS for them.
 */
class WebFluxHttp2IT {

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void answersOverStreamsWithTheBodyStreamedBothWays(IoModel model) throws Exception {
		assumeTrue(model != IoModel.VIRTUAL_THREADS || Runtime.version().feature() >= 21);
		HTTP2Client http2 = new HTTP2Client();
		http2.setInitialSessionRecvWindow(65535);
		http2.setInitialStreamRecvWindow(65535);
		HttpClient client = new HttpClient(new HttpClientTransportOverHTTP2(http2));
		client.start();
		try (ConfigurableApplicationContext context = SpringApplication.run(WebFluxApplication.class,
				"--server.port=0", "--server.address=127.0.0.1", "--server.http2.enabled=true",
				"--ariadne.server.io-model=" + model.value(), "--management.server.port=0",
				"--management.server.address=127.0.0.1", "--management.endpoints.web.exposure.include=prometheus",
				"--spring.main.banner-mode=off")) {
			int port = context.getEnvironment().getProperty("local.server.port", Integer.class);
			ContentResponse hello = client.newRequest(uri(port, "/hello/Ada")).timeout(30, TimeUnit.SECONDS).send();
			assertThat(hello.getVersion()).isEqualTo(HttpVersion.HTTP_2);
			assertThat(hello.getStatus()).isEqualTo(200);
			assertThat(hello.getContentAsString()).isEqualTo("{\"hello\":\"Ada\"}");
			ContentResponse item = client.newRequest(uri(port, "/items/42")).timeout(30, TimeUnit.SECONDS).send();
			assertThat(item.getContentAsString()).isEqualTo("item 42");
			byte[] body = new byte[1 << 20];
			new Random(3).nextBytes(body);
			ContentResponse echoed = client.POST(uri(port, "/echo"))
				.body(new BytesRequestContent("application/octet-stream", body))
				.timeout(30, TimeUnit.SECONDS)
				.send();
			assertThat(echoed.getStatus()).isEqualTo(200);
			assertThat(echoed.getContent()).isEqualTo(body);
			int managementPort = context.getEnvironment().getProperty("local.management.port", Integer.class);
			String scrape = java.net.http.HttpClient.newHttpClient()
				.send(java.net.http.HttpRequest.newBuilder(uri(managementPort, "/actuator/prometheus")).build(),
						java.net.http.HttpResponse.BodyHandlers.ofString())
				.body();
			assertThat(scrape).containsPattern(
					"http_server_requests_seconds_count\\{[^}]*outcome=\"SUCCESS\"[^}]*status=\"200\"[^}]*uri=\"/hello/\\{name\\}\"\\} 1");
		}
		finally {
			client.stop();
		}
	}

	private static URI uri(int port, String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}

}
