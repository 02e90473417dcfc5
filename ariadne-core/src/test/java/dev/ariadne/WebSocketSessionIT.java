package dev.ariadne;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.WebSocketConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.websocket.WebSocketHandler;
import dev.ariadne.server.websocket.WebSocketListener;
import dev.ariadne.server.websocket.WebSocketSession;
import dev.ariadne.websocket.WebSocketLimits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * WebSocket sessions over real sockets, in every model, with the JDK's WebSocket client and a
 * raw one for what a well-behaved client never sends: echo, fragments, pings, close codes both
 * ways, the limits (1009, max sessions), the idle timeout, the shutdown's 1001 and the meters.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketSessionIT {

	private AriadneServer server;

	/** What the server's listeners saw: {@code close:<code>}, {@code error:...}. */
	private final BlockingQueue<String> serverEvents = new LinkedBlockingQueue<>();

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	private AriadneServer start(IoModel model, UnaryOperator<WebSocketConfig> webSocket) {
		return start(model, UnaryOperator.identity(), webSocket);
	}

	private AriadneServer start(IoModel model, UnaryOperator<ServerConfig.Builder> config,
			UnaryOperator<WebSocketConfig> webSocket) {
		this.server = Servers.start(model, (builder) -> config.apply(builder.webSocket(webSocket.apply(WebSocketConfig.DEFAULTS))),
				Route.get("/echo", WebSocketHandler.of((request) -> new Echo()).subprotocols("chat")),
				Route.get("/closer", WebSocketHandler.of((request) -> new WebSocketListener() {
					@Override
					public void onOpen(WebSocketSession session) {
						session.close(4001, "done");
					}

					@Override
					public void onClose(WebSocketSession session, int code, String reason) {
						WebSocketSessionIT.this.serverEvents.add("closer:" + code);
					}
				})),
				Route.get("/own", WebSocketHandler.of((request) -> new OwnSettings())),
				Route.get("/refused", WebSocketHandler.of((request) -> null)),
				Route.get("/parts", WebSocketHandler.of((request) -> new Parts())),
				Route.get("/utf8", WebSocketHandler.of((request) -> new Utf8Echo())),
				Route.get("/plain", (request, response) -> response.send("plain")));
		return this.server;
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void echoesTextAndBinaryAndCountsTheMessages(IoModel model) throws Exception {
		start(model, (ws) -> ws);
		try (WsClient client = WsClient.connect(this.server, "/echo", "other", "chat")) {
			assertThat(client.socket.getSubprotocol()).isEqualTo("chat");
			assertThat(client.sendAndReceive("hello")).isEqualTo("text:hello");
			String large = "é".repeat(20_000);
			assertThat(client.sendAndReceive(large)).isEqualTo("text:" + large);
			client.socket.sendBinary(ByteBuffer.wrap(new byte[50_000]), true).get(10, TimeUnit.SECONDS);
			assertThat(client.next()).isEqualTo("binary:50000");
			assertThat(this.server.stats().webSocketSessions()).isEqualTo(1);
			assertThat(this.server.stats().connections("websocket")).isEqualTo(1);
		}
		Await.until(() -> this.server.stats().webSocketSessions() == 0, () -> "sessions " + this.server.stats().webSocketSessions());
		assertThat(this.server.stats().webSocketMessages(true)).isEqualTo(3);
		assertThat(this.server.stats().webSocketMessages(false)).isEqualTo(3);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void echoesOverTls(IoModel model) throws Exception {
		TlsConfig tls = TlsConfig.builder(() -> TestCertificates.get().serverContext(TestCertificates.LOCALHOST)).build();
		start(model, (config) -> config.tls(tls), (ws) -> ws);
		try (WsClient client = WsClient.connectSecure(this.server, "/echo")) {
			assertThat(client.sendAndReceive("secret")).isEqualTo("text:secret");
			String large = "s".repeat(60_000);
			assertThat(client.sendAndReceive(large)).isEqualTo("text:" + large);
			client.socket.sendClose(1000, "").get(10, TimeUnit.SECONDS);
			assertThat(client.next()).isEqualTo("close:1000:");
		}
	}

	@org.junit.jupiter.api.Test
	void aQuietSessionHoldsNoInputBufferInTheEventLoop() throws Exception {
		start(IoModel.EVENT_LOOP, (ws) -> ws);
		try (WsRaw quiet = WsRaw.connect(this.server, "/echo"); WsRaw talking = WsRaw.connect(this.server, "/echo")) {
			assertThat(quiet.head).startsWith("HTTP/1.1 101");
			talking.sendText("hello");
			assertThat(new String(talking.read().payload(), StandardCharsets.UTF_8)).isEqualTo("hello");
			Await.until(() -> this.server.borrowedBuffers() == 0, () -> "buffers held " + this.server.borrowedBuffers());
			talking.sendText("again");
			assertThat(new String(talking.read().payload(), StandardCharsets.UTF_8)).isEqualTo("again");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void gathersFragmentedMessagesAndAnswersPingsBetweenThem(IoModel model) throws Exception {
		start(model, (ws) -> ws);
		try (WsClient client = WsClient.connect(this.server, "/echo")) {
			client.socket.sendText("frag", false).get(10, TimeUnit.SECONDS);
			client.socket.sendPing(ByteBuffer.wrap("p1".getBytes(StandardCharsets.UTF_8))).get(10, TimeUnit.SECONDS);
			client.socket.sendText("men", false).get(10, TimeUnit.SECONDS);
			client.socket.sendText("ted", true).get(10, TimeUnit.SECONDS);
			assertThat(client.next()).isEqualTo("pong:p1");
			assertThat(client.next()).isEqualTo("text:fragmented");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void deliversAndSendsMessagesInPieces(IoModel model) throws Exception {
		start(model, (ws) -> ws);
		try (WsClient client = WsClient.connect(this.server, "/parts")) {
			client.socket.sendText("a".repeat(10), false).get(10, TimeUnit.SECONDS);
			client.socket.sendText("b".repeat(20), false).get(10, TimeUnit.SECONDS);
			client.socket.sendText("c".repeat(30), true).get(10, TimeUnit.SECONDS);
			assertThat(client.next()).isEqualTo("binary:60");
			String pieces = client.next();
			assertThat(pieces).startsWith("text:pieces:");
			assertThat(Integer.parseInt(pieces.substring("text:pieces:".length()))).isGreaterThanOrEqualTo(3);
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void sendsTextFromUtf8BytesInPiecesThatSplitACharacter(IoModel model) throws Exception {
		start(model, (ws) -> ws);
		try (WsClient client = WsClient.connect(this.server, "/utf8")) {
			assertThat(client.sendAndReceive("é€ and more")).isEqualTo("text:é€ and more");
			String large = "€".repeat(20_000);
			assertThat(client.sendAndReceive(large)).isEqualTo("text:" + large);
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void closeCodesArriveBothWays(IoModel model) throws Exception {
		start(model, (ws) -> ws);
		try (WsClient client = WsClient.connect(this.server, "/echo")) {
			client.socket.sendClose(4000, "bye").get(10, TimeUnit.SECONDS);
			// the answer echoes the client's code and reason, as Tomcat's, Jetty's and Reactor Netty's do
			assertThat(client.next()).isEqualTo("close:4000:bye");
			assertThat(this.serverEvents.poll(10, TimeUnit.SECONDS)).isEqualTo("close:4000:bye");
		}
		try (WsClient client = WsClient.connect(this.server, "/closer")) {
			assertThat(client.next()).isEqualTo("close:4001:done");
		}
		try (WsRaw raw = WsRaw.connect(this.server, "/refused")) {
			assertThat(raw.head).startsWith("HTTP/1.1 403");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void closesTheConnectionWhenTheClientNeverAnswersTheServersClose(IoModel model) throws Exception {
		start(model, (ws) -> ws);
		try (WsRaw raw = WsRaw.connect(this.server, "/closer")) {
			assertThat(raw.readClose().closeCode()).isEqualTo(4001);
			long start = System.nanoTime();
			// no close frame in answer: the server gives up after its close timeout (5 s)
			assertThat(raw.in.read()).isEqualTo(-1);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofSeconds(4), Duration.ofSeconds(9));
			assertThat(this.serverEvents.poll(10, TimeUnit.SECONDS)).isEqualTo("closer:1006");
			Await.until(() -> this.server.stats().webSocketSessions() == 0, () -> "sessions open");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aMessageOverTheLimitClosesWith1009(IoModel model) throws Exception {
		start(model, (ws) -> ws.withSizes(1024, 4096));
		try (WsClient client = WsClient.connect(this.server, "/echo")) {
			assertThat(client.sendAndReceive("x".repeat(1024))).isEqualTo("text:" + "x".repeat(1024));
			client.socket.sendText("x".repeat(1025), true).get(10, TimeUnit.SECONDS);
			assertThat(client.next()).startsWith("close:1009:");
		}
		assertThat(this.serverEvents.poll(10, TimeUnit.SECONDS)).startsWith("error:");
		assertThat(this.serverEvents.poll(10, TimeUnit.SECONDS)).startsWith("close:1009:");
		try (WsRaw raw = WsRaw.connect(this.server, "/echo")) {
			// a frame header longer than max-frame-size: refused before its payload
			raw.send(0x2, true, new byte[5000], true);
			assertThat(raw.readClose().closeCode()).isEqualTo(1009);
		}
	}

	// the client is still sending when the 1009 goes out: a server that closes with its input
	// unread resets the connection, and the reset can reach the client before it reads the close
	@ParameterizedTest
	@EnumSource(IoModel.class)
	void theClientStillSendingAMessageOverTheLimitReadsThe1009(IoModel model) throws Exception {
		start(model, (ws) -> ws);
		for (int i = 0; i < 3; i++) {
			try (WsClient client = WsClient.connect(this.server, "/echo")) {
				client.socket.sendBinary(ByteBuffer.wrap(new byte[16 * 1024 * 1024]), true);
				assertThat(client.closed.get(20, TimeUnit.SECONDS)).as("close code, attempt %d", i).isEqualTo(1009);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void protocolErrorsCloseWith1002And1007(IoModel model) throws Exception {
		start(model, (ws) -> ws);
		try (WsRaw raw = WsRaw.connect(this.server, "/echo")) {
			assertThat(raw.head).startsWith("HTTP/1.1 101").contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
			raw.send(0x1, true, "unmasked".getBytes(StandardCharsets.UTF_8), false);
			assertThat(raw.readClose().closeCode()).isEqualTo(1002);
			assertThat(raw.in.read()).isEqualTo(-1);
		}
		try (WsRaw raw = WsRaw.connect(this.server, "/echo")) {
			raw.send(0x1, true, new byte[] { 'a', (byte) 0xc0, (byte) 0xaf }, true);
			assertThat(raw.readClose().closeCode()).isEqualTo(1007);
		}
		try (WsRaw raw = WsRaw.connect(this.server, "/plain")) {
			assertThat(raw.head).startsWith("HTTP/1.1 200");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void closesAnIdleSessionWith1001(IoModel model) throws Exception {
		start(model, (ws) -> ws.withIdleTimeout(Duration.ofMillis(400)));
		try (WsClient client = WsClient.connect(this.server, "/echo")) {
			long start = System.nanoTime();
			assertThat(client.next()).isEqualTo("close:1001:Idle timeout");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(350));
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aSessionsOwnLimitsAndIdleTimeoutReplaceTheSettings(IoModel model) throws Exception {
		start(model, (ws) -> ws);
		try (WsClient client = WsClient.connect(this.server, "/own")) {
			// its own limit of 100 bytes, from its open, then 1,000 once it asks for it
			assertThat(client.sendAndReceive("x".repeat(100))).isEqualTo("text:" + "x".repeat(100));
			assertThat(client.sendAndReceive("raise")).isEqualTo("text:raise");
			assertThat(client.sendAndReceive("y".repeat(1000))).isEqualTo("text:" + "y".repeat(1000));
			client.socket.sendText("z".repeat(1001), true).get(10, TimeUnit.SECONDS);
			assertThat(client.next()).startsWith("close:1009:");
		}
		try (WsClient client = WsClient.connect(this.server, "/own")) {
			client.socket.sendText("x".repeat(101), true).get(10, TimeUnit.SECONDS);
			assertThat(client.next()).startsWith("close:1009:");
		}
		try (WsClient client = WsClient.connect(this.server, "/own?idle")) {
			// its own idle timeout of 300 ms, where the server's is 5 minutes
			long start = System.nanoTime();
			assertThat(client.next()).isEqualTo("close:1001:Idle timeout");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(250), Duration.ofSeconds(10));
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void pingsAQuietSessionThatAnswersAndStaysOpen(IoModel model) throws Exception {
		start(model, (ws) -> ws.withIdleTimeout(Duration.ofMillis(600)).withPingInterval(Duration.ofMillis(150)));
		try (WsClient client = WsClient.connect(this.server, "/echo")) {
			// the client's automatic pongs keep the session from going idle
			Thread.sleep(1500);
			assertThat(client.sendAndReceive("still here")).isEqualTo("text:still here");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void refusesHandshakesOverMaxSessionsWith503(IoModel model) throws Exception {
		start(model, (ws) -> ws.withMaxSessions(2));
		try (WsClient first = WsClient.connect(this.server, "/echo");
				WsClient second = WsClient.connect(this.server, "/echo")) {
			assertThatThrownBy(() -> WsClient.connect(this.server, "/echo")).isInstanceOf(ExecutionException.class)
				.cause()
				.isInstanceOf(WebSocketHandshakeException.class)
				.satisfies((ex) -> assertThat(((WebSocketHandshakeException) ex).getResponse().statusCode()).isEqualTo(503));
			assertThat(this.server.stats().rejected(RejectReason.WEBSOCKET_SESSIONS)).isEqualTo(1);
			assertThat(first.sendAndReceive("one")).isEqualTo("text:one");
		}
		Await.until(() -> this.server.stats().webSocketSessions() == 0, () -> "sessions open");
		try (WsClient third = WsClient.connect(this.server, "/echo")) {
			assertThat(third.sendAndReceive("three")).isEqualTo("text:three");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aGracefulShutdownClosesSessionsWith1001(IoModel model) throws Exception {
		start(model, (ws) -> ws);
		List<WsClient> clients = new ArrayList<>();
		try {
			for (int i = 0; i < 3; i++) {
				clients.add(WsClient.connect(this.server, "/echo"));
			}
			long start = System.nanoTime();
			assertThat(this.server.shutdownGracefully(Duration.ofSeconds(10))).isTrue();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
			for (WsClient client : clients) {
				assertThat(client.next()).isEqualTo("close:1001:Server shutting down");
			}
		}
		finally {
			clients.forEach(WsClient::close);
		}
	}

	/**
	 * Takes text in pieces as they arrive and sends each back at once as a piece of a binary
	 * message, then the count of pieces as text.
	 */
	private static final class Parts implements WebSocketListener {

		private int pieces;

		@Override
		public boolean partialMessages() {
			return true;
		}

		@Override
		public CompletionStage<?> onTextPart(WebSocketSession session, ByteBuffer utf8, boolean last) {
			this.pieces++;
			ByteBuffer copy = ByteBuffer.allocate(utf8.remaining()).put(utf8).flip();
			CompletionStage<Void> sent = session.sendBinary(copy, last);
			if (!last) {
				return sent;
			}
			int count = this.pieces;
			this.pieces = 0;
			return sent.thenCompose((done) -> session.sendText("pieces:" + count));
		}

	}

	/**
	 * Echoes text as its UTF-8 bytes, in two pieces, the first ending inside the message's first
	 * character.
	 */
	private static final class Utf8Echo implements WebSocketListener {

		@Override
		public CompletionStage<?> onText(WebSocketSession session, String text) {
			ByteBuffer utf8 = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
			ByteBuffer first = utf8.duplicate().limit(1);
			utf8.position(1);
			return session.sendText(first, false).thenCompose((sent) -> session.sendText(utf8, true));
		}

	}

	/** Echoes under limits and an idle timeout of its own, and raises its limit when asked. */
	private static final class OwnSettings implements WebSocketListener {

		@Override
		public void onOpen(WebSocketSession session) {
			session.limits(new WebSocketLimits(4096, 100));
			if ("idle".equals(session.query())) {
				session.idleTimeout(Duration.ofMillis(300));
			}
		}

		@Override
		public CompletionStage<?> onText(WebSocketSession session, String text) {
			if (text.equals("raise")) {
				session.limits(new WebSocketLimits(4096, 1000));
			}
			return session.sendText(text);
		}

	}

	/** Echoes, with back-pressure: the next message is read once the echo may be sent. */
	private final class Echo implements WebSocketListener {

		@Override
		public CompletionStage<?> onText(WebSocketSession session, String text) {
			return session.sendText(text);
		}

		@Override
		public CompletionStage<?> onBinary(WebSocketSession session, ByteBuffer data) {
			return session.sendBinary(data);
		}

		@Override
		public void onError(WebSocketSession session, Throwable failure) {
			WebSocketSessionIT.this.serverEvents.add("error:" + failure);
		}

		@Override
		public void onClose(WebSocketSession session, int code, String reason) {
			WebSocketSessionIT.this.serverEvents.add("close:" + code + ":" + reason);
		}

	}

}
