package dev.ariadne.it.fluxbehaviour;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.web.AriadneWebServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a WebFlux application behaves on Ariadne, against Reactor Netty where it differs: a
 * handler blocking its thread stalls only its own requests when the light route runs in a route
 * pool of its own (on Reactor Netty the same blocking call stalls every connection of its
 * event loop); a slow reader of a large server-sent event stream costs bounded memory (this
 * module's test JVM runs with a heap smaller than the stream); a handler's {@code WebClient}
 * call works.
 */
class WebFluxBehaviourIT {

	private static final String[] ARIADNE = { "--server.port=0", "--ariadne.server.threads.max=4",
			"--ariadne.server.pools.light.threads=2", "--ariadne.server.routes.[/light].pool=light" };

	private static final String[] REACTOR_NETTY = { "--server.port=0",
			"--spring.autoconfigure.exclude=dev.ariadne.autoconfigure.web.AriadneReactiveWebServerAutoConfiguration" };

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@Test
	void aBlockingHandlerDoesNotDelayARouteInItsOwnPool() throws Exception {
		try (ConfigurableApplicationContext context = SpringApplication.run(BehaviourApplication.class, ARIADNE)) {
			WebServer server = ((WebServerApplicationContext) context).getWebServer();
			AriadneServer ariadne = ((AriadneWebServer) server).getServer();
			List<CompletableFuture<HttpResponse<String>>> blocked = blockFourTimes(server.getPort());
			long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
			while (ariadne.stats().pool().busyWorkers() < 4 && System.nanoTime() < deadline) {
				Thread.onSpinWait();
			}
			assertThat(ariadne.stats().pool().busyWorkers()).as("workers blocked").isEqualTo(4);
			long took = timeLight(server.getPort());
			System.out.println("Ariadne: /light answered in " + took + " ms while 4 handlers blocked");
			assertThat(took).as("ms for /light while 4 handlers block").isLessThan(500);
			for (CompletableFuture<HttpResponse<String>> response : blocked) {
				assertThat(response.get().body()).isEqualTo("blocked");
			}
		}
	}

	@Test
	void onReactorNettyTheSameBlockingHandlerStallsTheLightRoute() throws Exception {
		try (ConfigurableApplicationContext context = SpringApplication.run(BehaviourApplication.class,
				REACTOR_NETTY)) {
			WebServer server = ((WebServerApplicationContext) context).getWebServer();
			assertThat(server.getClass().getSimpleName()).isEqualTo("NettyWebServer");
			List<CompletableFuture<HttpResponse<String>>> blocked = blockFourTimes(server.getPort());
			Thread.sleep(200);
			long took = timeLight(server.getPort());
			System.out.println("Reactor Netty: /light answered in " + took + " ms while 4 handlers blocked");
			assertThat(took).as("ms for /light while 4 handlers block Reactor Netty's event loops")
				.isGreaterThanOrEqualTo(500);
			for (CompletableFuture<HttpResponse<String>> response : blocked) {
				response.get();
			}
		}
	}

	@Test
	void streamsServerSentEventsToASlowReaderWithBoundedMemoryAndCallsOtherServices() throws Exception {
		try (ConfigurableApplicationContext context = SpringApplication.run(BehaviourApplication.class, ARIADNE)) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			assertThat(get(port, "/proxy").body()).isEqualTo("proxied light");
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/events")).build();
			HttpResponse<InputStream> response = this.client.send(request, HttpResponse.BodyHandlers.ofInputStream());
			assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
					(type) -> assertThat(type).startsWith("text/event-stream"));
			int events = 0;
			long dataBytes = 0;
			try (BufferedReader reader = new BufferedReader(
					new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = reader.readLine()) != null) {
					if (line.startsWith("id:")) {
						assertThat(line.substring(3).trim()).isEqualTo(Integer.toString(events));
						events++;
						if (events % 100 == 0) {
							// a slow reader: the server must hold the stream back, not buffer it
							Thread.sleep(50);
						}
					}
					else if (line.startsWith("data:")) {
						dataBytes += line.length() - 5;
					}
				}
			}
			assertThat(events).isEqualTo(1000);
			assertThat(dataBytes).isEqualTo(1000L * BehaviourApplication.EVENT_SIZE);
			assertThat(dataBytes).as("stream larger than this JVM's heap")
				.isGreaterThan(Runtime.getRuntime().maxMemory());
		}
	}

	private List<CompletableFuture<HttpResponse<String>>> blockFourTimes(int port) {
		List<CompletableFuture<HttpResponse<String>>> blocked = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/block")).build();
			blocked.add(HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.build()
				.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
		}
		return blocked;
	}

	private long timeLight(int port) throws Exception {
		HttpClient fresh = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/light")).build();
		long start = System.nanoTime();
		HttpResponse<String> response = fresh.send(request, HttpResponse.BodyHandlers.ofString());
		long took = (System.nanoTime() - start) / 1_000_000;
		assertThat(response.body()).isEqualTo("light");
		return took;
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
