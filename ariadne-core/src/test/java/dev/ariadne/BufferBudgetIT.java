package dev.ariadne;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server-wide buffer budget ({@code buffers.budget}), at socket level: bodies read whole
 * and memory a handler reserves wait for the budget and are refused with 503 and
 * {@code Retry-After} when it stays spent, or 413 when they could never fit; a body read whole
 * up to a limit is refused with 413 beyond it; at the budget the event loop stops reading
 * connections that need a new input buffer and resumes once one is free; response bytes queued
 * for clients that do not read stay within it. A sampler checks the bytes held throughout.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BufferBudgetIT {

	private static final long BUDGET = 4L * 1024 * 1024;

	private static final int THREADS = 100;

	/**
	 * What the bytes held may exceed the budget by: the response buffer of each running
	 * exchange (8 KiB), counted but always granted, which the thread count bounds.
	 */
	private static final long RESPONSE_BUFFERS = THREADS * 8192L;

	private final CountDownLatch release = new CountDownLatch(1);

	private final AtomicInteger entered = new AtomicInteger();

	private final AtomicLong mostHeld = new AtomicLong();

	private final AtomicBoolean sampling = new AtomicBoolean(true);

	private final List<RawClient> clients = new ArrayList<>();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private AriadneServer server;

	@AfterEach
	void cleanUp() {
		this.release.countDown();
		this.sampling.set(false);
		this.clients.forEach(RawClient::close);
		this.threads.shutdownNow();
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void bodyReadWholeWaitsForTheBudgetThenGets503WithRetryAfter(IoModel model) throws Exception {
		start(model, BUDGET, Duration.ofMillis(500));
		int size = 2 * 1024 * 1024;
		RawClient holder = connect();
		CompletableFuture<RawResponse> held = post(holder, "/whole", size);
		Await.until(() -> this.entered.get() == 1, () -> "the first body was not read");
		// the first body holds 2 of the 3 MB that bodies may take: a second one does not fit
		RawResponse refused = post(connect(), "/whole", size).get(20, TimeUnit.SECONDS);
		AbstractProtocolIT.assertRefused(refused, "HTTP/1.1 503 Service Unavailable");
		assertThat(refused.header("Retry-After")).isEqualTo("1");
		this.release.countDown();
		AbstractProtocolIT.assertOk(held.get(20, TimeUnit.SECONDS), Integer.toString(size));
		// the first exchange gave its bytes back
		AbstractProtocolIT.assertOk(post(connect(), "/whole", size).get(20, TimeUnit.SECONDS), Integer.toString(size));
		assertThat(this.mostHeld.get()).as("most bytes held").isLessThanOrEqualTo(BUDGET + RESPONSE_BUFFERS);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void bodyReadWholeLargerThanTheBudgetCanHoldGets413(IoModel model) throws Exception {
		start(model, BUDGET, Duration.ofSeconds(5));
		RawResponse response = post(connect(), "/whole", (int) BUDGET).get(20, TimeUnit.SECONDS);
		AbstractProtocolIT.assertRefused(response, "HTTP/1.1 413 Content Too Large");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void bodyReadWholeUpToALimitRefusesALongerBodyWith413BeforeHoldingIt(IoModel model) throws Exception {
		start(model, BUDGET, Duration.ofSeconds(5));
		this.release.countDown();
		String atLimit = "a".repeat(1000);
		AbstractProtocolIT.assertOk(connect().exchange("POST /limited HTTP/1.1\r\nHost: budget\r\nContent-Length: 1000"
				+ "\r\n\r\n" + atLimit), "1000");
		AbstractProtocolIT.assertOk(connect().exchange("POST /limited HTTP/1.1\r\nHost: budget\r\n"
				+ "Transfer-Encoding: chunked\r\n\r\n" + chunked(atLimit, 300)), "1000");
		// a declared length over the limit is refused before the body is sent: by a client that
		// asks whether to send it, since a body that fits the input buffer is read before dispatch
		RawResponse declared = connect().exchange("POST /limited HTTP/1.1\r\nHost: budget\r\nContent-Length: 1001"
				+ "\r\nExpect: 100-continue\r\n\r\n");
		AbstractProtocolIT.assertRefused(declared, "HTTP/1.1 413 Content Too Large");
		assertThat(declared.bodyText()).contains("larger than the 1000 bytes allowed");
		// a chunked body is refused at its 1001st byte, wherever it ends
		RawResponse longer = connect().exchange("POST /limited HTTP/1.1\r\nHost: budget\r\n"
				+ "Transfer-Encoding: chunked\r\n\r\n" + chunked(atLimit + "b", 300));
		AbstractProtocolIT.assertRefused(longer, "HTTP/1.1 413 Content Too Large");
		assertThat(this.server.stats().buffersUsed()).as("bytes held once the exchanges ended")
			.isLessThan(BUDGET / 4);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void reservedMemoryWaitsForTheBudgetThenGets503AndMoreThanItHoldsGets413(IoModel model) throws Exception {
		start(model, BUDGET, Duration.ofMillis(500));
		RawClient holder = connect();
		holder.send("POST /reserve?bytes=" + (2 * 1024 * 1024) + " HTTP/1.1\r\nHost: budget\r\nContent-Length: 0\r\n\r\n");
		Await.until(() -> this.entered.get() == 1, () -> "the first reservation was not made");
		// the first exchange holds 2 of the 3 MB that bodies and reservations may take
		RawResponse refused = connect().exchange("POST /reserve?bytes=" + (2 * 1024 * 1024)
				+ " HTTP/1.1\r\nHost: budget\r\nContent-Length: 0\r\n\r\n");
		AbstractProtocolIT.assertRefused(refused, "HTTP/1.1 503 Service Unavailable");
		assertThat(refused.header("Retry-After")).isEqualTo("1");
		RawResponse never = connect().exchange("POST /reserve?bytes=" + BUDGET
				+ " HTTP/1.1\r\nHost: budget\r\nContent-Length: 0\r\n\r\n");
		AbstractProtocolIT.assertRefused(never, "HTTP/1.1 413 Content Too Large");
		this.release.countDown();
		AbstractProtocolIT.assertOk(holder.read(), "reserved");
		// given back when the exchange ended
		AbstractProtocolIT.assertOk(connect().exchange("POST /reserve?bytes=" + (2 * 1024 * 1024)
				+ " HTTP/1.1\r\nHost: budget\r\nContent-Length: 0\r\n\r\n"), "reserved");
		assertThat(this.server.stats().buffersUsed()).as("bytes held once the exchanges ended")
			.isLessThan(BUDGET / 4);
	}

	private static String chunked(String body, int size) {
		StringBuilder chunks = new StringBuilder();
		for (int i = 0; i < body.length(); i += size) {
			String chunk = body.substring(i, Math.min(body.length(), i + size));
			chunks.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
		}
		return chunks.append("0\r\n\r\n").toString();
	}

	@Test
	void eventLoopStopsReadingConnectionsThatNeedABufferAtTheBudgetAndResumes() throws Exception {
		// 1 MB: at most 64 input buffers of 16 KB, fewer with the response buffers
		start(IoModel.EVENT_LOOP, 1024 * 1024, Duration.ofSeconds(30));
		int count = 80;
		List<CompletableFuture<RawResponse>> answers = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			RawClient client = connect();
			// a head and the first byte of a body that the handler never reads until released:
			// the connection's input buffer is held while its request waits
			client.send("POST /hold HTTP/1.1\r\nHost: budget\r\nContent-Length: 2\r\n\r\nx");
			answers.add(CompletableFuture.supplyAsync(() -> {
				try {
					client.send("y");
					return client.read();
				}
				catch (IOException ex) {
					throw new IllegalStateException(ex);
				}
			}, this.threads));
		}
		Await.until(() -> this.server.stats().buffersUsed() > this.server.stats().buffersBudget() - 16 * 1024,
				() -> "bytes held: " + this.server.stats().buffersUsed());
		int dispatched = this.entered.get();
		assertThat(dispatched).as("requests read while the budget was spent").isLessThan(count);
		this.release.countDown();
		for (CompletableFuture<RawResponse> answer : answers) {
			AbstractProtocolIT.assertOk(answer.get(30, TimeUnit.SECONDS), "held");
		}
		assertThat(this.entered).as("requests read once buffers came free").hasValue(count);
		assertThat(this.mostHeld.get()).as("most bytes held").isLessThanOrEqualTo(1024 * 1024 + RESPONSE_BUFFERS);
	}

	@Test
	void responsesQueuedForClientsThatDoNotReadStayWithinTheBudget() throws Exception {
		start(IoModel.EVENT_LOOP, 1024 * 1024, Duration.ofSeconds(30));
		int count = 32;
		// more than the socket buffers of both sides hold, so that the rest waits in the server
		int size = 16 * 1024 * 1024;
		List<RawClient> readers = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			RawClient client = connect();
			client.send("GET /big?size=" + size + " HTTP/1.1\r\nHost: budget\r\nConnection: close\r\n\r\n");
			readers.add(client);
		}
		Await.until(() -> this.entered.get() == count, () -> "handlers entered: " + this.entered.get());
		// 32 queues of up to 64 KB each would be 2 MB: the writers wait for the budget instead
		long[] last = { -1 };
		Await.until(() -> {
			long used = this.server.stats().buffersUsed();
			boolean stable = used == last[0];
			last[0] = used;
			return stable && used > 512 * 1024;
		}, () -> "bytes held: " + this.server.stats().buffersUsed());
		for (RawClient reader : readers) {
			assertThat(reader.countUntilClose()).as("response head and body").isBetween((long) size, size + 512L);
		}
		assertThat(this.mostHeld.get()).as("most bytes held").isLessThanOrEqualTo(1024 * 1024 + RESPONSE_BUFFERS);
	}

	private void start(IoModel model, long budget, Duration headerTimeout) {
		this.server = Servers.start(model,
				(config) -> config.bufferBudget(budget).headerTimeout(headerTimeout).maxThreads(THREADS),
				Route.post("/whole", (request, response) -> {
					byte[] body = request.bodyBytes();
					this.entered.incrementAndGet();
					this.release.await();
					response.send(Integer.toString(body.length));
				}), Route.post("/limited", (request, response) -> {
					response.send(Integer.toString(request.bodyBytes(1000).length));
				}), Route.post("/reserve", (request, response) -> {
					request.reserveMemory(Long.parseLong(request.queryParam("bytes")));
					this.entered.incrementAndGet();
					this.release.await();
					response.send("reserved");
				}), Route.post("/hold", (request, response) -> {
					this.entered.incrementAndGet();
					this.release.await();
					request.body().transferTo(OutputStream.nullOutputStream());
					response.send("held");
				}), Route.get("/big", (request, response) -> {
					this.entered.incrementAndGet();
					int size = Integer.parseInt(request.queryParam("size"));
					byte[] chunk = new byte[64 * 1024];
					response.header("Content-Length", Integer.toString(size));
					try (OutputStream out = response.outputStream()) {
						for (int sent = 0; sent < size; sent += chunk.length) {
							out.write(chunk);
						}
					}
				}));
		Thread sampler = new Thread(() -> {
			while (this.sampling.get()) {
				this.mostHeld.accumulateAndGet(this.server.stats().buffersUsed(), Math::max);
				Thread.onSpinWait();
			}
		}, "budget-sampler");
		sampler.setDaemon(true);
		sampler.start();
	}

	private RawClient connect() throws IOException {
		RawClient client = RawClient.connect(this.server.port(), Duration.ofSeconds(30));
		this.clients.add(client);
		return client;
	}

	/** Sends a body on its own thread and reads the answer, which may come before the body is sent. */
	private CompletableFuture<RawResponse> post(RawClient client, String path, int size) throws IOException {
		client.send("POST " + path + " HTTP/1.1\r\nHost: budget\r\nContent-Length: " + size + "\r\n\r\n");
		CompletableFuture.runAsync(() -> {
			byte[] chunk = new byte[64 * 1024];
			try {
				for (int sent = 0; sent < size; sent += chunk.length) {
					client.send(chunk, Math.min(chunk.length, size - sent));
				}
			}
			catch (IOException ex) {
				// refused before it was all sent: the answer tells
			}
		}, this.threads);
		return CompletableFuture.supplyAsync(() -> {
			try {
				return client.read();
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}, this.threads);
	}

}
