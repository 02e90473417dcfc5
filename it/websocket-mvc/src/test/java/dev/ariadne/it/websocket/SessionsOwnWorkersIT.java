package dev.ariadne.it.websocket;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.ariadne.JdkWebSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.Await;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.diagnosis.Cause;
import dev.ariadne.server.diagnosis.Diagnosis;
import dev.ariadne.server.stats.PoolStats;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an open WebSocket session costs each model, seen through {@code ServerStats}: in
 * {@code blocking} with 4 workers, 4 idle sessions own the 4 workers and a plain request waits
 * in the queue until one session closes, and the diagnosis names the sessions as the cause; in {@code event-loop} with 4 workers, 200 idle sessions
 * hold none, and a plain request is answered at once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SessionsOwnWorkersIT {

	@Test
	void inBlockingFourIdleSessionsOwnFourWorkersAndAPlainRequestWaits() throws Exception {
		try (WebSocketApp app = WebSocketApp.start(IoModel.BLOCKING, "--ariadne.server.threads.max=4",
				"--ariadne.server.threads.min=4")) {
			List<JdkWebSocket> sessions = new ArrayList<>();
			try {
				for (int i = 0; i < 4; i++) {
					JdkWebSocket session = JdkWebSocket.open(app.ws("/echo"));
					assertThat(session.send("open " + i).nextText()).isEqualTo("open " + i);
					sessions.add(session);
				}
				PoolStats pool = app.server().stats().pool();
				Await.until(() -> pool.busyWorkers() == 4, () -> "busy " + pool.busyWorkers());
				CompletableFuture<HttpResponse<String>> plain = HttpClient.newHttpClient()
					.sendAsync(HttpRequest.newBuilder(app.http("/hello")).build(), HttpResponse.BodyHandlers.ofString());
				Await.until(() -> pool.queued() == 1, () -> "queued " + pool.queued());
				assertThat(pool.busyWorkers()).as("the sessions hold the workers").isEqualTo(4);
				assertThat(app.server().stats().webSocketSessions()).isEqualTo(4);
				Diagnosis diagnosis = app.server().diagnosis().orElseThrow();
				Await.until(Duration.ofSeconds(10), () -> diagnosis.verdict("default")
					.filter((verdict) -> verdict.cause() == Cause.WEBSOCKET_SESSIONS)
					.isPresent(), () -> "verdict " + diagnosis.verdict("default").orElse(null));
				assertThat(diagnosis.verdict("default").orElseThrow().evidence())
					.startsWith("4 of 4 workers held by 4 WebSocket sessions, each until it closes (sampled: 4 waiting "
							+ "for their clients' next message); 1 connection waiting for a worker");
				assertThat(plain).as("the plain request, while the sessions are open").isNotDone();
				sessions.remove(0).close();
				assertThat(plain.get(20, TimeUnit.SECONDS).body()).isEqualTo("hello");
			}
			finally {
				sessions.forEach(JdkWebSocket::close);
			}
		}
	}

	@Test
	void inTheEventLoopIdleSessionsHoldNoWorkerAndAPlainRequestIsAnsweredAtOnce() throws Exception {
		try (WebSocketApp app = WebSocketApp.start(IoModel.EVENT_LOOP, "--ariadne.server.threads.max=4")) {
			List<JdkWebSocket> sessions = new ArrayList<>();
			HttpClient shared = HttpClient.newHttpClient();
			try {
				for (int i = 0; i < 200; i++) {
					JdkWebSocket session = JdkWebSocket.open(shared, app.ws("/echo"), java.util.Map.of());
					sessions.add(session);
				}
				assertThat(sessions.get(199).send("last").nextText()).isEqualTo("last");
				Await.until(() -> app.echo().openSessions() >= 200, () -> "open " + app.echo().openSessions());
				PoolStats pool = app.server().stats().pool();
				Await.until(() -> pool.busyWorkers() == 0, () -> "busy " + pool.busyWorkers());
				HttpResponse<String> plain = HttpClient.newHttpClient()
					.send(HttpRequest.newBuilder(app.http("/hello")).timeout(Duration.ofSeconds(5)).build(),
							HttpResponse.BodyHandlers.ofString());
				assertThat(plain.body()).isEqualTo("hello");
				assertThat(app.server().stats().connections("websocket")).isGreaterThanOrEqualTo(200);
			}
			finally {
				sessions.forEach(JdkWebSocket::close);
			}
		}
	}

}
