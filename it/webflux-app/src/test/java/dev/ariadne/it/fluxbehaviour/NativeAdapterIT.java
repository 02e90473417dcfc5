package dev.ariadne.it.fluxbehaviour;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.web.AriadneWebServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How Ariadne serves a WebFlux {@code HttpHandler}: natively on its exchange by default, or
 * through Spring's servlet adapter with {@code ariadne.server.webflux.adapter=servlet}. Either
 * way handlers run on Ariadne's workers, and a pending {@code Mono} holds its connection but no
 * worker: two workers answer forty requests that each wait a second on a timer in about a
 * second, not twenty.
 */
class NativeAdapterIT {

	private static final int REQUESTS = 40;

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@ParameterizedTest
	@ValueSource(strings = { "event-loop/native", "virtual-threads/native", "blocking/native",
			"event-loop/servlet", "virtual-threads/servlet" })
	void pendingMonosHoldNoWorkerAndHandlersRunOnWorkers(String setup) throws Exception {
		String model = setup.substring(0, setup.indexOf('/'));
		String adapter = setup.substring(setup.indexOf('/') + 1);
		int workers = model.equals("blocking") ? REQUESTS : 2;
		String[] args = { "--server.port=0", "--ariadne.server.io-model=" + model,
				"--ariadne.server.threads.max=" + workers, "--ariadne.server.webflux.adapter=" + adapter,
				"--server.server-header=Labyrinth/1.0" };
		try (ConfigurableApplicationContext context = SpringApplication.run(BehaviourApplication.class, args)) {
			AriadneWebServer server = (AriadneWebServer) ((WebServerApplicationContext) context).getWebServer();
			AriadneServer ariadne = server.getServer();
			int port = server.getPort();

			HttpResponse<String> whereResponse = get(port, "/where").join();
			assertThat(whereResponse.headers().firstValue("Server")).as("server.server-header")
				.hasValue("Labyrinth/1.0");
			String where = whereResponse.body();
			assertThat(where).as("the thread that ran the handler, and the request under the exchange")
				.doesNotContain("selector");
			if (model.equals("event-loop")) {
				assertThat(where).startsWith("ariadne-app-worker");
			}
			assertThat(where).contains(adapter.equals("native") ? "dev.ariadne.server" : "dev.ariadne.servlet");

			long start = System.nanoTime();
			List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
			for (int i = 0; i < REQUESTS; i++) {
				pending.add(get(port, "/later"));
			}
			int busySeen = 0;
			while (!pending.stream().allMatch(CompletableFuture::isDone)
					&& System.nanoTime() - start < Duration.ofSeconds(30).toNanos()) {
				long elapsed = Duration.ofNanos(System.nanoTime() - start).toMillis();
				if (elapsed > 400 && elapsed < 800) {
					// every request has reached its handler by now, and none has its answer yet
					busySeen = Math.max(busySeen, ariadne.stats().pool().busyWorkers());
				}
				Thread.sleep(20);
			}
			long took = Duration.ofNanos(System.nanoTime() - start).toMillis();
			for (CompletableFuture<HttpResponse<String>> response : pending) {
				assertThat(response.join().body()).isEqualTo("later");
			}
			System.out.println(setup + ": " + REQUESTS + " requests pending a second each answered in " + took
					+ " ms by " + workers + " workers; most busy seen " + busySeen);
			assertThat(took).as("ms for %d requests that each wait a second on a timer, with %d workers", REQUESTS,
					workers)
				.isLessThan(5000);
			if (!model.equals("blocking")) {
				// held workers would take 20 s for the 40
				assertThat(busySeen).as("workers busy while the requests wait on a timer").isLessThanOrEqualTo(1);
			}
		}
	}

	private CompletableFuture<HttpResponse<String>> get(int port, String path) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.build();
		return this.client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
	}

}
