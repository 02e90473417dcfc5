package dev.ariadne.it.fluxconformance;

import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.client.ReactorNettyWebSocketClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a WebFlux application's {@code WebSocketHandler}s ({@link WebSocketEndpoints}) get of any
 * server: messages of both kinds round-trip with Reactor Netty's client and the JDK's, close
 * statuses travel both ways, the handshake's facts reach the handler, and a message over the
 * server's limit ends the session with 1009.
 */
interface WebSocketCases {

	/**
	 * Returns the running application the cases talk to.
	 * @return the application
	 */
	FluxApp app();

	/**
	 * Returns whether the server may close the connection right after its close frame while the
	 * client still sends, so that the client's stack, reset, loses the frame (1006): Reactor
	 * Netty was seen to once in a full run on a loaded machine. Ariadne lingers, discarding what
	 * the client still sends, in every model.
	 * @return whether a reset may take the place of the close frame
	 */
	default boolean mayResetAfterItsCloseFrame() {
		return false;
	}

	@Test
	default void echoesTextAndBinaryMessagesToReactorNettysClient() {
		URI uri = URI.create("ws://127.0.0.1:" + app().port() + "/ws/echo");
		byte[] bytes = new byte[40_000];
		new Random(27).nextBytes(bytes);
		List<String> answers = new java.util.concurrent.CopyOnWriteArrayList<>();
		new ReactorNettyWebSocketClient().execute(uri, (session) -> session
			.send(Flux.just(session.textMessage("th\u00e9 \u2713"), session.binaryMessage((factory) -> factory.wrap(bytes)),
					session.textMessage("last")))
			.thenMany(session.receive().take(3).map((message) -> {
				if (message.getType() == WebSocketMessage.Type.TEXT) {
					return "text:" + message.getPayloadAsText();
				}
				byte[] back = new byte[message.getPayload().readableByteCount()];
				message.getPayload().read(back);
				return "binary:" + java.util.Arrays.equals(back, bytes);
			}))
			.doOnNext(answers::add)
			.then()).block(Duration.ofSeconds(20));
		assertThat(answers).containsExactly("text:th\u00e9 \u2713", "binary:true", "text:last");
	}

	@Test
	default void echoesTextAndBinaryMessagesToTheJdksClient() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(app().port(), "/ws/echo")) {
			byte[] bytes = new byte[60_000];
			new Random(4).nextBytes(bytes);
			client.socket.sendText("\ud83c\udf75 first", true).get(20, TimeUnit.SECONDS);
			client.socket.sendBinary(ByteBuffer.wrap(bytes), true).get(20, TimeUnit.SECONDS);
			client.socket.sendText("in ", false).get(20, TimeUnit.SECONDS);
			client.socket.sendText("pieces", true).get(20, TimeUnit.SECONDS);
			assertThat(client.next()).isEqualTo("\ud83c\udf75 first");
			assertThat((byte[]) client.next()).isEqualTo(bytes);
			assertThat(client.next()).isEqualTo("in pieces");
			client.socket.sendClose(1000, "done").get(20, TimeUnit.SECONDS);
			// the code and the reason come back, as Reactor Netty, Tomcat and Jetty answer
			assertThat(client.closed()).isEqualTo(new JdkWebSocket.Close(1000, "done"));
		}
	}

	// the handshake reaches the upgrade strategy on another thread than the request's, after a filter
	@Test
	default void echoesWhenAFilterLetsTheHandshakeGoOnFromAnotherThread() throws Exception {
		for (int i = 0; i < 3; i++) {
			try (JdkWebSocket client = JdkWebSocket.open(app().port(), "/ws/late")) {
				client.socket.sendText("late " + i, true).get(20, TimeUnit.SECONDS);
				assertThat(client.next()).isEqualTo("late " + i);
				client.socket.sendClose(1000, "").get(20, TimeUnit.SECONDS);
				assertThat(client.closed().code()).isEqualTo(1000);
			}
		}
	}

	@Test
	default void aCloseStatusTheHandlerSendsReachesTheClient() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(app().port(), "/ws/close")) {
			client.socket.sendText("close now", true).get(20, TimeUnit.SECONDS);
			assertThat(client.closed()).isEqualTo(new JdkWebSocket.Close(WebSocketEndpoints.HANDLER_CLOSE.getCode(),
					WebSocketEndpoints.HANDLER_CLOSE.getReason()));
		}
	}

	@Test
	default void aCloseStatusTheClientSendsReachesTheHandler() throws Exception {
		WebSocketProbe probe = app().webSocketProbe();
		probe.reset();
		try (JdkWebSocket client = JdkWebSocket.open(app().port(), "/ws/watch")) {
			client.socket.sendText("hello", true).get(20, TimeUnit.SECONDS);
			assertThat(client.next()).isEqualTo("hello");
			client.socket.sendClose(4002, "the client leaves").get(20, TimeUnit.SECONDS);
			assertThat(client.closed().code()).isEqualTo(4002);
		}
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (probe.lastClose() == null && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
		assertThat(probe.lastClose()).isEqualTo(new CloseStatus(4002, "the client leaves"));
	}

	// one subprotocol offered: the JDK's client sends several in one field, comma and space apart,
	// and Spring's handshake service, which splits the field on commas without trimming, then
	// agrees to none but the first, on every server
	@Test
	default void theHandlerSeesTheHandshakesUriHeadersSubprotocolRemoteAddressAndPrincipal() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(app().port(), "/ws/info?room=7", new String[] { "v1.probe" },
				"X-Probe", "handshake header", "X-User", "alice")) {
			assertThat(client.socket.getSubprotocol()).isEqualTo("v1.probe");
			client.socket.sendText("tell me", true).get(20, TimeUnit.SECONDS);
			assertThat(client.next()).isEqualTo("/ws/info|room=7|handshake header|v1.probe|127.0.0.1|yes|alice");
			client.socket.sendClose(1000, "").get(20, TimeUnit.SECONDS);
			assertThat(client.closed().code()).isEqualTo(1000);
		}
	}

	@Test
	default void refusesA16MegabyteMessageOverTheLimitWith1009() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(app().port(), "/ws/echo")) {
			client.socket.sendText("small", true).get(20, TimeUnit.SECONDS);
			assertThat(client.next()).isEqualTo("small");
			byte[] big = new byte[16 * 1024 * 1024];
			// sent whole or not: the server may close before it has read it all
			Mono.fromFuture(client.socket.sendBinary(ByteBuffer.wrap(big), true)).onErrorComplete().subscribe();
			int code = client.closed().code();
			if (mayResetAfterItsCloseFrame()) {
				assertThat(code).isIn(1009, 1006);
			}
			else {
				assertThat(code).isEqualTo(1009);
			}
		}
	}

}
