package dev.ariadne;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bodies of any size with a small heap, in a server of its own ({@link ChildServer}, started
 * and stopped by PID): a 1 GiB upload through a route with {@code -Xmx256m}, a 100 MB response
 * to a slow reader with {@code -Xmx64m}, and issue 17's upload flood with {@code -Xmx256m} (100 clients each send 9 MB of a 9 MB
 * body to a handler that reads it whole, hold the rest, then finish). The server never runs
 * out of memory, answers every client (200, or 503 with {@code Retry-After}), answers a plain
 * {@code GET} during the flood, keeps the bytes it holds within its buffer budget, and stops
 * on SIGTERM.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class MemoryBoundIT {

	private static final long MIB = 1024 * 1024;

	/** What the bytes held may exceed the budget by: one 8 KiB response buffer per worker. */
	private static final long RESPONSE_BUFFERS = 200 * 8192L;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final List<RawClient> clients = new ArrayList<>();

	private ChildProcess child;

	@AfterEach
	void cleanUp() {
		this.clients.forEach(RawClient::close);
		this.threads.shutdownNow();
		if (this.child != null) {
			this.child.close();
		}
	}

	@Test
	void uploadOfOneGibibyteStreamsThroughARouteWithA256MegabyteHeap() throws Exception {
		this.child = ChildProcess.start(IoModel.EVENT_LOOP, 0, "256m", "max-body-size=" + 2048 * MIB);
		long size = 1024 * MIB;
		RawClient client = connect(Duration.ofSeconds(60));
		client.send("POST /count HTTP/1.1\r\nHost: child\r\nContent-Length: " + size + "\r\n\r\n");
		byte[] chunk = new byte[256 * 1024];
		for (int i = 0; i < chunk.length; i++) {
			chunk[i] = (byte) (i * 31 + 7);
		}
		CRC32 crc = new CRC32();
		for (long sent = 0; sent < size; sent += chunk.length) {
			client.send(chunk);
			crc.update(chunk);
		}
		AbstractProtocolIT.assertOk(client.read(), size + " " + Long.toHexString(crc.getValue()));
		Map<String, Long> stats = this.child.stats();
		assertThat(stats.get("peakBuffers")).as("most bytes held during the upload").isLessThan(4 * MIB);
		stop();
	}

	@Test
	void responseOfOneHundredMegabytesToASlowReaderKeepsTheHeapBounded() throws Exception {
		// a server that held the response would need more heap than it has
		this.child = ChildProcess.start(IoModel.EVENT_LOOP, 0, "64m");
		long size = 100 * MIB;
		RawClient client = connect(Duration.ofSeconds(60));
		client.send("GET /big?size=" + size + " HTTP/1.1\r\nHost: child\r\nConnection: close\r\n\r\n");
		long received = client.countSlowly(64 * 1024, 1);
		assertThat(received).as("response head and body").isBetween(size, size + 512);
		Map<String, Long> stats = this.child.stats();
		assertThat(stats.get("peakBuffers")).as("most bytes held while the client read slowly").isLessThan(4 * MIB);
		stop();
	}

	@Test
	void uploadFloodIsAnsweredWithinTheBudgetWithoutRunningOutOfMemory() throws Exception {
		this.child = ChildProcess.start(IoModel.EVENT_LOOP, 0, "256m");
		long budget = this.child.stats().get("budget");
		int clients = 100;
		int size = 9 * 1024 * 1024;
		CountDownLatch finish = new CountDownLatch(1);
		AtomicLong sent = new AtomicLong();
		List<CompletableFuture<RawResponse>> answers = new ArrayList<>();
		for (int i = 0; i < clients; i++) {
			RawClient client = connect(Duration.ofSeconds(120));
			client.send("POST /whole HTTP/1.1\r\nHost: child\r\nContent-Length: " + size + "\r\n\r\n");
			CompletableFuture.runAsync(() -> sendHoldingTheLastByte(client, size, sent, finish), this.threads);
			answers.add(CompletableFuture.supplyAsync(() -> read(client), this.threads));
		}
		// held: every client has sent what the server takes of its body, and waits
		awaitStable(sent);
		RawClient other = connect(Duration.ofSeconds(10));
		AbstractProtocolIT.assertOk(other.exchange("GET /hello HTTP/1.1\r\nHost: child\r\n\r\n"), "hello");
		Map<String, Long> held = this.child.stats();
		assertThat(held.get("buffers")).as("bytes held during the flood (%s)", held)
			.isGreaterThan(budget / 2)
			.isLessThanOrEqualTo(budget + RESPONSE_BUFFERS);
		assertThat(held.get("heapUsed")).as("heap in use after a collection during the flood (%s)", held)
			.isLessThanOrEqualTo(budget);
		finish.countDown();
		int ok = 0;
		int refused = 0;
		for (CompletableFuture<RawResponse> answer : answers) {
			RawResponse response = answer.get(120, TimeUnit.SECONDS);
			if (response.status() == 200) {
				assertThat(response.bodyText()).isEqualTo(Integer.toString(size));
				ok++;
			}
			else {
				AbstractProtocolIT.assertRefused(response, "HTTP/1.1 503 Service Unavailable");
				assertThat(response.header("Retry-After")).isEqualTo("1");
				refused++;
			}
		}
		Map<String, Long> stats = this.child.stats();
		System.out.printf("Upload flood: %d answered 200, %d answered 503; held during the flood %s; after %s%n", ok,
				refused, held, stats);
		assertThat(ok).as("bodies read whole").isPositive();
		assertThat(stats.get("peakBuffers")).as("most bytes held (%s)", stats)
			.isLessThanOrEqualTo(budget + RESPONSE_BUFFERS);
		assertThat(this.child.lines((line) -> line.contains("OutOfMemoryError"))).isEmpty();
		stop();
	}

	private void stop() throws InterruptedException {
		assertThat(this.child.isAlive()).as("child server alive; its output: %s", this.child.output()).isTrue();
		assertThat(this.child.terminate(Duration.ofSeconds(30))).as("child server stopped on SIGTERM").isNotNull();
		assertThat(this.child.lines((line) -> line.contains("OutOfMemoryError"))).isEmpty();
	}

	private RawClient connect(Duration readTimeout) throws IOException {
		RawClient client = RawClient.connect(this.child.port(), readTimeout);
		this.clients.add(client);
		return client;
	}

	private static void sendHoldingTheLastByte(RawClient client, int size, AtomicLong sent, CountDownLatch finish) {
		byte[] chunk = new byte[64 * 1024];
		try {
			int left = size - 1;
			while (left > 0) {
				int n = Math.min(chunk.length, left);
				client.send(chunk, n);
				sent.addAndGet(n);
				left -= n;
			}
			finish.await();
			client.send(chunk, 1);
		}
		catch (IOException ex) {
			// refused before the body was sent: the answer tells
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static RawResponse read(RawClient client) {
		try {
			return client.read();
		}
		catch (IOException ex) {
			throw new IllegalStateException("No answer: " + ex, ex);
		}
	}

	/** Waits until a count has not changed for a second: every client is held. */
	private static void awaitStable(AtomicLong count) {
		long[] last = { -1, System.nanoTime() };
		Await.until(Duration.ofSeconds(60), () -> {
			long now = System.nanoTime();
			long value = count.get();
			if (value != last[0]) {
				last[0] = value;
				last[1] = now;
				return false;
			}
			return now - last[1] > TimeUnit.SECONDS.toNanos(1);
		}, () -> "the clients kept sending: " + count.get() + " bytes");
	}

}
