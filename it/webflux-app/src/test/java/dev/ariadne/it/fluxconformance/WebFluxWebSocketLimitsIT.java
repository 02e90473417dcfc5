package dev.ariadne.it.fluxconformance;

import java.net.http.WebSocketHandshakeException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.ariadne.server.IoModel;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code ariadne.server.websocket.*} under a WebFlux application's {@code WebSocketHandler}s, in
 * every I/O model: the sessions are the listener's, so its limits hold for them as for a route's.
 */
class WebFluxWebSocketLimitsIT {

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void maxSessionsMaxMessageSizeAndTheIdleTimeoutHold(IoModel model) throws Exception {
		try (FluxApp app = FluxApp.onAriadne(model, "ariadne.server.websocket.max-sessions=2",
				"ariadne.server.websocket.max-message-size=1KB", "ariadne.server.websocket.idle-timeout=2s");
				JdkWebSocket first = JdkWebSocket.open(app.port(), "/ws/echo");
				JdkWebSocket second = JdkWebSocket.open(app.port(), "/ws/echo")) {
			// max-sessions: the third handshake is answered 503 and counted
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> JdkWebSocket.open(app.port(), "/ws/echo"))
				.havingCause()
				.isInstanceOfSatisfying(WebSocketHandshakeException.class,
						(refused) -> assertThat(refused.getResponse().statusCode()).isEqualTo(503));
			assertThat(app.management("/actuator/prometheus").body())
				.containsPattern("ariadne_connections_rejected_total\\{[^}]*listener=\"app\"[^}]*reason=\"websocket-sessions\"[^}]*\\} 1\\.0");
			// max-message-size: 1,025 bytes end the session with 1009
			first.socket.sendText("x".repeat(1024), true).get(20, TimeUnit.SECONDS);
			assertThat(first.next()).isEqualTo("x".repeat(1024));
			first.socket.sendText("x".repeat(1025), true).get(20, TimeUnit.SECONDS);
			assertThat(first.closed().code()).isEqualTo(1009);
			// idle-timeout: a quiet session is closed with 1001
			long start = System.nanoTime();
			assertThat(second.closed().code()).isEqualTo(1001);
			assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(10_000);
		}
	}

}
