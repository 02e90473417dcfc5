package dev.ariadne;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.RawClient.IncompleteResponseException;
import dev.ariadne.server.Request;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Clients and handlers that misbehave at every point of an exchange, over real sockets, in
 * every model: resets before, during and after a request; a half-close after the request; a
 * handler that throws before or after its response started, or never returns; thousands of
 * clients that stop in the middle of their header section. After each fault the server holds
 * nothing (no open connection, busy worker, queued task or borrowed buffer), and once stopped
 * none of its threads is alive and the JVM's threads and descriptors are back at the baseline.
 *
 * <p>Also covered elsewhere, in every model: a header value with CR or LF is refused and never
 * written ({@link AbstractProtocolIT#refusesHeaderValueWithLineBreakAndAnswers500}); a client
 * that stops reading a large response ({@link SlowClientsIT}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FaultInjectionIT {

	private static final int LARGE = 8 * 1024 * 1024;

	private static final int PARTIAL_HEADS = 2_000;

	private static final Duration HEADER_TIMEOUT = Duration.ofSeconds(4);

	/** Most heap one connection holding a partial head may cost, client side included. */
	private static final long HEAP_PER_PARTIAL_HEAD = 32 * 1024;

	private final Semaphore entered = new Semaphore(0);

	private final CountDownLatch exited = new CountDownLatch(1);

	private volatile CountDownLatch release = new CountDownLatch(1);

	private final List<RawClient> clients = new CopyOnWriteArrayList<>();

	private final List<Socket> sockets = new ArrayList<>();

	private AriadneServer server;

	private Leaks.Baseline baseline;

	@AfterEach
	void stopAndCheckEverythingIsReleased() throws IOException {
		this.release.countDown();
		this.clients.forEach(RawClient::close);
		for (Socket socket : this.sockets) {
			socket.close();
		}
		if (this.server != null) {
			this.server.stop();
			Leaks.assertReleasedAfterStop(this.server, this.baseline);
		}
	}

	// ---- resets

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void resetBeforeTheRequestLeavesNothingBehind(IoModel model) throws IOException {
		start(model, (config) -> config);
		for (int i = 0; i < 20; i++) {
			connect().reset();
		}
		assertServes();
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void resetDuringTheRequestLeavesNothingBehind(IoModel model) throws Exception {
		start(model, (config) -> config);
		for (int i = 0; i < 10; i++) {
			// inside the head
			connect().send("GET /hello HTTP/1.1\r\nHost: fault\r\nX-Cut: ").reset();
			// inside the body
			connect().send("POST /echo HTTP/1.1\r\nHost: fault\r\nContent-Length: 100000\r\n\r\n")
				.send(new byte[1000])
				.reset();
		}
		for (int i = 0; i < 3; i++) {
			// while the handler runs: it writes to a connection that is gone
			CountDownLatch gate = new CountDownLatch(1);
			this.release = gate;
			RawClient client = connect().send(get("/gated"));
			awaitEntered();
			client.reset();
			gate.countDown();
			// while the response is on its way
			RawClient reader = connect().send(get("/large"));
			reader.peek(64 * 1024);
			reader.reset();
		}
		assertServes();
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void resetAfterTheRequestLeavesNothingBehind(IoModel model) throws IOException {
		start(model, (config) -> config);
		for (int i = 0; i < 10; i++) {
			connect().send(get("/hello")).reset();
			connect().send(get("/large")).reset();
			RawClient pipelined = connect().send(get("/hello") + get("/hello"));
			AbstractProtocolIT.assertOk(pipelined.read(), "hello");
			pipelined.reset();
		}
		assertServes();
		Leaks.assertServerHoldsNothing(this.server);
	}

	// ---- half-close

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void halfCloseAfterTheRequestsStillGetsEveryResponse(IoModel model) throws Exception {
		start(model, (config) -> config);
		RawClient pipelined = connect();
		pipelined.send(get("/hello") + "POST /echo HTTP/1.1\r\nHost: fault\r\nContent-Length: 5\r\n\r\nhello");
		pipelined.shutdownOutput();
		AbstractProtocolIT.assertOk(pipelined.read(), "hello");
		AbstractProtocolIT.assertOk(pipelined.read(), "hello");
		pipelined.expectClosed();

		// the end of the input arrives while the handler runs
		RawClient waiting = connect();
		waiting.send(get("/gated"));
		waiting.shutdownOutput();
		awaitEntered();
		this.release.countDown();
		AbstractProtocolIT.assertOk(waiting.read(), "released");
		waiting.expectClosed();
		Leaks.assertServerHoldsNothing(this.server);
	}

	// ---- handlers that fail

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void handlerThatThrowsBeforeOrAfterItsResponseStartedLeavesNothingBehind(IoModel model) throws IOException {
		start(model, (config) -> config);
		for (String failure : List.of("runtime", "error", "checked")) {
			RawClient client = connect();
			AbstractProtocolIT.assertRefused(client.exchange(get("/throw?before=" + failure)),
					"HTTP/1.1 500 Internal Server Error");
			client.expectClosed();
		}
		RawClient reading = connect();
		reading.send("POST /throw-reading HTTP/1.1\r\nHost: fault\r\nContent-Length: 20\r\n\r\n0123456789abcdefghij");
		AbstractProtocolIT.assertRefused(reading.read(), "HTTP/1.1 500 Internal Server Error");
		reading.expectClosed();

		// after the whole response: it stands, and the connection closes after it
		RawClient sent = connect();
		AbstractProtocolIT.assertOk(sent.exchange(get("/throw-after-send")), "sent");
		sent.expectClosed();

		// in the middle of a streamed response: the body is cut short
		RawClient streaming = connect();
		streaming.send(get("/throw-after-flush"));
		IncompleteResponseException cut = assertThrows(IncompleteResponseException.class, streaming::read);
		assertThat(cut.partial()).as("what arrived before the close").isNotNull();
		assertThat(cut.partial().statusLine()).isEqualTo("HTTP/1.1 200 OK");
		assertThat(cut.partial().bodyText()).isEqualTo("partial");
		streaming.expectClosed();

		assertServes();
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void handlerThatNeverReturnsHoldsShutdownOnlyForTheGracePeriod(IoModel model) throws Exception {
		Duration grace = Duration.ofMillis(500);
		start(model, (config) -> config.shutdownGracePeriod(grace));
		int port = this.server.port();
		RawClient stuck = connect().send(get("/stuck"));
		awaitEntered();

		long start = System.nanoTime();
		boolean drained = this.server.shutdownGracefully();
		long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

		assertThat(drained).as("drained within the grace period").isFalse();
		assertThat(tookMillis).as("shutdown time in ms").isGreaterThanOrEqualTo(grace.toMillis())
			.isLessThan(grace.toMillis() + 5_000);
		assertThat(this.server.stats().openConnections()).as("open connections after the shutdown").isZero();
		assertThat(this.server.isRunning()).isFalse();
		assertThatExceptionOfType(IOException.class).as("the stuck request's connection ends without a response")
			.isThrownBy(stuck::read);
		assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> RawClient.connect(port).close());

		// the handler's thread cannot be stopped; once it returns, it is gone too
		this.release.countDown();
		assertThat(this.exited.await(10, TimeUnit.SECONDS)).as("the stuck handler returned").isTrue();
	}

	// ---- clients that stop sending

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void clientThatStopsInTheMiddleOfItsBodyIsAnswered408AtTheHeaderTimeout(IoModel model) throws IOException {
		start(model, (config) -> config.headerTimeout(Duration.ofMillis(500)));
		RawClient client = connect();
		client.send("POST /echo HTTP/1.1\r\nHost: fault\r\nContent-Length: 100\r\n\r\n0123456789");
		RawResponse response = client.read();
		AbstractProtocolIT.assertRefused(response, "HTTP/1.1 408 Request Timeout");
		assertThat(response.bodyText()).isEqualTo("Request body not received within the header timeout\n");
		client.expectClosed();
		client.close();
		Leaks.assertServerHoldsNothing(this.server);
	}

	// ---- thousands of partial heads

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void thousandsOfPartialHeadsAreAnswered408AtTheHeaderTimeoutWithBoundedMemory(IoModel model) throws Exception {
		Servers.assumeSupported(model);
		long heapBefore = Leaks.usedHeapAfterGc();
		// enough workers that every connection of the blocking model gets one at once
		start(model, (config) -> config.headerTimeout(HEADER_TIMEOUT).maxThreads(PARTIAL_HEADS).acceptBacklog(2048));
		byte[] partial = "GET /hello HTTP/1.1\r\nHost: fault\r\nX-Partial: an unfinished fi".getBytes(StandardCharsets.US_ASCII);
		long[] connecting = new long[PARTIAL_HEADS];
		long[] sent = new long[PARTIAL_HEADS];
		for (int i = 0; i < PARTIAL_HEADS; i++) {
			Socket socket = new Socket();
			connecting[i] = System.nanoTime();
			this.sockets.add(socket);
			socket.connect(new InetSocketAddress(RawClient.LOOPBACK, this.server.port()), 5000);
			socket.setSoTimeout((int) HEADER_TIMEOUT.toMillis() + 20_000);
			OutputStream out = socket.getOutputStream();
			out.write(partial);
			out.flush();
			sent[i] = System.nanoTime();
		}
		Await.until(() -> this.server.stats().acceptedConnections() == PARTIAL_HEADS, () -> Leaks.describe(this.server));
		// each connection's bytes are all parsed: none holds a pooled buffer for them (checked
		// well before the timeout, whose answers borrow buffers again)
		Await.until(HEADER_TIMEOUT.dividedBy(4), () -> this.server.borrowedBuffers() == 0,
				() -> Leaks.describe(this.server));
		long heapHeld = Leaks.usedHeapAfterGc() - heapBefore;
		assertThat(heapHeld).as("heap held for %d partial heads (%s)", PARTIAL_HEADS, Leaks.describe(this.server))
			.isLessThan(PARTIAL_HEADS * HEAP_PER_PARTIAL_HEAD);

		// the server's clock for a connection cannot start before the client began to connect;
		// the time after the write is no lower bound (a loaded machine may deschedule the client
		// between its write and reading the clock, while the server's clock already runs)
		long[] due = new long[PARTIAL_HEADS];
		int checkedOnTime = 0;
		for (int i = 0; i < PARTIAL_HEADS; i++) {
			due[i] = connecting[i] + HEADER_TIMEOUT.toNanos() - TimeUnit.MILLISECONDS.toNanos(20);
			if (System.nanoTime() < due[i]) {
				assertThat(this.sockets.get(i).getInputStream().available()).as("bytes from the server for "
						+ "connection %d before its header timeout", i).isZero();
				checkedOnTime++;
			}
		}
		for (int i = 0; i < PARTIAL_HEADS; i++) {
			// a read that starts before the deadline also tells when the answer came
			boolean beforeDue = System.nanoTime() < due[i];
			String response = readUntilClosed(this.sockets.get(i));
			if (beforeDue) {
				assertThat(System.nanoTime()).as("connection %d answered before the header timeout", i)
					.isGreaterThanOrEqualTo(due[i]);
			}
			assertThat(response).as("answer to partial head %d", i).startsWith("HTTP/1.1 408 Request Timeout\r\n")
				.containsPattern("\r\nDate: [^\r\n]+ GMT\r\n")
				.contains("\r\nConnection: close\r\n");
		}
		long lateMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent[PARTIAL_HEADS - 1]);
		assertThat(lateMillis).as("ms from the last partial head to the last answer")
			.isLessThan(HEADER_TIMEOUT.toMillis() + 10_000);
		assertThat(checkedOnTime).as("connections checked before their header timeout").isPositive();
		for (Socket socket : this.sockets) {
			socket.close();
		}
		Leaks.assertServerHoldsNothing(this.server);
	}

	/** Reads a short response and the end of the stream. */
	private static String readUntilClosed(Socket socket) throws IOException {
		InputStream in = socket.getInputStream();
		byte[] buffer = new byte[4096];
		int length = 0;
		int n;
		while (length < buffer.length && (n = in.read(buffer, length, buffer.length - length)) >= 0) {
			length += n;
		}
		return new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
	}

	// ---- helpers

	private void start(IoModel model, UnaryOperator<ServerConfig.Builder> changes) {
		Servers.assumeSupported(model);
		this.baseline = Leaks.baseline();
		this.server = Servers.start(model, (config) -> changes.apply(config.name("fault")), routes());
	}

	private Route[] routes() {
		return new Route[] { Route.get("/hello", (request, response) -> response.send("hello")),
				Route.post("/echo", (request, response) -> response.send(request.bodyBytes())),
				Route.get("/gated", (request, response) -> {
					CountDownLatch gate = this.release;
					this.entered.release();
					if (!gate.await(30, TimeUnit.SECONDS)) {
						throw new IllegalStateException("The test never opened the gate");
					}
					response.send("released");
				}),
				Route.get("/stuck", (request, response) -> {
					this.entered.release();
					awaitIgnoringInterrupts(this.release);
					this.exited.countDown();
					response.send("too late");
				}),
				Route.get("/large", (request, response) -> {
					byte[] piece = new byte[64 * 1024];
					try (OutputStream out = response.outputStream()) {
						for (int sent = 0; sent < LARGE; sent += piece.length) {
							out.write(piece);
						}
					}
				}),
				Route.get("/throw", (request, response) -> {
					response.header("X-Lost", "never sent");
					switch (request.queryParam("before")) {
						case "error" -> throw new StackOverflowError("Simulated by the test");
						case "checked" -> throw new FileNotFoundException("Simulated by the test");
						default -> throw new IllegalStateException("Simulated by the test");
					}
				}),
				Route.post("/throw-reading", (request, response) -> {
					request.body().readNBytes(10);
					throw new IllegalStateException("Simulated by the test, half-way through the body");
				}),
				Route.get("/throw-after-send", (request, response) -> {
					response.send("sent");
					throw new IllegalStateException("Simulated by the test, after the response");
				}),
				Route.get("/throw-after-flush", (request, response) -> {
					OutputStream out = response.outputStream();
					out.write("partial".getBytes(StandardCharsets.US_ASCII));
					out.flush();
					throw new IllegalStateException("Simulated by the test, in the middle of the body");
				}) };
	}

	/** Waits like a handler stuck for good: interrupts do not end the wait, only the test does. */
	private static void awaitIgnoringInterrupts(CountDownLatch latch) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (latch.getCount() > 0 && System.nanoTime() - deadline < 0) {
			try {
				latch.await(100, TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				// a handler that never returns ignores the shutdown's interrupt
			}
		}
	}

	private void awaitEntered() throws InterruptedException {
		assertThat(this.entered.tryAcquire(10, TimeUnit.SECONDS)).as("handler entered").isTrue();
	}

	/** One request on a new connection, which is then closed so that the server can go idle. */
	private void assertServes() throws IOException {
		try (RawClient client = RawClient.connect(this.server.port())) {
			AbstractProtocolIT.assertOk(client.exchange(get("/hello")), "hello");
		}
	}

	private RawClient connect() throws IOException {
		RawClient client = RawClient.connect(this.server.port());
		this.clients.add(client);
		return client;
	}

	private static String get(String target) {
		return AbstractProtocolIT.get(target);
	}

}
