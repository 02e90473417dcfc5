package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.Defence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that send their request slowly, or read their response slowly, in every model: a body
 * slower than {@code request.min-data-rate} is answered 408 once its grace of waiting is over; a
 * small body arriving slowly holds no worker in {@code event-loop} and no permit in
 * {@code virtual-threads} (it is read before the request is dispatched); and while a pool is
 * starved, the low-resources mode cuts off the clients that keep its workers waiting after
 * {@code low-resources.stall-timeout}, so that a well-behaved client is served long before the
 * usual timeouts. Each defence is counted on {@code ariadne.defences}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlowBodiesIT {

	private static final String UPLOAD_HEAD = "POST /upload HTTP/1.1\r\nHost: slow\r\nContent-Length: %d\r\n\r\n";

	private final List<Socket> clients = new ArrayList<>();

	private AriadneServer server;

	private Leaks.Baseline baseline;

	@AfterEach
	void cleanUp() throws IOException {
		for (Socket client : this.clients) {
			client.close();
		}
		if (this.server != null) {
			this.server.stop();
			Leaks.assertReleasedAfterStop(this.server, this.baseline);
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aBodyTrickledSlowerThanTheMinimumRateIsAnswered408OnceItsGraceIsOver(IoModel model) throws Exception {
		start(model, (config) -> config.minDataRate(1000).minDataRateGrace(Duration.ofSeconds(1)));
		try (RawClient client = RawClient.connect(this.server.port(), Duration.ofSeconds(10))) {
			client.send(UPLOAD_HEAD.formatted(10_000));
			long started = System.nanoTime();
			RawResponse response = null;
			// a byte every 100 ms: 10 bytes per second, a hundredth of the rate
			for (int i = 0; i < 100 && response == null; i++) {
				try {
					client.send("x");
				}
				catch (IOException ex) {
					break;
				}
				Thread.sleep(100);
				if (client.hasBytesWaiting()) {
					response = client.read();
				}
			}
			if (response == null) {
				response = client.read();
			}
			long millis = (System.nanoTime() - started) / 1_000_000;
			AbstractProtocolIT.assertRefused(response, "HTTP/1.1 408 Request Timeout");
			assertThat(response.bodyText()).isEqualTo(Answers.BODY_TOO_SLOW + "\n");
			assertThat(millis).as("time to the 408, with a grace of 1 s").isBetween(900L, 5000L);
		}
		assertThat(this.server.stats().defences(Defence.SLOW_BODY, false)).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(value = IoModel.class, names = { "EVENT_LOOP", "VIRTUAL_THREADS" })
	void smallBodiesArrivingSlowlyHoldNoWorkerAndArriveWhole(IoModel model) throws Exception {
		start(model, (config) -> config.maxThreads(2));
		int slow = 20;
		for (int i = 0; i < slow; i++) {
			Socket client = connect();
			client.getOutputStream().write((UPLOAD_HEAD.formatted(100) + "0123456789").getBytes(StandardCharsets.US_ASCII));
		}
		Await.until(() -> this.server.stats().openConnections() >= slow, () -> "open " + this.server.stats().openConnections());
		// the bodies are not there: their requests are not dispatched, and the two workers are free
		try (RawClient fresh = RawClient.connect(this.server.port())) {
			for (int i = 0; i < 5; i++) {
				AbstractProtocolIT.assertOk(fresh.exchange("GET /hello HTTP/1.1\r\nHost: fresh\r\n\r\n"), "hello");
			}
		}
		// the worker that wrote the last response counts as busy until its task has returned, a
		// moment after the client read it: wait for that moment. A slow body dispatched early
		// would hold its worker until the rest of it comes, below, long after this deadline
		Await.until(Duration.ofSeconds(2), () -> this.server.stats().pool().busyWorkers() == 0,
				() -> "workers busy while " + slow + " bodies trickle: " + this.server.stats().pool().busyWorkers());
		for (Socket client : this.clients) {
			client.getOutputStream().write("x".repeat(90).getBytes(StandardCharsets.US_ASCII));
		}
		for (Socket client : this.clients) {
			RawResponse response = RawClient.over(client, Duration.ofSeconds(10)).read();
			AbstractProtocolIT.assertOk(response, "100 bytes");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void bodiesInPiecesAndPipelinedAreReadWhole(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		try (RawClient client = RawClient.connect(this.server.port())) {
			String chunked = "POST /upload HTTP/1.1\r\nHost: slow\r\nTransfer-Encoding: chunked\r\n\r\n";
			String[] pieces = { UPLOAD_HEAD.formatted(30), "0123456789", "0123456789", "0123456789" + chunked + "5\r",
					"\nhello\r\n", "3;ext=1\r\nabc\r\n0\r\nTrailer: t\r", "\n\r\n" };
			for (String piece : pieces) {
				client.send(piece);
				Thread.sleep(50);
			}
			AbstractProtocolIT.assertOk(client.read(), "30 bytes");
			AbstractProtocolIT.assertOk(client.read(), "8 bytes");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void whileThePoolIsStarvedTheLowResourcesModeCutsOffBodiesThatKeepItsWorkersWaiting(IoModel model) throws Exception {
		// bodies larger than any buffer: in every model their handlers read them, holding workers
		start(model, (config) -> config.maxThreads(2).minDataRate(0).headerTimeout(Duration.ofSeconds(30))
			.lowResourcesStallTimeout(Duration.ofMillis(500)));
		byte[] start = (UPLOAD_HEAD.formatted(10_000_000) + "x".repeat(64 * 1024)).getBytes(StandardCharsets.US_ASCII);
		for (int i = 0; i < 2; i++) {
			connect().getOutputStream().write(start);
		}
		Await.until(() -> this.server.stats().pool().busyWorkers() == 2, () -> "busy " + this.server.stats().pool().busyWorkers());
		long asked = System.nanoTime();
		try (RawClient fresh = RawClient.connect(this.server.port(), Duration.ofSeconds(10))) {
			AbstractProtocolIT.assertOk(fresh.exchange("GET /hello HTTP/1.1\r\nHost: fresh\r\n\r\n"), "hello");
		}
		long millis = (System.nanoTime() - asked) / 1_000_000;
		assertThat(millis).as("a well-behaved client's wait, with a stall timeout of 500 ms and a header timeout of 30 s")
			.isLessThan(10_000);
		// the mode cuts off clients while the pool is starved, not after: the first freed worker
		// takes the waiting request, and the other client keeps its usual limits
		assertThat(this.server.stats().defences(Defence.SLOW_BODY, true)).isPositive();
		RawResponse cut = RawClient.over(this.clients.get(0), Duration.ofSeconds(10)).read();
		if (!cut.bodyText().equals(Answers.STALLED + "\n")) {
			cut = RawClient.over(this.clients.get(1), Duration.ofSeconds(10)).read();
		}
		AbstractProtocolIT.assertRefused(cut, "HTTP/1.1 408 Request Timeout");
		assertThat(cut.bodyText()).isEqualTo(Answers.STALLED + "\n");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void whileThePoolIsStarvedTheLowResourcesModeCutsOffReadersThatTakeNothing(IoModel model) throws Exception {
		start(model, (config) -> config.maxThreads(2).keepAliveTimeout(Duration.ofSeconds(30))
			.lowResourcesStallTimeout(Duration.ofMillis(500)));
		for (int i = 0; i < 2; i++) {
			Socket reader = new Socket();
			reader.setReceiveBufferSize(16 * 1024);
			reader.connect(new InetSocketAddress(RawClient.LOOPBACK, this.server.port()), 5000);
			this.clients.add(reader);
			reader.getOutputStream().write("GET /large HTTP/1.1\r\nHost: reader\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
		}
		Await.until(() -> this.server.stats().pool().busyWorkers() == 2, () -> "busy " + this.server.stats().pool().busyWorkers());
		long asked = System.nanoTime();
		try (RawClient fresh = RawClient.connect(this.server.port(), Duration.ofSeconds(10))) {
			AbstractProtocolIT.assertOk(fresh.exchange("GET /hello HTTP/1.1\r\nHost: fresh\r\n\r\n"), "hello");
		}
		long millis = (System.nanoTime() - asked) / 1_000_000;
		assertThat(millis).as("a well-behaved client's wait, with a stall timeout of 500 ms and a write timeout of 30 s")
			.isLessThan(10_000);
		assertThat(this.server.stats().defences(Defence.SLOW_READER, true)).as("readers cut while starved")
			.isBetween(1L, 2L);
	}

	@ParameterizedTest
	@EnumSource(value = IoModel.class, names = "BLOCKING")
	void whileThePoolIsStarvedTheLowResourcesModeCutsOffHeadsThatPinWorkers(IoModel model) throws Exception {
		start(model, (config) -> config.maxThreads(2).headerTimeout(Duration.ofSeconds(30))
			.lowResourcesStallTimeout(Duration.ofMillis(500)));
		for (int i = 0; i < 2; i++) {
			connect().getOutputStream().write("GET /hello HTTP/1.1\r\nHost: slowloris\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
		}
		Await.until(() -> this.server.stats().pool().busyWorkers() == 2, () -> "busy " + this.server.stats().pool().busyWorkers());
		try (RawClient fresh = RawClient.connect(this.server.port(), Duration.ofSeconds(10))) {
			AbstractProtocolIT.assertOk(fresh.exchange("GET /hello HTTP/1.1\r\nHost: fresh\r\n\r\n"), "hello");
		}
		assertThat(this.server.stats().defences(Defence.SLOW_HEAD, true)).as("heads cut while starved").isBetween(1L, 2L);
	}

	private Socket connect() throws IOException {
		Socket client = new Socket();
		client.connect(new InetSocketAddress(RawClient.LOOPBACK, this.server.port()), 5000);
		this.clients.add(client);
		return client;
	}

	private void start(IoModel model, UnaryOperator<ServerConfig.Builder> config) {
		Servers.assumeSupported(model);
		this.baseline = Leaks.baseline();
		this.server = Servers.start(model, config, Route.get("/hello", (request, response) -> response.send("hello")),
				Route.post("/upload", (request, response) -> {
					long length = 0;
					byte[] buffer = new byte[8192];
					try (InputStream body = request.body()) {
						int n;
						while ((n = body.read(buffer)) >= 0) {
							length += n;
						}
					}
					response.send(length + " bytes");
				}),
				Route.get("/large", (request, response) -> {
					byte[] chunk = new byte[64 * 1024];
					try (OutputStream body = response.outputStream()) {
						for (int i = 0; i < 8192; i++) {
							body.write(chunk);
						}
					}
				}));
	}

}
