package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.HandshakeOutcome;
import dev.ariadne.server.stats.TlsProtocol;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TLS under load, in every model: a thousand clients that open a connection and never finish
 * the handshake delay nobody and are closed at the handshake timeout; a certificate swapped
 * while clients keep connecting serves every new handshake from then on, without a failed
 * request and without dropping the connections already open.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsLoadIT {

	private static final TestCertificates certificates = TestCertificates.get();

	private static final int STALLED = 1000;

	private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

	private final List<Socket> stalled = new ArrayList<>();

	private final RawClient.Layer tls = RawClient.Layer.tls(certificates.clientContext(), "localhost");

	private AriadneServer server;

	private Leaks.Baseline baseline;

	@AfterEach
	void cleanUp() throws IOException {
		for (Socket socket : this.stalled) {
			socket.close();
		}
		if (this.server != null) {
			this.server.stop();
			Leaks.assertReleasedAfterStop(this.server, this.baseline);
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aThousandStalledHandshakesDelayNobodyAndCloseAtTheHandshakeTimeout(IoModel model) throws Exception {
		// blocking: a connection holds a worker from accept to close, its handshake included,
		// as an idle keep-alive connection does; the pool is sized for the stalled ones
		start(model, () -> certificates.serverContext(TestCertificates.LOCALHOST), STALLED + 100);
		for (int i = 0; i < STALLED; i++) {
			Socket socket = new Socket();
			this.stalled.add(socket);
			socket.connect(new InetSocketAddress(RawClient.LOOPBACK, this.server.port()), 10_000);
			if (i % 2 == 1) {
				socket.getOutputStream().write(ClientHellos.partial());
			}
		}
		Await.until(() -> this.server.stats().openConnections() >= STALLED,
				() -> "open " + this.server.stats().openConnections());
		long opened = System.nanoTime();
		for (int i = 0; i < 20; i++) {
			try (RawClient client = RawClient.connect(this.server.port(), Duration.ofSeconds(5), this.tls)) {
				AbstractProtocolIT.assertOk(client.exchange(AbstractProtocolIT.get("/hello")), "hello");
			}
		}
		Duration served = Duration.ofNanos(System.nanoTime() - opened);
		assertThat(served).as("the others were served before the stalled handshakes timed out: nobody waited "
				+ "for them").isLessThan(HANDSHAKE_TIMEOUT);
		Await.until(HANDSHAKE_TIMEOUT.plusSeconds(15), () -> this.server.stats().openConnections() == 0,
				() -> "open " + this.server.stats().openConnections());
		for (Socket socket : this.stalled) {
			assertClosedByServer(socket);
		}
		assertThat(this.server.stats().tlsHandshakes(HandshakeOutcome.TIMEOUT, TlsProtocol.UNKNOWN))
			.isEqualTo(STALLED);
		assertThat(this.server.stats().tlsHandshakes(HandshakeOutcome.SUCCESS, TlsProtocol.TLS_1_3)).isEqualTo(20);
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aReloadedCertificateServesNewHandshakesUnderLoadWithoutAFailure(IoModel model) throws Exception {
		AtomicReference<SSLContext> current = new AtomicReference<>(
				certificates.serverContext(TestCertificates.LOCALHOST));
		start(model, current::get, 200);
		X509Certificate original = certificates.certificate(TestCertificates.LOCALHOST);
		X509Certificate renewed = certificates.certificate(TestCertificates.RENEWED);
		AtomicBoolean stop = new AtomicBoolean();
		AtomicInteger requests = new AtomicInteger();
		AtomicLong swappedAt = new AtomicLong(Long.MAX_VALUE);
		Queue<String> problems = new ConcurrentLinkedQueue<>();
		ExecutorService clients = Executors.newFixedThreadPool(9);
		try (RawClient longLived = RawClient.connect(this.server.port(), Duration.ofSeconds(10), this.tls)) {
			List<Future<?>> running = new ArrayList<>();
			for (int c = 0; c < 8; c++) {
				running.add(clients.submit(() -> connectAgainAndAgain(stop, requests, swappedAt, renewed, problems)));
			}
			Await.until(() -> requests.get() > 200, () -> "requests " + requests.get());
			current.set(certificates.serverContext(TestCertificates.RENEWED));
			swappedAt.set(System.nanoTime());
			int before = requests.get();
			Await.until(() -> requests.get() > before + 400, () -> "requests " + requests.get());
			AbstractProtocolIT.assertOk(longLived.exchange(AbstractProtocolIT.get("/hello")), "hello");
			stop.set(true);
			for (Future<?> client : running) {
				client.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			stop.set(true);
			clients.shutdownNow();
		}
		assertThat(problems).as("failed requests, or new handshakes after the swap with the old certificate")
			.isEmpty();
		assertThat(original).isNotEqualTo(renewed);
		assertThat(this.server.stats().tlsHandshakes(HandshakeOutcome.FAILED, TlsProtocol.TLS_1_3)).isZero();
	}

	/** New connections, five keep-alive requests each, until told to stop; problems noted. */
	private void connectAgainAndAgain(AtomicBoolean stop, AtomicInteger requests, AtomicLong swappedAt,
			X509Certificate renewed, Queue<String> problems) {
		while (!stop.get()) {
			long started = System.nanoTime();
			try (SSLSocket socket = (SSLSocket) this.tls.over(plainSocket())) {
				X509Certificate served = (X509Certificate) socket.getSession().getPeerCertificates()[0];
				if (started - swappedAt.get() > 0 && !served.equals(renewed)) {
					problems.add("a handshake begun after the swap got " + served.getSubjectX500Principal());
				}
				RawClient client = RawClient.over(socket, Duration.ofSeconds(10));
				for (int r = 0; r < 5; r++) {
					RawResponse response = client.exchange(AbstractProtocolIT.get("/hello"));
					if (response.status() != 200) {
						problems.add("status " + response.status());
					}
					requests.incrementAndGet();
				}
			}
			catch (IOException | RuntimeException | AssertionError ex) {
				problems.add(ex.toString());
			}
		}
	}

	private Socket plainSocket() throws IOException {
		Socket socket = new Socket();
		socket.connect(new InetSocketAddress(RawClient.LOOPBACK, this.server.port()), 5000);
		socket.setSoTimeout(10_000);
		return socket;
	}

	private void start(IoModel model, Supplier<SSLContext> context, int threads) {
		Servers.assumeSupported(model);
		this.baseline = Leaks.baseline();
		TlsConfig tls = TlsConfig.builder(context).handshakeTimeout(HANDSHAKE_TIMEOUT).build();
		this.server = Servers.start(model,
				(config) -> config.tls(tls).maxThreads(threads).acceptBacklog(STALLED + 100),
				Route.get("/hello", (request, response) -> response.send("hello")));
	}

	/** The server closed the socket: a read ends the stream, or fails with a reset. */
	private static void assertClosedByServer(Socket socket) throws IOException {
		socket.setSoTimeout(5000);
		InputStream in = socket.getInputStream();
		try {
			byte[] scrap = new byte[256];
			while (in.read(scrap) >= 0) {
				// an alert, if any, before the end
			}
		}
		catch (SocketTimeoutException ex) {
			throw new AssertionError("a stalled handshake's connection is still open", ex);
		}
		catch (IOException ex) {
			// reset: closed too
		}
	}

}
