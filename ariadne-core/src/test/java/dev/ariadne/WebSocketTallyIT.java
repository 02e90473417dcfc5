package dev.ariadne;

import java.io.OutputStream;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;
import dev.ariadne.server.WebSocketConfig;
import dev.ariadne.server.WebSocketTally;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.stats.ServerStats;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seam through which another WebSocket implementation counts its sessions among a
 * listener's ({@link Response#countWebSocket()}), in every model: the place is taken at the
 * handshake against {@code websocket.max-sessions} (a refusal counted), the messages it reports
 * are the listener's, and the exchange's end gives the place back when the implementation never
 * says its session ended: a client that goes away, or a handshake that did not switch.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketTallyIT {

	private AriadneServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void countsTheSessionsAndMessagesItIsToldOfAndTheExchangeEndsAPlaceNeverGivenBack(IoModel model) throws Exception {
		this.server = Servers.start(model,
				(config) -> config.webSocket(WebSocketConfig.DEFAULTS.withMaxSessions(1)),
				Route.get("/tunnel", WebSocketTallyIT::tunnel),
				Route.get("/handshake-only", (request, response) -> {
					assertThat(response.countWebSocket()).isNotNull();
					response.send("not switched");
				}));
		ServerStats stats = this.server.stats();
		try (RawClient client = Tunnels.switchTo(RawClient.connect(this.server.port()), "/tunnel")) {
			Tunnels.assertEchoes(client, "one");
			Tunnels.assertEchoes(client, "two");
			assertThat(stats.webSocketSessions()).isEqualTo(1);
			Await.until(() -> stats.webSocketMessages(true) == 2 && stats.webSocketMessages(false) == 2,
					() -> "in " + stats.webSocketMessages(true) + ", out " + stats.webSocketMessages(false));
			try (RawClient refused = RawClient.connect(this.server.port())) {
				RawResponse answer = refused.exchange("GET /tunnel HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\n"
						+ "Upgrade: echo\r\n\r\n");
				assertThat(answer.status()).isEqualTo(503);
				assertThat(answer.header("Retry-After")).isEqualTo("1");
			}
			assertThat(stats.rejected(RejectReason.WEBSOCKET_SESSIONS)).isEqualTo(1);
		}
		// the client went away; the handler never ended its tally: the exchange's end did
		Await.until(() -> stats.webSocketSessions() == 0, () -> "open " + stats.webSocketSessions());
		try (RawClient client = RawClient.connect(this.server.port())) {
			assertThat(client.exchange("GET /handshake-only HTTP/1.1\r\nHost: localhost\r\n\r\n").status())
				.isEqualTo(200);
			assertThat(stats.webSocketSessions()).as("a handshake that did not switch holds no place").isZero();
		}
	}

	/**
	 * Counts a session, switches and echoes, each read a message in and out, until the client
	 * closes; ends the exchange, never the tally.
	 */
	private static void tunnel(Request request, Response response) throws Exception {
		WebSocketTally tally = response.countWebSocket();
		if (tally == null) {
			response.status(503);
			response.header("Retry-After", "1");
			response.send("Too many sessions");
			return;
		}
		AsyncResponse tunnel = response.upgrade();
		OutputStream out = response.outputStream();
		out.flush();
		byte[] buffer = new byte[8192];
		int n;
		while ((n = request.body().read(buffer)) >= 0) {
			tally.received();
			out.write(buffer, 0, n);
			out.flush();
			tally.sent();
		}
		tunnel.complete();
	}

}
