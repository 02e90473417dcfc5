package dev.ariadne;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.zip.CRC32;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.RawResponse.Framing;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A bounded soak in every model: {@value #CLIENTS} clients for {@code soak.seconds} per model
 * (default {@value #DEFAULT_SECONDS}) on mixed routes (fixed and streamed bodies, echoed request
 * bodies, slow and failing handlers, {@code HEAD}, 404), sequential and pipelined, with
 * half-closes, abandoned responses and resets before, during and after requests.
 *
 * <p>Every request carries a unique id, and every response that arrives must carry that id and
 * a checksum of its body, in order, so a response delivered to the wrong request fails the run.
 * Afterwards the server holds nothing (connections, busy workers, pooled buffers), and once it
 * stops, the process's file descriptors and platform threads are back at their baseline.
 *
 * <p>The long version: {@code -Dsoak.seconds=300} (per model). Each run prints its figures.
 */
class SoakIT {

	static final int DEFAULT_SECONDS = 25;

	static final int CLIENTS = 8;

	private static final int SECONDS = Integer.getInteger("soak.seconds", DEFAULT_SECONDS);

	private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

	private static final int STREAM_PIECE = 7_919;

	/** Largest body of a request written with others before any response is read. */
	private static final int PIPELINED_BODY = 6_000;

	private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();

	private final LongAdder requests = new LongAdder();

	private final LongAdder verified = new LongAdder();

	private final LongAdder pipelined = new LongAdder();

	private final LongAdder connections = new LongAdder();

	private final LongAdder resets = new LongAdder();

	private final LongAdder abandoned = new LongAdder();

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void everyAnsweredRequestGetsItsOwnResponseAndNothingLeaks(IoModel model) {
		Servers.assumeSupported(model);
		// the failing route fails on purpose hundreds of times, each logged with its stack trace
		Logger exchangeLogger = Logger.getLogger("dev.ariadne.server.connection.HttpExchange");
		Level level = exchangeLogger.getLevel();
		exchangeLogger.setLevel(Level.SEVERE);
		try {
			assertTimeoutPreemptively(Duration.ofSeconds(SECONDS + 120), () -> soak(model));
		}
		finally {
			exchangeLogger.setLevel(level);
		}
	}

	private void soak(IoModel model) throws Exception {
		Leaks.Baseline before = Leaks.baseline();
		AriadneServer server = Servers.start(model, (config) -> config.name("soak").maxThreads(32), routes());
		long started = System.nanoTime();
		long deadline = started + TimeUnit.SECONDS.toNanos(SECONDS);
		ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int c = 0; c < CLIENTS; c++) {
				Random random = new Random(c * 7919L + model.ordinal());
				String name = "c" + c;
				running.add(clients.submit(() -> {
					clientLoop(server.port(), name, random, deadline);
					return null;
				}));
			}
			for (Future<?> client : running) {
				client.get(SECONDS + 60, TimeUnit.SECONDS);
			}
			clients.shutdown();
			assertThat(clients.awaitTermination(10, TimeUnit.SECONDS)).as("client threads ended").isTrue();
			assertThat(this.failures).as("wrong or missing responses").isEmpty();
			Leaks.assertServerHoldsNothing(server);
			long fdsRunning = Leaks.openFileDescriptors();
			int threadsRunning = Leaks.platformThreads();
			server.stop();
			Leaks.assertReleasedAfterStop(server, before);
			System.out.printf("soak %s: %d s, %d connections, %d requests (%d pipelined), %d responses verified, "
					+ "%d resets, %d responses abandoned; fds %d before, %d after the load, %d after stop; "
					+ "platform threads %d before, %d after the load, %d after stop%n", model.value(),
					TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), this.connections.sum(),
					this.requests.sum(), this.pipelined.sum(), this.verified.sum(), this.resets.sum(),
					this.abandoned.sum(), before.fileDescriptors(), fdsRunning, Leaks.openFileDescriptors(),
					before.platformThreads(), threadsRunning, Leaks.platformThreads());
			assertThat(this.verified.sum()).as("responses verified").isGreaterThan(CLIENTS * 10L);
		}
		finally {
			clients.shutdownNow();
			server.stop();
		}
	}

	// ---- clients

	private void clientLoop(int port, String name, Random random, long deadline) {
		long connection = 0;
		while (System.nanoTime() - deadline < 0 && this.failures.isEmpty()) {
			String prefix = name + "-" + (connection++);
			try {
				runConnection(port, prefix, random);
			}
			catch (Throwable ex) {
				this.failures.add(new AssertionError("connection " + prefix + ": " + ex, ex));
			}
		}
	}

	private void runConnection(int port, String prefix, Random random) throws IOException {
		RawClient client = RawClient.connect(port, READ_TIMEOUT);
		this.connections.increment();
		try {
			int scenario = random.nextInt(100);
			if (scenario < 30) {
				sequential(client, prefix, random);
			}
			else if (scenario < 60) {
				pipelined(client, prefix, random, false);
			}
			else if (scenario < 70) {
				pipelined(client, prefix, random, true);
			}
			else if (scenario < 80) {
				abandonResponse(client, prefix, random);
			}
			else if (scenario < 90) {
				resetAfterSending(client, prefix, random);
			}
			else if (scenario < 97) {
				resetInTheMiddleOfARequest(client, random);
			}
			else {
				resetBeforeSending(client);
			}
		}
		finally {
			client.close();
		}
	}

	private void sequential(RawClient client, String prefix, Random random) throws IOException {
		int count = 1 + random.nextInt(15);
		for (int i = 0; i < count; i++) {
			Exchange exchange = Exchange.random(prefix + "-" + i, random, i == count - 1 && random.nextInt(4) == 0,
					40_000);
			client.send(exchange.request());
			this.requests.increment();
			if (!readAndVerify(client, exchange)) {
				return;
			}
		}
	}

	/** Sends batches of requests in one write each; with {@code halfClose}, then ends its output. */
	private void pipelined(RawClient client, String prefix, Random random, boolean halfClose) throws IOException {
		int batches = halfClose ? 1 : 1 + random.nextInt(3);
		for (int b = 0; b < batches; b++) {
			List<Exchange> batch = new ArrayList<>();
			StringBuilder bytes = new StringBuilder();
			for (int i = 0, n = 2 + random.nextInt(7); i < n; i++) {
				Exchange exchange = Exchange.random(prefix + "-" + b + "-" + i, random, false, PIPELINED_BODY);
				batch.add(exchange);
				bytes.append(exchange.request());
			}
			client.send(bytes.toString());
			this.requests.add(batch.size());
			this.pipelined.add(batch.size());
			if (halfClose) {
				client.shutdownOutput();
			}
			for (Exchange exchange : batch) {
				if (!readAndVerify(client, exchange)) {
					return;
				}
			}
		}
		if (halfClose) {
			client.expectClosed();
		}
	}

	private void abandonResponse(RawClient client, String prefix, Random random) throws IOException {
		int size = 200_000 + random.nextInt(2_000_000);
		client.send(AbstractProtocolIT.get("/soak/" + prefix + "?size=" + size));
		this.requests.increment();
		client.peek(1 + random.nextInt(64 * 1024));
		this.abandoned.increment();
		if (random.nextBoolean()) {
			client.reset();
			this.resets.increment();
		}
	}

	private void resetAfterSending(RawClient client, String prefix, Random random) throws IOException {
		StringBuilder bytes = new StringBuilder();
		for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
			bytes.append(Exchange.random(prefix + "-" + i, random, false, PIPELINED_BODY).request());
			this.requests.increment();
		}
		client.send(bytes.toString());
		client.reset();
		this.resets.increment();
	}

	private void resetInTheMiddleOfARequest(RawClient client, Random random) throws IOException {
		if (random.nextBoolean()) {
			client.send("GET /soak/cut?size=10 HTTP/1.1\r\nHost: soak\r\nX-Cut: ");
		}
		else {
			client.send("POST /soak-echo/cut HTTP/1.1\r\nHost: soak\r\nContent-Length: 50000\r\n\r\n")
				.send(new byte[random.nextInt(20_000)]);
		}
		client.reset();
		this.resets.increment();
	}

	private void resetBeforeSending(RawClient client) {
		client.reset();
		this.resets.increment();
	}

	/**
	 * Reads the response to an exchange and checks that it is that exchange's.
	 * @return whether the connection carries further responses
	 */
	private boolean readAndVerify(RawClient client, Exchange exchange) throws IOException {
		RawResponse response = exchange.head() ? client.readHeadResponse() : client.read();
		String problem = exchange.check(response);
		if (problem != null) {
			throw new AssertionError("request " + exchange.id() + " (" + exchange.kind() + "): " + problem
					+ "; got " + response);
		}
		this.verified.increment();
		if (response.announcesClose()) {
			client.expectClosed();
			return false;
		}
		return true;
	}

	/** One request of the soak, with what its response must be. */
	private record Exchange(Kind kind, String id, int size, byte[] body, boolean close) {

		enum Kind {

			FIXED, STREAMED, HEAD, ECHO, CHUNKED_ECHO, SLOW, FAILING, MISSING

		}

		/** How often each kind is picked, in order; failures are rare, since each one logs. */
		private static final int[] WEIGHTS = { 20, 10, 8, 15, 10, 10, 2, 5 };

		/**
		 * Picks a request.
		 * @param maxBody the largest request body: small enough, where requests are written
		 * before responses are read, that the writes never wait for the server to read
		 */
		static Exchange random(String id, Random random, boolean close, int maxBody) {
			int roll = random.nextInt(80);
			int k = 0;
			while (roll >= WEIGHTS[k]) {
				roll -= WEIGHTS[k++];
			}
			Kind kind = Kind.values()[k];
			int size = switch (kind) {
				case FIXED, HEAD -> random.nextInt(2048);
				case STREAMED -> 8192 + random.nextInt(200_000);
				case SLOW -> random.nextInt(20);
				default -> 0;
			};
			byte[] body = new byte[(kind == Kind.ECHO || kind == Kind.CHUNKED_ECHO) ? random.nextInt(maxBody + 1) : 0];
			random.nextBytes(body);
			return new Exchange(kind, id, size, body, close);
		}

		boolean head() {
			return this.kind == Kind.HEAD;
		}

		String request() {
			String connection = this.close ? "Connection: close\r\n" : "";
			return switch (this.kind) {
				case FIXED, STREAMED -> "GET /soak/" + this.id + "?size=" + this.size + " HTTP/1.1\r\nHost: soak\r\n"
						+ connection + "\r\n";
				case HEAD -> "HEAD /soak/" + this.id + "?size=" + this.size + " HTTP/1.1\r\nHost: soak\r\n" + connection
						+ "\r\n";
				case ECHO -> "POST /soak-echo/" + this.id + " HTTP/1.1\r\nHost: soak\r\nContent-Length: "
						+ this.body.length + "\r\n" + connection + "\r\n" + latin1(this.body);
				case CHUNKED_ECHO -> "POST /soak-echo/" + this.id + " HTTP/1.1\r\nHost: soak\r\n"
						+ "Transfer-Encoding: chunked\r\n" + connection + "\r\n" + chunked(this.body);
				case SLOW -> "GET /soak-slow/" + this.id + "?ms=" + this.size + " HTTP/1.1\r\nHost: soak\r\n"
						+ connection + "\r\n";
				case FAILING -> "GET /soak-fail/" + this.id + " HTTP/1.1\r\nHost: soak\r\n" + connection + "\r\n";
				case MISSING -> "GET /missing/" + this.id + " HTTP/1.1\r\nHost: soak\r\n" + connection + "\r\n";
			};
		}

		/** Returns what is wrong with the response, or {@code null}. */
		String check(RawResponse response) {
			int expectedStatus = switch (this.kind) {
				case FAILING -> 500;
				case MISSING -> 404;
				default -> 200;
			};
			if (response.status() != expectedStatus) {
				return "status " + response.status() + " instead of " + expectedStatus;
			}
			if (this.close && !response.announcesClose()) {
				return "no Connection: close after a request that asked for it";
			}
			if (this.kind == Kind.FAILING || this.kind == Kind.MISSING) {
				return (this.kind == Kind.FAILING && !response.announcesClose()) ? "500 without Connection: close"
						: null;
			}
			if (!this.id.equals(response.header("X-Id"))) {
				return "the response of request " + response.header("X-Id");
			}
			byte[] expected = switch (this.kind) {
				case ECHO, CHUNKED_ECHO -> this.body;
				case SLOW -> this.id.getBytes(StandardCharsets.US_ASCII);
				case HEAD -> new byte[0];
				default -> content(this.id, this.size);
			};
			if (!Arrays.equals(response.body(), expected)) {
				return "a body of " + response.body().length + " bytes that is not this request's ("
						+ expected.length + " expected)";
			}
			if (this.kind == Kind.HEAD) {
				return (response.framing() == Framing.NONE
						&& String.valueOf(this.size).equals(response.header("Content-Length"))) ? null
								: "a HEAD response that does not describe the GET one";
			}
			return String.valueOf(crc(expected)).equals(response.header("X-Crc")) ? null
					: "checksum " + response.header("X-Crc") + " instead of " + crc(expected);
		}

		private static String chunked(byte[] body) {
			StringBuilder chunks = new StringBuilder();
			for (int from = 0; from < body.length; from += 4000) {
				int length = Math.min(4000, body.length - from);
				chunks.append(Integer.toHexString(length)).append("\r\n")
					.append(new String(body, from, length, StandardCharsets.ISO_8859_1))
					.append("\r\n");
			}
			return chunks.append("0\r\n\r\n").toString();
		}

		private static String latin1(byte[] bytes) {
			return new String(bytes, StandardCharsets.ISO_8859_1);
		}

	}

	// ---- the server's side

	/** The body of {@code GET /soak/{id}?size=n}: a function of the id, so that no two requests share one. */
	static byte[] content(String id, int size) {
		byte[] bytes = new byte[size];
		long state = id.hashCode() * 0x9E3779B97F4A7C15L + size;
		for (int i = 0; i < size; i++) {
			state = state * 6364136223846793005L + 1442695040888963407L;
			bytes[i] = (byte) (state >>> 56);
		}
		return bytes;
	}

	static long crc(byte[] bytes) {
		CRC32 crc = new CRC32();
		crc.update(bytes);
		return crc.getValue();
	}

	private static Route[] routes() {
		return new Route[] { Route.get("/soak/{id}", (request, response) -> {
			String id = request.pathVariable("id");
			byte[] body = content(id, Integer.parseInt(request.queryParam("size")));
			response.header("X-Id", id);
			response.header("X-Crc", String.valueOf(crc(body)));
			if (body.length <= 4096) {
				response.send(body);
				return;
			}
			try (OutputStream out = response.outputStream()) {
				for (int from = 0; from < body.length; from += STREAM_PIECE) {
					out.write(body, from, Math.min(STREAM_PIECE, body.length - from));
				}
			}
		}), Route.post("/soak-echo/{id}", (request, response) -> {
			byte[] body = request.bodyBytes();
			response.header("X-Id", request.pathVariable("id"));
			response.header("X-Crc", String.valueOf(crc(body)));
			response.send(body);
		}), Route.get("/soak-slow/{id}", (request, response) -> {
			Thread.sleep(Long.parseLong(request.queryParam("ms")));
			byte[] body = request.pathVariable("id").getBytes(StandardCharsets.US_ASCII);
			response.header("X-Id", request.pathVariable("id"));
			response.header("X-Crc", String.valueOf(crc(body)));
			response.send(body);
		}), Route.get("/soak-fail/{id}", (request, response) -> {
			response.header("X-Id", request.pathVariable("id"));
			throw new IllegalStateException("Failing on purpose for the soak");
		}) };
	}

}
