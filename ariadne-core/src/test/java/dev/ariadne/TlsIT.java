package dev.ariadne;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.HandshakeOutcome;
import dev.ariadne.server.stats.TlsProtocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TLS in every model, over real sockets, with certificates generated for the test: curl
 * verifying the server against the test CA; a TLS 1.1 client refused; client certificates under
 * {@code need} and {@code want}; SNI picking the certificate; plaintext HTTP answered 400;
 * renegotiation refused; ALPN; what a handler learns about the connection; the handshake
 * counts.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsIT {

	private static final TestCertificates certificates = TestCertificates.get();

	private AriadneServer server;

	private Leaks.Baseline baseline;

	@AfterEach
	void cleanUp() {
		if (this.server != null) {
			this.server.stop();
			Leaks.assertReleasedAfterStop(this.server, this.baseline);
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void curlVerifyingTheServerAgainstTheCaGets200(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		assumeTrue(new ProcessBuilder("curl", "--version").start().waitFor() == 0, "curl is not installed");
		int port = this.server.port();
		Process curl = new ProcessBuilder("curl", "-sS", "--max-time", "20", "--cacert",
				certificates.caCertificate().toString(), "--resolve", "localhost:" + port + ":127.0.0.1", "-w",
				"\n%{http_code} %{ssl_verify_result} %{http_version}", "https://localhost:" + port + "/hello")
			.redirectErrorStream(true)
			.start();
		String output = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(curl.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(curl.exitValue()).as(output).isZero();
		assertThat(output).isEqualTo("hello\n200 0 1.1");
		Await.until(() -> handshakes(HandshakeOutcome.SUCCESS, TlsProtocol.TLS_1_3) == 1, this::counts);
		assertThat(this.server.stats().tlsHandshakeNanos(HandshakeOutcome.SUCCESS, TlsProtocol.TLS_1_3)).isPositive();
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void handlerSeesTheConnectionsTlsSessionAndAlpnPicksHttp11(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		try (SSLSocket socket = connect(certificates.clientContext(), "localhost", List.of("h2", "http/1.1"))) {
			assertThat(socket.getApplicationProtocol()).isEqualTo("http/1.1");
			assertThat(exchange(socket, "/session")).isEqualTo("secure=true TLSv1.3 peer=none");
			assertThat(exchange(socket, "/session")).as("the second request of the connection")
				.isEqualTo("secure=true TLSv1.3 peer=none");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void refusesATls11ClientWithAProtocolVersionAlert(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(RawClient.LOOPBACK, this.server.port()), 5000);
			socket.setSoTimeout(5000);
			socket.getOutputStream().write(ClientHellos.tls11("localhost"));
			byte[] answer = readUntilClosed(socket.getInputStream());
			assertThat(answer).as("a TLS alert record").hasSizeGreaterThanOrEqualTo(7);
			assertThat(answer[0]).as("content type: alert").isEqualTo((byte) 21);
			assertThat(answer[5]).as("level: fatal").isEqualTo((byte) 2);
			assertThat(answer[6]).as("description: protocol_version").isEqualTo((byte) 70);
		}
		Await.until(() -> handshakes(HandshakeOutcome.FAILED, TlsProtocol.TLS_1_1) == 1, this::counts);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void refusesAClientWithoutCertificateUnderNeed(IoModel model) throws Exception {
		start(model, (tls) -> tls.clientAuth(TlsConfig.ClientAuth.NEED));
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
			try (SSLSocket socket = connect(certificates.clientContext(), "localhost", null)) {
				exchange(socket, "/session");
			}
		});
		try (SSLSocket socket = connect(certificates.clientContextWithCertificate(), "localhost", null)) {
			assertThat(exchange(socket, "/session")).isEqualTo("secure=true TLSv1.3 peer=CN=client");
		}
		Await.until(() -> handshakes(HandshakeOutcome.FAILED, TlsProtocol.TLS_1_3) == 1
				&& handshakes(HandshakeOutcome.SUCCESS, TlsProtocol.TLS_1_3) == 1, this::counts);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void servesAClientWithoutCertificateUnderWant(IoModel model) throws Exception {
		start(model, (tls) -> tls.clientAuth(TlsConfig.ClientAuth.WANT));
		try (SSLSocket socket = connect(certificates.clientContext(), "localhost", null)) {
			assertThat(exchange(socket, "/session")).isEqualTo("secure=true TLSv1.3 peer=none");
		}
		try (SSLSocket socket = connect(certificates.clientContextWithCertificate(), "localhost", null)) {
			assertThat(exchange(socket, "/session")).isEqualTo("secure=true TLSv1.3 peer=CN=client");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void sniPicksTheCertificateOfTheHostNameTheClientAsksFor(IoModel model) throws Exception {
		start(model, (tls) -> tls.serverName("a.test", () -> certificates.serverContext(TestCertificates.A_TEST))
			.serverName("*.wild.test", () -> certificates.serverContext(TestCertificates.WILDCARD)));
		assertThat(serverCertificate("a.test")).isEqualTo(certificates.certificate(TestCertificates.A_TEST));
		assertThat(serverCertificate("A.Test")).as("host names in any case")
			.isEqualTo(certificates.certificate(TestCertificates.A_TEST));
		assertThat(serverCertificate("x.wild.test")).isEqualTo(certificates.certificate(TestCertificates.WILDCARD));
		assertThat(serverCertificate("localhost")).isEqualTo(certificates.certificate(TestCertificates.LOCALHOST));
		assertThat(serverCertificate("other.test")).as("a name no context is mapped to")
			.isEqualTo(certificates.certificate(TestCertificates.LOCALHOST));
		assertThat(serverCertificate(null)).as("no SNI").isEqualTo(certificates.certificate(TestCertificates.LOCALHOST));
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void answersPlaintextHttpWith400SayingThePortExpectsTls(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		try (RawClient client = RawClient.connect(this.server.port())) {
			RawResponse response = client.exchange("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n");
			AbstractProtocolIT.assertRefused(response, "HTTP/1.1 400 Bad Request");
			assertThat(response.bodyText()).isEqualTo(Answers.TLS_REQUIRED + "\n");
			client.expectClosed();
		}
		Await.until(() -> handshakes(HandshakeOutcome.PLAINTEXT, TlsProtocol.UNKNOWN) == 1, this::counts);
		try (SSLSocket socket = connect(certificates.clientContext(), "localhost", null)) {
			assertThat(exchange(socket, "/hello")).as("TLS clients after it").isEqualTo("hello");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void answersPlaintextHttpWith400HoweverItArrives(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		String head = "POST /hello HTTP/1.1\r\nHost: localhost\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n"
				+ "Content-Length: 20000\r\nExpect: 100-continue\r\n" + "X-Padding: " + "p".repeat(6000) + "\r\n\r\n";
		// the first byte alone, then the rest of a large head, then a body nobody asked for
		try (RawClient client = RawClient.connect(this.server.port())) {
			client.send(head.substring(0, 1));
			Thread.sleep(100);
			client.send(head.substring(1));
			RawResponse response = client.read();
			AbstractProtocolIT.assertRefused(response, "HTTP/1.1 400 Bad Request");
			assertThat(response.bodyText()).isEqualTo(Answers.TLS_REQUIRED + "\n");
			try {
				client.send("b".repeat(20_000));
			}
			catch (IOException ex) {
				// closed already: the answer came first, which is what counts
			}
			client.expectClosed();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void refusesRenegotiationOnTls12(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		try (SSLSocket socket = connect(certificates.clientContext(), "localhost", null, "TLSv1.2")) {
			assertThat(exchange(socket, "/session")).isEqualTo("secure=true TLSv1.2 peer=none");
			assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
				socket.startHandshake();
				exchange(socket, "/session");
			});
		}
		try (SSLSocket socket = connect(certificates.clientContext(), "localhost", null, "TLSv1.2")) {
			assertThat(exchange(socket, "/hello")).as("a new connection").isEqualTo("hello");
		}
		assertThat(handshakes(HandshakeOutcome.SUCCESS, TlsProtocol.TLS_1_2)).isEqualTo(2);
	}

	// ---- helpers

	private void start(IoModel model, UnaryOperator<TlsConfig.Builder> tls) {
		Servers.assumeSupported(model);
		this.baseline = Leaks.baseline();
		TlsConfig config = tls
			.apply(TlsConfig.builder(() -> certificates.serverContext(TestCertificates.LOCALHOST))
				.handshakeTimeout(Duration.ofSeconds(5)))
			.build();
		this.server = Servers.start(model, (builder) -> builder.tls(config),
				Route.get("/hello", (request, response) -> response.send("hello")),
				Route.get("/session", (request, response) -> {
					SSLSession session = request.tlsSession();
					String peer;
					try {
						peer = ((X509Certificate) session.getPeerCertificates()[0]).getSubjectX500Principal().getName();
					}
					catch (javax.net.ssl.SSLPeerUnverifiedException ex) {
						peer = "none";
					}
					response.send("secure=" + request.secure() + " " + session.getProtocol() + " peer=" + peer);
				}));
	}

	private long handshakes(HandshakeOutcome outcome, TlsProtocol protocol) {
		return this.server.stats().tlsHandshakes(outcome, protocol);
	}

	private String counts() {
		StringBuilder counts = new StringBuilder("handshakes:");
		for (HandshakeOutcome outcome : HandshakeOutcome.values()) {
			for (TlsProtocol protocol : TlsProtocol.values()) {
				long count = handshakes(outcome, protocol);
				if (count > 0) {
					counts.append(' ').append(outcome.tag()).append('/').append(protocol.tag()).append('=').append(count);
				}
			}
		}
		return counts.toString();
	}

	private SSLSocket connect(SSLContext context, String serverName, List<String> alpn, String... protocols)
			throws IOException {
		Socket plain = new Socket();
		plain.connect(new InetSocketAddress(RawClient.LOOPBACK, this.server.port()), 5000);
		plain.setSoTimeout(5000);
		SSLSocket socket = (SSLSocket) context.getSocketFactory()
			.createSocket(plain, (serverName != null) ? serverName : "localhost", this.server.port(), true);
		SSLParameters parameters = socket.getSSLParameters();
		parameters.setServerNames((serverName != null) ? List.of(new SNIHostName(serverName)) : List.of());
		if (alpn != null) {
			parameters.setApplicationProtocols(alpn.toArray(new String[0]));
		}
		if (protocols.length > 0) {
			parameters.setProtocols(protocols);
		}
		socket.setSSLParameters(parameters);
		socket.startHandshake();
		return socket;
	}

	private X509Certificate serverCertificate(String serverName) throws IOException {
		try (SSLSocket socket = connect(certificates.clientContext(), serverName, null)) {
			return (X509Certificate) socket.getSession().getPeerCertificates()[0];
		}
	}

	/** Sends a GET and returns the body of its answer, which must be a 200 framed by length. */
	private static String exchange(SSLSocket socket, String target) throws IOException {
		socket.getOutputStream()
			.write(("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		socket.getOutputStream().flush();
		InputStream in = socket.getInputStream();
		StringBuilder head = new StringBuilder();
		while (!head.toString().endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("closed before the answer's head: " + head);
			}
			head.append((char) b);
		}
		assertThat(head.toString()).startsWith("HTTP/1.1 200 ");
		String lower = head.toString().toLowerCase(java.util.Locale.ROOT);
		int at = lower.indexOf("content-length:");
		int length = Integer.parseInt(lower.substring(at + 15, lower.indexOf('\r', at)).trim());
		return new String(in.readNBytes(length), StandardCharsets.UTF_8);
	}

	private static byte[] readUntilClosed(InputStream in) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try {
			in.transferTo(bytes);
		}
		catch (IOException ex) {
			// a reset after the alert: what arrived before it is the answer
		}
		return bytes.toByteArray();
	}

}
