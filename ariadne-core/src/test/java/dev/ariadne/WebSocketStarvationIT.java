package dev.ariadne;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.websocket.WebSocketHandler;
import dev.ariadne.server.websocket.WebSocketListener;
import dev.ariadne.server.websocket.WebSocketSession;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What WebSocket sessions hold in each model, seen through the statistics: in {@code blocking}
 * each open session owns a worker (4 sessions on 4 workers leave a plain request waiting until
 * one closes: the seed's story), while {@code event-loop} holds hundreds of quiet sessions on 4
 * workers and answers plain requests at once; and in every model a client that does not read its
 * echoes makes the server stop reading it rather than buffer without bound.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WebSocketStarvationIT {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private AriadneServer server;

	private final List<AutoCloseable> clients = new ArrayList<>();

	@AfterEach
	void stop() throws Exception {
		for (AutoCloseable client : this.clients) {
			client.close();
		}
		if (this.server != null) {
			this.server.stop();
		}
	}

	private void start(IoModel model, int threads) {
		this.server = Servers.start(model, (config) -> config.maxThreads(threads).minThreads(Math.min(threads, 4)),
				Route.get("/echo", WebSocketHandler.of((request) -> new Echo())),
				Route.get("/plain", (request, response) -> response.send("plain")));
	}

	@Test
	void blockingWithFourWorkersAndFourSessionsLeavesAPlainRequestWaitingUntilOneCloses() throws Exception {
		start(IoModel.BLOCKING, 4);
		List<WsClient> sessions = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			WsClient client = WsClient.connect(this.server, "/echo");
			this.clients.add(client);
			sessions.add(client);
		}
		Await.until(() -> this.server.stats().webSocketSessions() == 4 && this.server.stats().pool().busyWorkers() == 4,
				() -> "sessions " + this.server.stats().webSocketSessions() + ", busy "
						+ this.server.stats().pool().busyWorkers());
		CompletableFuture<HttpResponse<String>> plain = HTTP.sendAsync(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.server.port() + "/plain")).build(),
				HttpResponse.BodyHandlers.ofString());
		Await.until(() -> this.server.stats().pool().queued() >= 1, () -> "queued " + this.server.stats().pool().queued());
		assertThat(plain).isNotDone();
		// the sessions still echo: each owns its worker
		assertThat(sessions.get(0).sendAndReceive("still served")).isEqualTo("text:still served");
		sessions.get(3).socket.sendClose(1000, "").get(10, TimeUnit.SECONDS);
		assertThat(plain.get(10, TimeUnit.SECONDS).body()).isEqualTo("plain");
		Await.until(() -> this.server.stats().webSocketSessions() == 3, () -> "sessions " + this.server.stats().webSocketSessions());
	}

	@Test
	void eventLoopWithFourWorkersHoldsHundredsOfQuietSessionsAndAnswersPlainRequestsAtOnce() throws Exception {
		start(IoModel.EVENT_LOOP, 4);
		int count = 300;
		List<WsRaw> sessions = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			WsRaw raw = WsRaw.connect(this.server, "/echo");
			this.clients.add(raw);
			sessions.add(raw);
			assertThat(raw.head).startsWith("HTTP/1.1 101");
		}
		Await.until(() -> this.server.stats().webSocketSessions() == count,
				() -> "sessions " + this.server.stats().webSocketSessions());
		Await.until(() -> this.server.stats().pool().busyWorkers() == 0,
				() -> "busy " + this.server.stats().pool().busyWorkers());
		long start = System.nanoTime();
		HttpResponse<String> plain = HTTP.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.server.port() + "/plain")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(plain.body()).isEqualTo("plain");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
		WsRaw last = sessions.get(count - 1);
		last.sendText("last");
		assertThat(new String(last.read().payload())).isEqualTo("last");
		assertThat(this.server.stats().connections("websocket")).isEqualTo(count);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aClientThatDoesNotReadItsEchoesIsNotReadEither(IoModel model) throws Exception {
		start(model, 200);
		WsRaw raw = WsRaw.connect(this.server, "/echo");
		this.clients.add(raw);
		byte[] payload = new byte[16 * 1024];
		long total = 64L * 1024 * 1024;
		Flood flood = Flood.untilStalled(payload.length, total, () -> raw.send(0x2, true, payload, true));
		assertThat(flood.sent()).as("bytes the client could send without reading").isLessThan(total);
		assertThat(this.server.stats().buffersUsed()).as("bytes the server holds").isLessThan(2L * 1024 * 1024);
		assertThat(this.server.stats().webSocketSessions()).isEqualTo(1);
		raw.socket.close();
		flood.join();
	}

	/** Echoes with back-pressure: the next message is read once the echo may be sent. */
	private static final class Echo implements WebSocketListener {

		@Override
		public CompletionStage<?> onText(WebSocketSession session, String text) {
			return session.sendText(text);
		}

		@Override
		public CompletionStage<?> onBinary(WebSocketSession session, ByteBuffer data) {
			return session.sendBinary(data);
		}

	}

}
