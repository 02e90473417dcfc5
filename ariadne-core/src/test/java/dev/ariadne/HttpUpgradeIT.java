package dev.ariadne;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.Response;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.RequestEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/1.1 upgrade ({@link Response#upgrade()}) in every model, plaintext and TLS: the 101 and
 * the bytes after it, those the client sent with its request first; no pause limit of the
 * request's body; large transfers both ways behind a slow reader, with bounded memory; the
 * client's close ending the tunnel and leaving nothing held; a forced stop closing it and telling
 * {@code onClose}; a graceful shutdown waiting for it; and one request event, for the handshake.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpUpgradeIT {

	private final Tunnels tunnels = new Tunnels();

	private final BlockingQueue<RequestEvent> events = new LinkedBlockingQueue<>();

	private final AtomicLong mostHeld = new AtomicLong();

	private final AtomicBoolean sampling = new AtomicBoolean(true);

	private AriadneServer server;

	static Stream<Arguments> listeners() {
		return Stream.of(IoModel.values()).flatMap((model) -> Stream.of(Arguments.of(model, false), Arguments.of(model, true)));
	}

	@AfterEach
	void stop() {
		this.sampling.set(false);
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void echoesWhatCameWithTheRequestThenWhatFollowsWithoutAPauseLimit(IoModel model, boolean tls) throws Exception {
		start(model, tls);
		try (RawClient client = this.tunnels.connect()) {
			client.send("GET /echo HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nsent early;");
			RawResponse switched = client.read();
			assertThat(switched.statusLine()).isEqualTo("HTTP/1.1 101 Switching Protocols");
			assertThat(switched.header("Upgrade")).as("the request's protocol, named for the handler").isEqualTo("echo");
			assertThat(switched.header("Connection")).isEqualTo("Upgrade");
			assertThat(switched.headers("Content-Length")).isEmpty();
			assertThat(switched.headers("Transfer-Encoding")).isEmpty();
			assertThat(Tunnels.text(client.take(11))).isEqualTo("sent early;");
			Tunnels.assertEchoes(client, "after the switch");
			// longer than request.header-timeout: the new protocol keeps its own time
			Thread.sleep(1200);
			Tunnels.assertEchoes(client, "still there");
			assertThat(this.server.stats().defences(Defence.SLOW_BODY, false)).as("bodies cut for a pause").isZero();
			assertThat(this.server.stats().connections("echo")).as("connections speaking the new protocol").isEqualTo(1);
			client.shutdownOutput();
			assertThat(client.readUntilClose()).as("nothing after the client's end").isEmpty();
		}
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void writesFromOtherThreadsReachTheClientWhileTheReaderWaits(IoModel model, boolean tls) throws Exception {
		start(model, tls);
		try (RawClient client = this.tunnels.open("/echo", "")) {
			Tunnels.assertEchoes(client, "hello");
			AsyncResponse tunnel = this.tunnels.opened.poll(10, TimeUnit.SECONDS);
			OutputStream out = this.tunnels.outputs.poll(10, TimeUnit.SECONDS);
			// the echo waits for the client, which says nothing: the server speaks first
			out.write("pushed;".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			assertThat(Tunnels.text(client.take(7))).isEqualTo("pushed;");
			CountDownLatch ran = new CountDownLatch(1);
			tunnel.execute(() -> {
				try {
					out.write("from a task;".getBytes(StandardCharsets.US_ASCII));
					out.flush();
				}
				catch (IOException ex) {
					tunnel.abort(ex);
				}
				ran.countDown();
			});
			assertThat(ran.await(10, TimeUnit.SECONDS)).as("the task ran while the reader waits").isTrue();
			assertThat(Tunnels.text(client.take(12))).isEqualTo("from a task;");
			Tunnels.assertEchoes(client, "and the echo goes on");
			client.shutdownOutput();
			assertThat(client.readUntilClose()).isEmpty();
		}
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void blockingReadsAndWritesInTheHandlerEchoUntilTheClientCloses(IoModel model, boolean tls) throws Exception {
		start(model, tls);
		try (RawClient client = this.tunnels.connect()) {
			client.send("GET /echo-blocking HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n");
			RawResponse switched = client.read();
			assertThat(switched.status()).isEqualTo(101);
			assertThat(switched.header("Upgrade")).as("the handler's own").isEqualTo("blocking-echo");
			Tunnels.assertEchoes(client, "one");
			Thread.sleep(1200);
			Tunnels.assertEchoes(client, "two");
			client.shutdownOutput();
			assertThat(client.readUntilClose()).isEmpty();
		}
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void largeTransfersBothWaysBehindASlowReaderStayWithinBoundedMemory(IoModel model, boolean tls) throws Exception {
		start(model, tls);
		sampleBuffers();
		int size = 32 * 1024 * 1024;
		byte[] payload = new byte[size];
		new Random(27).nextBytes(payload);
		try (RawClient client = Tunnels.switchTo(this.tunnels.connectSmallBuffered(), "/echo")) {
			AtomicLong sent = new AtomicLong();
			CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> send(client, payload, sent));
			// the client reads nothing yet: the echo's writes back up, it stops reading, and the
			// client's own writes stop in turn
			awaitStalled(sent, size);
			CRC32 received = new CRC32();
			long total = 0;
			while (total < size) {
				byte[] piece = client.take((int) Math.min(64 * 1024, size - total));
				received.update(piece);
				total += piece.length;
				if (total < size / 4) {
					// slow at first
					Thread.sleep(2);
				}
			}
			sending.get(60, TimeUnit.SECONDS);
			CRC32 expected = new CRC32();
			expected.update(payload);
			assertThat(received.getValue()).as("what came back").isEqualTo(expected.getValue());
			if (model == IoModel.EVENT_LOOP) {
				assertThat(this.tunnels.notWritable.get()).as("the writer was told to wait").isPositive();
			}
			assertThat(this.mostHeld.get()).as("most bytes held").isLessThan(2L * 1024 * 1024);
			client.shutdownOutput();
			assertThat(client.readUntilClose()).isEmpty();
		}
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void aClientThatResetsLeavesNothingHeld(IoModel model, boolean tls) throws Exception {
		start(model, tls);
		RawClient client = this.tunnels.open("/echo", "");
		Tunnels.assertEchoes(client, "hello");
		AsyncResponse tunnel = this.tunnels.opened.poll(10, TimeUnit.SECONDS);
		client.reset();
		// the reader's failure aborts the tunnel
		Await.until(tunnel::ended, () -> "tunnel still open");
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void aForcedStopClosesTheTunnelAndTellsIt(IoModel model, boolean tls) throws Exception {
		start(model, tls);
		try (RawClient client = this.tunnels.open("/echo", "")) {
			Tunnels.assertEchoes(client, "hello");
			AsyncResponse tunnel = this.tunnels.opened.poll(10, TimeUnit.SECONDS);
			CountDownLatch told = new CountDownLatch(1);
			tunnel.onClose(told::countDown);
			this.server.stop();
			assertThat(told.await(10, TimeUnit.SECONDS)).as("close listener ran").isTrue();
			assertThat(tunnel.closed()).isTrue();
			assertClosedByServer(client);
		}
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void aGracefulShutdownWaitsForTheTunnelToEnd(IoModel model, boolean tls) throws Exception {
		start(model, tls);
		try (RawClient client = this.tunnels.open("/echo", "")) {
			Tunnels.assertEchoes(client, "before");
			CompletableFuture<Boolean> shutdown = this.server.shutdownGracefullyInBackground(Duration.ofSeconds(30));
			int port = this.server.port();
			Await.until(() -> refuses(port), () -> "still accepting");
			// the tunnel lives on within the grace period
			Tunnels.assertEchoes(client, "during the shutdown");
			assertThat(shutdown).isNotDone();
			client.shutdownOutput();
			assertThat(client.readUntilClose()).isEmpty();
			assertThat(shutdown.get(20, TimeUnit.SECONDS)).as("drained").isTrue();
		}
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void theRequestEventReportsTheHandshakeWhileTheTunnelLivesOn(IoModel model, boolean tls) throws Exception {
		start(model, tls);
		try (RawClient client = this.tunnels.open("/echo", "")) {
			RequestEvent event = this.events.poll(10, TimeUnit.SECONDS);
			assertThat(event).as("the handshake's event, before the tunnel ends").isNotNull();
			assertThat(event.status()).isEqualTo(101);
			assertThat(event.route()).isEqualTo("/echo");
			Tunnels.assertEchoes(client, "hello");
			client.shutdownOutput();
			assertThat(client.readUntilClose()).isEmpty();
		}
		Leaks.assertServerHoldsNothing(this.server);
		assertThat(this.events).as("one event per exchange").isEmpty();
	}

	private void start(IoModel model, boolean tls) {
		this.server = this.tunnels.start(model, tls,
				(config) -> config.maxThreads(4).headerTimeout(Duration.ofMillis(500)),
				(builder) -> builder.requestListener(this.events::add));
	}

	private void sampleBuffers() {
		Thread sampler = new Thread(() -> {
			while (this.sampling.get()) {
				this.mostHeld.accumulateAndGet(this.server.stats().buffersUsed(), Math::max);
				Thread.onSpinWait();
			}
		}, "upgrade-sampler");
		sampler.setDaemon(true);
		sampler.start();
	}

	private static void send(RawClient client, byte[] payload, AtomicLong sent) {
		try {
			for (int offset = 0; offset < payload.length; offset += 16 * 1024) {
				int length = Math.min(16 * 1024, payload.length - offset);
				client.send(java.util.Arrays.copyOfRange(payload, offset, offset + length));
				sent.addAndGet(length);
			}
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	/** Waits until the sender makes no progress for a while before it is done: back-pressure. */
	private static void awaitStalled(AtomicLong sent, long size) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		long before = -1;
		while (System.nanoTime() < deadline) {
			long now = sent.get();
			assertThat(now).as("the client sent everything while nothing was read").isLessThan(size);
			if (now == before && now > 0) {
				return;
			}
			before = now;
			Thread.sleep(300);
		}
		throw new AssertionError("the sender never stalled; sent " + sent.get());
	}

	static void assertClosedByServer(RawClient client) {
		try {
			client.readUntilClose();
		}
		catch (IOException ex) {
			// a reset, or a TLS connection closed without close_notify: closed all the same
		}
	}

	static boolean refuses(int port) {
		try (RawClient probe = RawClient.connect(port)) {
			return false;
		}
		catch (IOException ex) {
			return true;
		}
	}

}
