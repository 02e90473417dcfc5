package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.ariadne.Await;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.stats.PoolStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an operator relies on, in every I/O model, each test with an application of its own:
 * Actuator on the management port answers while every application worker is held by a slow
 * request, and a graceful shutdown refuses new connections but lets the request in flight
 * finish with its answer.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class LifecycleIT {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private final IoModel model;

	LifecycleIT(IoModel model) {
		this.model = model;
	}

	@Test
	void servesAgainWhenItsWebServerIsStartedAfterAStop() throws Exception {
		try (ConformanceApp app = ConformanceApp.start(this.model)) {
			WebServer server = ((WebServerApplicationContext) app.context()).getWebServer();
			assertThat(versioned(server.getPort())).isEqualTo("version 7");
			server.stop();
			assertThat(server.getPort()).as("port once stopped").isEqualTo(-1);
			server.start();
			assertThat(server.getPort()).as("port once started again").isPositive();
			assertThat(versioned(server.getPort())).isEqualTo("version 7");
			server.stop();
			server.start();
			assertThat(versioned(server.getPort())).as("a second restart").isEqualTo("version 7");
		}
	}

	private static String versioned(int port) throws IOException, InterruptedException {
		HttpResponse<String> response = ConformanceApp.client()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + ConformanceApp.CONTEXT_PATH
					+ "/api/versioned")).timeout(DEADLINE).build(), BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

	@Test
	void servesActuatorOnTheManagementPortWhileTheApplicationPoolIsStarved() throws Exception {
		try (ConformanceApp app = ConformanceApp.start(this.model, "ariadne.server.threads.max=4")) {
			Gate gate = app.bean(Gate.class);
			HttpClient client = ConformanceApp.client();
			List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
			try {
				for (int i = 0; i < 5; i++) {
					slow.add(client.sendAsync(app.request("/api/slow").build(), BodyHandlers.ofString()));
				}
				PoolStats pool = app.server().stats().pool();
				Await.until(DEADLINE, () -> gate.waiting() == 4 && pool.busyWorkers() == 4 && pool.queued() == 1,
						() -> "at the gate " + gate.waiting() + ", busy " + pool.busyWorkers() + ", queued "
								+ pool.queued());

				HttpResponse<String> health = app.management("/actuator/health");
				assertThat(health.statusCode()).isEqualTo(200);
				assertThat(health.body()).contains("\"status\":\"UP\"");
				HttpResponse<String> scrape = app.management("/actuator/prometheus");
				assertThat(scrape.statusCode()).isEqualTo(200);
				assertThat(scrape.body())
					.contains("ariadne_pool_threads_busy{listener=\"app\",pool=\"default\"} 4.0")
					.contains("ariadne_pool_threads_max{listener=\"app\",pool=\"default\"} 4.0")
					.contains("ariadne_pool_queue_size{listener=\"app\",pool=\"default\"} 1.0")
					.contains("ariadne_pool_saturation{listener=\"app\",pool=\"default\"} 1.0");
				assertThat(slow).allSatisfy((response) -> assertThat(response).isNotDone());
			}
			finally {
				gate.open();
			}
			for (CompletableFuture<HttpResponse<String>> response : slow) {
				HttpResponse<String> released = response.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
				assertThat(released.statusCode()).isEqualTo(200);
				assertThat(released.body()).isEqualTo("released");
			}
		}
	}

	@Test
	void finishesTheRequestInFlightAndRefusesNewConnectionsOnGracefulShutdown() throws Exception {
		ConformanceApp app = ConformanceApp.start(this.model);
		Gate gate = app.bean(Gate.class);
		int port = app.port();
		CompletableFuture<HttpResponse<String>> inFlight = ConformanceApp.client()
			.sendAsync(app.request("/api/slow").build(), BodyHandlers.ofString());
		CompletableFuture<Void> closing = null;
		try {
			Await.until(DEADLINE, () -> gate.waiting() == 1, () -> "at the gate " + gate.waiting());
			closing = CompletableFuture.runAsync(app::close);
			Await.until(DEADLINE, () -> refuses(port), () -> "port " + port + " still accepts connections");
			assertThat(inFlight).as("the request in flight, still held").isNotDone();
			assertThat(closing).as("the shutdown, waiting for the request in flight").isNotDone();
		}
		finally {
			gate.open();
		}
		HttpResponse<String> answer = inFlight.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(answer.body()).isEqualTo("released");
		closing.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
		assertThat(app.context().isActive()).isFalse();
	}

	private static boolean refuses(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
			return false;
		}
		catch (ConnectException ex) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
