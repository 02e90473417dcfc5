package dev.ariadne.it.websocket;

import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.ariadne.JdkWebSocket;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.Await;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.stats.ServerStats;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring MVC application's Jakarta sessions count on the listener's WebSocket statistics, in
 * every model, as a route's sessions do: each open session (through Spring's
 * {@code @EnableWebSocket} handler and through an {@code @ServerEndpoint}), each whole message
 * either way whatever its frames (a fragmented one counts once, a ping not at all), each handshake
 * refused over {@code websocket.max-sessions}; and the sessions go back to 0 once closed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JakartaSessionCountsIT {

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void jakartaSessionsAndTheirMessagesCountOnTheListenerUntilTheyClose(IoModel model) throws Exception {
		try (WebSocketApp app = WebSocketApp.start(model, "--ariadne.server.websocket.max-sessions=3")) {
			ServerStats stats = app.server().stats();
			assertThat(stats.webSocketSessions()).isZero();
			try (JdkWebSocket echo = JdkWebSocket.open(app.ws("/echo"));
					JdkWebSocket other = JdkWebSocket.open(app.ws("/echo"));
					JdkWebSocket chat = JdkWebSocket.open(app.ws("/chat/lobby"))) {
				assertThat(stats.webSocketSessions()).as("sessions, counted from their handshakes").isEqualTo(3);

				assertThat(echo.send("one").nextText()).isEqualTo("one");
				assertThat(echo.send("two").nextText()).isEqualTo("two");
				// one message in three frames, and a ping between them: one message in, one out
				WebSocket socket = other.socket();
				socket.sendText("thr", false).get(10, TimeUnit.SECONDS);
				socket.sendPing(ByteBuffer.wrap(new byte[] { 1 })).get(10, TimeUnit.SECONDS);
				socket.sendText("e", false).get(10, TimeUnit.SECONDS);
				socket.sendText("e", true).get(10, TimeUnit.SECONDS);
				assertThat(other.nextText()).isEqualTo("three");
				assertThat(chat.send("hi").nextText()).isEqualTo("lobby:hi");
				Await.until(() -> stats.webSocketMessages(true) == 4 && stats.webSocketMessages(false) == 4,
						() -> "in " + stats.webSocketMessages(true) + ", out " + stats.webSocketMessages(false));

				assertThat(JdkWebSocket.refusal(app.ws("/chat/lobby"))).isEqualTo(503);
				assertThat(stats.rejected(RejectReason.WEBSOCKET_SESSIONS)).isEqualTo(1);
				assertThat(stats.webSocketSessions()).as("a refused handshake holds no place").isEqualTo(3);
			}
			Await.until(() -> stats.webSocketSessions() == 0, () -> "open " + stats.webSocketSessions());
			assertThat(stats.webSocketMessages(true)).as("messages in, after the close frames").isEqualTo(4);
			assertThat(stats.webSocketMessages(false)).as("messages out, after the close frames").isEqualTo(4);
			Await.until(() -> stats.connections("websocket") == 0, () -> "connections " + stats.connections("websocket"));

			// the places are free again
			try (JdkWebSocket again = JdkWebSocket.open(app.ws("/echo"))) {
				assertThat(again.send("again").nextText()).isEqualTo("again");
				assertThat(stats.webSocketSessions()).isEqualTo(1);
			}
			Await.until(() -> stats.webSocketSessions() == 0, () -> "open " + stats.webSocketSessions());
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aSessionWhoseClientVanishesGivesItsPlaceBack(IoModel model) throws Exception {
		try (WebSocketApp app = WebSocketApp.start(model)) {
			ServerStats stats = app.server().stats();
			List<JdkWebSocket> sessions = List.of(JdkWebSocket.open(app.ws("/echo")),
					JdkWebSocket.open(app.ws("/chat/lobby")));
			assertThat(sessions.get(1).send("hi").nextText()).isEqualTo("lobby:hi");
			assertThat(stats.webSocketSessions()).isEqualTo(2);
			// no close frame: the connections just go
			sessions.forEach((session) -> session.socket().abort());
			Await.until(() -> stats.webSocketSessions() == 0, () -> "open " + stats.webSocketSessions());
		}
	}

}
