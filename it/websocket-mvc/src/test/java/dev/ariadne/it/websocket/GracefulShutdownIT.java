package dev.ariadne.it.websocket;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.ariadne.JdkWebSocket;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that stops with WebSocket sessions open, in every model: its sessions close
 * with 1001 (going away) as the graceful shutdown begins, and the shutdown does not wait for
 * them until its grace period (20 s here) runs out, as it waited before.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GracefulShutdownIT {

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void openSessionsCloseWith1001AndTheShutdownDoesNotWaitForThem(IoModel model) throws Exception {
		WebSocketApp app = WebSocketApp.start(model, "--spring.lifecycle.timeout-per-shutdown-phase=20s");
		try (JdkWebSocket echo = JdkWebSocket.open(app.ws("/echo"));
				JdkWebSocket chat = JdkWebSocket.open(app.ws("/chat/closing"))) {
			assertThat(echo.send("before").nextText()).isEqualTo("before");
			assertThat(chat.send("before").nextText()).isEqualTo("closing:before");
			long start = System.nanoTime();
			CompletableFuture<Void> stopped = CompletableFuture.runAsync(app::close);
			assertThat(echo.closeCode()).isEqualTo(1001);
			assertThat(chat.closeCode()).isEqualTo(1001);
			stopped.get(60, TimeUnit.SECONDS);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the shutdown")
				.isLessThan(Duration.ofSeconds(10));
		}
	}

}
