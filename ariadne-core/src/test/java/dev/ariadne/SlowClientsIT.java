package dev.ariadne;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.Request;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that are slow on purpose, in every model: one that trickles its header section
 * (slowloris) is answered 408 and disconnected after {@code request.header-timeout}; one that
 * stops reading a large response does not make the server buffer it: the handler's writes
 * block after a bounded amount, and the connection is closed once no byte has been taken for
 * {@code keep-alive.timeout}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlowClientsIT {

	private static final int CHUNK = 64 * 1024;

	/** Far more than any socket buffers: a server that buffered it would write it all at once. */
	private static final long RESPONSE_SIZE = 512L * 1024 * 1024;

	private final AtomicLong written = new AtomicLong();

	private final CompletableFuture<Throwable> writeFailure = new CompletableFuture<>();

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
	void slowlorisIsAnswered408AndDisconnectedAfterTheHeaderTimeout(IoModel model) throws Exception {
		start(model);
		try (RawClient client = RawClient.connect(this.server.port(), Duration.ofSeconds(10))) {
			client.send("GET / HTTP/1.1\r\nHost: slow\r\n");
			String trickle = "X-Slow: " + "a".repeat(40);
			RawResponse response = null;
			for (int i = 0; i < trickle.length() && response == null; i++) {
				try {
					client.send(trickle.substring(i, i + 1));
				}
				catch (IOException ex) {
					break;
				}
				Thread.sleep(50);
				if (client.hasBytesWaiting()) {
					response = client.read();
				}
			}
			if (response == null) {
				response = client.read();
			}
			AbstractProtocolIT.assertRefused(response, "HTTP/1.1 408 Request Timeout");
			client.expectClosed();
		}
		Await.until(() -> this.server.stats().openConnections() == 0,
				() -> "open " + this.server.stats().openConnections());
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void clientThatStopsReadingCostsBoundedMemoryAndIsClosedAtTheTimeout(IoModel model) throws Exception {
		start(model);
		try (Socket socket = new Socket()) {
			socket.setReceiveBufferSize(64 * 1024);
			socket.connect(new InetSocketAddress(RawClient.LOOPBACK, this.server.port()), 5000);
			OutputStream out = socket.getOutputStream();
			out.write("GET /large HTTP/1.1\r\nHost: slow\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			// never read: the handler's writes must block, then fail when the server gives up
			Throwable failure = this.writeFailure.get(30, TimeUnit.SECONDS);
			assertThat(failure).isInstanceOf(IOException.class);
			assertThat(this.written.get()).as("bytes the handler wrote before the server stopped taking them")
				.isLessThan(32L * 1024 * 1024);
		}
		Await.until(() -> this.server.stats().openConnections() == 0,
				() -> "open " + this.server.stats().openConnections());
		Leaks.assertServerHoldsNothing(this.server);
	}

	private void start(IoModel model) {
		Servers.assumeSupported(model);
		this.baseline = Leaks.baseline();
		this.server = Servers.start(model,
				(config) -> config.headerTimeout(Duration.ofMillis(500)).keepAliveTimeout(Duration.ofSeconds(1)),
				Route.get("/", (request, response) -> response.send("Hello")),
				Route.get("/large", (request, response) -> {
					byte[] chunk = new byte[CHUNK];
					try (OutputStream body = response.outputStream()) {
						for (long sent = 0; sent < RESPONSE_SIZE; sent += CHUNK) {
							body.write(chunk);
							this.written.addAndGet(CHUNK);
						}
					}
					catch (IOException | RuntimeException ex) {
						this.writeFailure.complete(ex);
						throw ex;
					}
					this.writeFailure.complete(new AssertionError("the whole response was taken"));
				}));
	}

}
