package dev.ariadne;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.routing.Route;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A connection handed from one protocol to another on the same socket, in every model, over
 * plaintext and TLS: a protocol that speaks first ({@link GreetingProtocol}) hands the
 * connection to HTTP/1.1 with the bytes it read after its own, as HTTP/1.1 will hand one to
 * HTTP/2 or WebSocket. What the client sent in the same packet is served, the connection stays
 * persistent after it, the TLS session goes along, and nothing is left held.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProtocolHandOffIT {

	private static final TestCertificates certificates = TestCertificates.get();

	private static final String GET = "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n";

	private final AtomicInteger served = new AtomicInteger();

	private final Route hello = Route.get("/hello", (request, response) -> {
		this.served.incrementAndGet();
		response.send("hello secure=" + request.secure() + " session=" + (request.tlsSession() != null));
	});

	private AriadneServer server;

	private boolean tls;

	static Stream<Arguments> listeners() {
		return Stream.of(IoModel.values()).flatMap((model) -> Stream.of(Arguments.of(model, false), Arguments.of(model, true)));
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void requestsSentWithTheGreetingAreServedAfterTheHandOffAndTheConnectionStaysPersistent(IoModel model,
			boolean tls) throws IOException {
		start(model, tls);
		try (RawClient client = connect()) {
			client.send(GreetingProtocol.HELLO + GET + GET);
			assertThat(text(client.take(GreetingProtocol.WELCOME.length()))).isEqualTo(GreetingProtocol.WELCOME);
			for (int i = 0; i < 2; i++) {
				assertHello(client.read());
			}
			// the connection is HTTP/1.1's now, for as long as the client keeps it
			assertHello(client.exchange(GET));
		}
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void aGreetingInPiecesAndARequestAfterItsAnswerAreServed(IoModel model, boolean tls) throws Exception {
		start(model, tls);
		try (RawClient client = connect()) {
			client.send("HEL");
			Thread.sleep(50);
			client.send("LO\r");
			Thread.sleep(50);
			client.send("\n");
			assertThat(text(client.take(GreetingProtocol.WELCOME.length()))).isEqualTo(GreetingProtocol.WELCOME);
			// nothing was left unread for HTTP/1.1: it waits for the request
			assertHello(client.exchange(GET));
		}
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void aConnectionTheFirstProtocolRefusesNeverReachesHttp(IoModel model, boolean tls) throws IOException {
		start(model, tls);
		try (RawClient client = connect()) {
			client.send("NOPE\r\n" + GET);
			assertThat(text(client.take(GreetingProtocol.GO_AWAY.length()))).isEqualTo(GreetingProtocol.GO_AWAY);
			client.expectClosed();
		}
		assertThat(this.served).as("requests served").hasValue(0);
		Leaks.assertServerHoldsNothing(this.server);
	}

	private void start(IoModel model, boolean tls) {
		this.tls = tls;
		TlsConfig config = tls ? TlsConfig.builder(() -> certificates.serverContext(TestCertificates.LOCALHOST))
			.handshakeTimeout(Duration.ofSeconds(5))
			.build() : null;
		this.server = Servers.start(model, (builder) -> tls ? builder.tls(config) : builder,
				(builder) -> builder.firstProtocol(GreetingProtocol::new), this.hello);
	}

	private RawClient connect() throws IOException {
		RawClient.Layer layer = this.tls ? RawClient.Layer.tls(certificates.clientContext(), "localhost")
				: RawClient.Layer.PLAIN;
		return RawClient.connect(this.server.port(), RawClient.READ_TIMEOUT, layer);
	}

	private void assertHello(RawResponse response) {
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.bodyText()).isEqualTo("hello secure=" + this.tls + " session=" + this.tls);
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.US_ASCII);
	}

}
