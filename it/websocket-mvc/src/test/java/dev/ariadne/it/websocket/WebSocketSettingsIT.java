package dev.ariadne.it.websocket;

import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.ariadne.JdkWebSocket;
import dev.ariadne.WsRaw;
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
 * {@code idle-timeout} is closed with 1001 while one that talks stays open; a session quiet for
 * {@code ping-interval} is pinged, and a frame over {@code max-frame-size} closes its session
 * with 1009 while a message of smaller frames passes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WebSocketSettingsIT {

	private static final int CONTINUATION = 0x0;

	private static final int TEXT = 0x1;

	private static final int CLOSE = 0x8;

	private static final int PING = 0x9;

	private static final int PONG = 0xA;

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

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void jakartaSessionsArePingedAndTheirFramesBounded(IoModel model) throws Exception {
		try (WebSocketApp app = WebSocketApp.start(model, "--app.websocket.max-message-size=0",
				"--ariadne.server.websocket.ping-interval=300ms", "--ariadne.server.websocket.max-frame-size=1KB");
				WsRaw raw = WsRaw.connect(app.port(), "/echo")) {
			assertThat(raw.head).startsWith("HTTP/1.1 101");
			// quiet: pinged (an empty ping), again after the interval once the client has answered
			for (int i = 0; i < 2; i++) {
				WsRaw.Frame ping = raw.read();
				assertThat(ping.opcode()).isEqualTo(PING);
				assertThat(ping.payload()).isEmpty();
				raw.send(PONG, true, new byte[0], true);
			}
			// frames within max-frame-size make a message over it, within the 64 KiB message limit
			raw.send(TEXT, false, "a".repeat(1024).getBytes(StandardCharsets.US_ASCII), true);
			raw.send(CONTINUATION, true, "b".repeat(1024).getBytes(StandardCharsets.US_ASCII), true);
			WsRaw.Frame echo = nextPastPings(raw);
			assertThat(echo.opcode()).isEqualTo(TEXT);
			assertThat(new String(echo.payload(), StandardCharsets.US_ASCII)).isEqualTo("a".repeat(1024) + "b".repeat(1024));
			raw.send(TEXT, true, "c".repeat(1025).getBytes(StandardCharsets.US_ASCII), true);
			WsRaw.Frame close = nextPastPings(raw);
			assertThat(close.opcode()).isEqualTo(CLOSE);
			assertThat(close.closeCode()).isEqualTo(1009);
		}
	}

	/** The next frame the server sends but its pings. */
	private static WsRaw.Frame nextPastPings(WsRaw raw) throws Exception {
		while (true) {
			WsRaw.Frame frame = raw.read();
			if (frame.opcode() != PING) {
				return frame;
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
