package dev.ariadne.it.websocket;

import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.ariadne.JdkWebSocket;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.stats.RejectReason;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring MVC application that sets {@code ariadne.server.websocket.*}, in every model: its
 * Jakarta sessions follow them as a route's sessions do. A handshake over
 * {@code max-sessions} is answered 503 and counted until a session closes, a message over
 * {@code max-message-size} closes its session with 1009, and a session quiet for
 * {@code idle-timeout} is closed with 1001 while one that talks stays open.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WebSocketSettingsIT {

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void jakartaSessionsFollowTheServersWebSocketSettings(IoModel model) throws Exception {
		// app.websocket.max-message-size=0: the application leaves the container's default alone
		try (WebSocketApp app = WebSocketApp.start(model, "--app.websocket.max-message-size=0",
				"--ariadne.server.websocket.max-sessions=2", "--ariadne.server.websocket.max-message-size=1KB",
				"--ariadne.server.websocket.idle-timeout=2s")) {
			try (JdkWebSocket quiet = JdkWebSocket.open(app.ws("/echo"));
					JdkWebSocket talking = JdkWebSocket.open(app.ws("/echo"))) {
				assertThat(talking.send("hello").nextText()).isEqualTo("hello");
				assertThat(JdkWebSocket.refusal(app.ws("/echo"))).isEqualTo(503);
				assertThat(app.server().stats().rejected(RejectReason.WEBSOCKET_SESSIONS)).isEqualTo(1);

				// the quiet one is closed after 2 s; the talking one, a message every 500 ms, is not
				long start = System.nanoTime();
				while (!quiet.closedYet() && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10)) {
					assertThat(talking.send("still here").nextText()).isEqualTo("still here");
					Thread.sleep(500);
				}
				assertThat(quiet.closeCode()).isEqualTo(1001);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the idle timeout")
					.isGreaterThanOrEqualTo(Duration.ofMillis(1500));
				assertThat(talking.send("after").nextText()).isEqualTo("after");

				// a place is free again, once the server has counted the quiet one out
				try (JdkWebSocket third = openWithin(app, Duration.ofSeconds(5))) {
					assertThat(third.send("x".repeat(1024)).nextText()).hasSize(1024);
					third.send("x".repeat(1025));
					assertThat(third.closeCode()).isEqualTo(1009);
				}
			}
		}
	}

	private static JdkWebSocket openWithin(WebSocketApp app, Duration limit) throws Exception {
		long deadline = System.nanoTime() + limit.toNanos();
		while (true) {
			try {
				return JdkWebSocket.open(app.ws("/echo"));
			}
			catch (ExecutionException ex) {
				if (!(ex.getCause() instanceof WebSocketHandshakeException) || System.nanoTime() - deadline > 0) {
					throw ex;
				}
				Thread.sleep(50);
			}
		}
	}

}
