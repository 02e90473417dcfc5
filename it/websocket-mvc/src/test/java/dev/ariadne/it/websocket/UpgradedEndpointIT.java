package dev.ariadne.it.websocket;

import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import jakarta.websocket.CloseReason;

import dev.ariadne.Await;
import dev.ariadne.JdkWebSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Jakarta {@code Session} API of an endpoint without encoders or decoders that a request is
 * switched to with {@code ServerContainer.upgradeHttpToWebSocket} ({@link UpgradedEndpoint},
 * through {@link UpgradedEndpointController}), which runs on the core's session rather than
 * Tyrus's, in every model, with the JDK's client: the decoders every container has (text as an
 * {@code Integer}, pieces of text in order and intact however they are cut, binary as
 * {@code byte[]} and {@code InputStream}), the asynchronous remote's handler and future, the
 * basic remote's writer and stream, {@code sendObject} without encoders, one handler per kind and
 * none for a type without a decoder, the session's text limit (1009), what the session knows of
 * its request, its own user properties, the endpoint's open sessions, and closes both ways.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UpgradedEndpointIT {

	private static WebSocketApp app;

	private final IoModel model;

	UpgradedEndpointIT(IoModel model) {
		this.model = model;
	}

	@BeforeParameterizedClassInvocation
	static void start(IoModel model) {
		app = WebSocketApp.start(model, "--spring.profiles.active=" + UpgradedEndpointController.PROFILE);
	}

	@AfterParameterizedClassInvocation
	static void stop() {
		if (app != null) {
			app.close();
			app = null;
		}
	}

	@Test
	void aWholeIntegerHandlerTakesTextAsANumberAndOneThatThrowsGoesToOnError() throws Exception {
		try (JdkWebSocket client = open("/upgraded/int")) {
			assertThat(client.send("41").nextText()).isEqualTo("42");
			assertThat(client.send("forty-one").nextText()).as("a message no Integer, reported to onError")
				.startsWith("error:java.lang.NumberFormatException");
			assertThat(client.send("-1").nextText()).as("the session goes on").isEqualTo("0");
		}
	}

	@Test
	void aPartialTextHandlerGetsTheFragmentsInOrderAndNonAsciiTextIntact() throws Exception {
		try (JdkWebSocket client = open("/upgraded/partial")) {
			WebSocket socket = client.socket();
			// each fragment is answered before the next is sent: the handler has it alone, as it comes
			List<String> fragments = List.of("héllo ", "wörld ", "€ \uD83C\uDF89");
			for (int i = 0; i < fragments.size(); i++) {
				boolean last = i == fragments.size() - 1;
				socket.sendText(fragments.get(i), last).get(20, TimeUnit.SECONDS);
				assertThat(client.nextText()).isEqualTo(last + ":" + fragments.get(i));
			}

			// large fragments of one- to four-byte characters, which the server may get in pieces
			// that end inside a character
			StringBuilder text = new StringBuilder();
			String[] characters = { "a", "é", "€", "\uD83C\uDF89" };
			for (int i = 0; i < 60_000; i++) {
				text.append(characters[i % characters.length]);
			}
			String whole = text.toString();
			// cut where a cycle of five chars begins: no surrogate pair is split between fragments
			List<String> sent = List.of(whole.substring(0, 30_000), whole.substring(30_000, 60_000),
					whole.substring(60_000));
			for (int i = 0; i < sent.size(); i++) {
				socket.sendText(sent.get(i), i == sent.size() - 1).get(20, TimeUnit.SECONDS);
			}
			List<String> pieces = new ArrayList<>();
			StringBuilder received = new StringBuilder();
			String answer;
			do {
				answer = client.nextText();
				assertThat(answer).matches("(?s)(true|false):.*");
				String piece = answer.substring(answer.indexOf(':') + 1);
				pieces.add(piece);
				received.append(piece);
			}
			while (!answer.startsWith("true:"));
			assertThat(received.toString()).as("the pieces of %d fragments, joined (%d pieces)", sent.size(),
					pieces.size())
				.isEqualTo(whole);
			assertThat(pieces).noneMatch((piece) -> piece.contains("\uFFFD"));
		}
	}

	@Test
	void wholeBinaryHandlersTakeBytesAndAnInputStream() throws Exception {
		byte[] small = new byte[3000];
		byte[] large = new byte[100_000];
		Random random = new Random(42);
		random.nextBytes(small);
		random.nextBytes(large);
		for (String path : List.of("/upgraded/bytes", "/upgraded/instream")) {
			try (JdkWebSocket client = open(path)) {
				assertThat(bytes(client.send(ByteBuffer.wrap(small)).next())).as(path).isEqualTo(small);
				// one message in two fragments, whole for the handler
				client.socket().sendBinary(ByteBuffer.wrap(large, 0, 40_000), false).get(20, TimeUnit.SECONDS);
				client.socket().sendBinary(ByteBuffer.wrap(large, 40_000, 60_000), true).get(20, TimeUnit.SECONDS);
				assertThat(bytes(client.next())).as(path).isEqualTo(large);
			}
		}
	}

	@Test
	void theAsyncRemoteCompletesItsSendHandlerAndItsFuture() throws Exception {
		try (JdkWebSocket client = open("/upgraded/async")) {
			client.send("async-handler");
			assertThat(client.nextText()).isEqualTo("by handler");
			assertThat(client.nextText()).as("SendResult's isOK and exception").isEqualTo("handler:true:null");
			client.send("async-future");
			assertThat(client.nextText()).isEqualTo("by future");
			assertThat(client.nextText()).isEqualTo("future:true");
		}
	}

	@Test
	void theSendWriterAndTheSendStreamSendOneWholeMessageEach() throws Exception {
		try (JdkWebSocket client = open("/upgraded/remote")) {
			assertThat(UpgradedEndpoint.WRITTEN).hasSizeGreaterThan(8192);
			assertThat(client.send("writer").nextText()).isEqualTo(UpgradedEndpoint.WRITTEN);
			assertThat(UpgradedEndpoint.STREAMED).hasSizeGreaterThan(8192);
			assertThat(bytes(client.send("stream").next())).isEqualTo(UpgradedEndpoint.STREAMED);
			assertThat(client.send("id").next()).as("the session goes on").isInstanceOf(String.class);
		}
	}

	@Test
	void sendObjectSendsWhatNeedsNoEncoderAndRefusesTheRest() throws Exception {
		try (JdkWebSocket client = open("/upgraded/object")) {
			client.send("object");
			assertThat(client.next()).as("an Integer, as text").isEqualTo("42");
			assertThat(bytes(client.next())).as("a byte[], as binary").containsExactly(1, 2, 3);
			assertThat(client.nextText()).as("basic sendObject(new Object())").isEqualTo("EncodeException");
			assertThat(client.nextText()).as("async sendObject(new Object())").isEqualTo("async:EncodeException");
		}
	}

	@Test
	void oneHandlerPerKindOfMessageAndNoneForATypeWithoutADecoder() throws Exception {
		try (JdkWebSocket client = open("/upgraded/handlers")) {
			assertThat(client.send("handlers").nextText()).isEqualTo(
					"string=IllegalStateException reader=IllegalStateException date=IllegalStateException handlers=2");
			assertThat(client.send("get").nextText()).as("the first text handler still answers")
				.startsWith("mine=null");
		}
	}

	@Test
	void aTextMessageOverTheSessionsLimitClosesItWith1009() throws Exception {
		try (JdkWebSocket client = open("/upgraded/limit")) {
			assertThat(client.send("0123456789").nextText()).as("10 bytes, the limit").isEqualTo("0123456789");
			client.send("01234567890123456789");
			assertThat(client.closeCode()).isEqualTo(1009);
		}
		assertThat(closeOf("limit").getCloseCode().getCode()).as("what the endpoint was told").isEqualTo(1009);
	}

	@Test
	void aSessionKnowsItsRequestAndItsEndpointsSessionsAndKeepsItsOwnProperties() throws Exception {
		try (JdkWebSocket alpha = open("/upgraded/alpha?who=a%20b&n=1")) {
			assertThat(alpha.send("info").nextText())
				.isEqualTo("name=alpha uri=/upgraded/alpha?who=a%20b&n=1 query=who=a%20b&n=1");
			String alphaId = alpha.send("id").nextText();
			assertThat(alphaId).as("a session on the core's, not Tyrus's").startsWith("ariadne-");
			String betaId;
			try (JdkWebSocket beta = open("/upgraded/beta")) {
				assertThat(beta.send("info").nextText()).isEqualTo("name=beta uri=/upgraded/beta query=null");
				betaId = beta.send("id").nextText();
				assertThat(betaId).isNotEqualTo(alphaId);
				assertThat(List.of(alpha.send("sessions").nextText().split(","))).contains(alphaId, betaId);
				assertThat(List.of(beta.send("sessions").nextText().split(","))).contains(alphaId, betaId);

				assertThat(alpha.send("put:a").nextText()).isEqualTo("put");
				assertThat(beta.send("get").nextText()).isEqualTo("mine=null shared=from the config");
				assertThat(beta.send("put:b").nextText()).isEqualTo("put");
				assertThat(alpha.send("get").nextText()).isEqualTo("mine=a shared=from the config");
				assertThat(beta.send("get").nextText()).isEqualTo("mine=b shared=from the config");
			}
			Await.until(() -> !List.of(ask(alpha, "sessions").split(",")).contains(betaId),
					() -> "beta " + betaId + " still among " + ask(alpha, "sessions"));
			assertThat(List.of(ask(alpha, "sessions").split(","))).contains(alphaId);
		}
	}

	@Test
	void theEndpointClosesWithItsCodeAndIsToldTheClients() throws Exception {
		try (JdkWebSocket client = open("/upgraded/delta")) {
			client.send("close");
			assertThat(client.closeCode()).isEqualTo(4000);
			assertThat(client.closeReason()).isEqualTo("bye");
		}
		CloseReason delta = closeOf("delta");
		assertThat(delta.getCloseCode().getCode()).isEqualTo(4000);
		assertThat(delta.getReasonPhrase()).isEqualTo("bye");

		try (JdkWebSocket client = open("/upgraded/epsilon")) {
			assertThat(client.send("id").nextText()).isNotEmpty();
			client.socket().sendClose(WebSocket.NORMAL_CLOSURE, "done").get(20, TimeUnit.SECONDS);
			assertThat(client.closeCode()).as("the server's answer").isEqualTo(1000);
		}
		CloseReason epsilon = closeOf("epsilon");
		assertThat(epsilon.getCloseCode().getCode()).isEqualTo(1000);
		assertThat(epsilon.getReasonPhrase()).isEqualTo("done");
	}

	private JdkWebSocket open(String path) throws Exception {
		return JdkWebSocket.open(app.ws(path));
	}

	private static String ask(JdkWebSocket client, String command) {
		try {
			return client.send(command).nextText();
		}
		catch (Exception ex) {
			throw new AssertionError(command + " failed", ex);
		}
	}

	private static CloseReason closeOf(String name) {
		Map<String, CloseReason> closes = app.context().getBean(UpgradedEndpointController.class).closes();
		Await.until(() -> closes.containsKey(name), () -> "closes: " + closes);
		return closes.get(name);
	}

	private static byte[] bytes(Object message) {
		assertThat(message).isInstanceOf(ByteBuffer.class);
		ByteBuffer buffer = ((ByteBuffer) message).duplicate();
		byte[] bytes = new byte[buffer.remaining()];
		buffer.get(bytes);
		return bytes;
	}

}
