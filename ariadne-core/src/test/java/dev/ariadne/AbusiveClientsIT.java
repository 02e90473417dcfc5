package dev.ariadne;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that hold a server without letting it finish anything, in every model, against a
 * server in a process of its own with a 256 MB heap: 10,000 slowloris connections (each sends
 * the start of a request head, then a byte now and then) and, at the same time, one client that
 * pipelines a million requests without reading a single response. The server's heap in use
 * must stay bounded, the pipelining client must be cut off once it has stopped reading for the
 * write timeout ({@code keep-alive.timeout}), other clients must be served, and SIGTERM must
 * stop the server with the slowloris connections still open: they get the grace period, and
 * are then aborted, which takes time in proportion to their number.
 *
 * <p>What "served" means differs by model, as DESIGN.md's table says. The event loop and
 * virtual threads hold an unfinished request without a worker, so a new client is answered
 * 200 while the 10,000 are held. The blocking model gives each connection a worker until its
 * head is complete: the slowloris connections pin every worker, and with
 * {@code threads.queue-capacity} bounded (100 here) the ones beyond the workers and the queue
 * are refused, and so is a new client (503 with {@code Retry-After}, at once, never a hang);
 * {@code request.header-timeout} is what ends the pinning. (With the default queue capacity,
 * {@code max-connections}, a new client would wait in the queue, unseen, until then: the
 * starvation this project shows.) The low-resources mode ends it sooner: while the pool is
 * starved it cuts each head that has kept a worker waiting for {@code low-resources.stall-timeout}
 * (a second), in waves, the queued connections taking the freed workers. Whether the new client
 * comes before the last wave (503) or after it (200, from a worker it left free) depends on this
 * machine's speed; both are right, and a 200 is accepted only when the mode has cut heads.
 *
 * <p>"Bounded" heap: the heap in use after a full collection grows by less than
 * {@value #HEAP_PER_CONNECTION} bytes per held connection and {@value #HEAP_SLACK} bytes
 * besides, whatever the pipelining client sends.
 *
 * <p>The clients live in this JVM and the server in its own, so neither process holds more
 * than about 10,000 descriptors, half its limit on the build machines.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AbusiveClientsIT {

	private static final int SLOWLORIS = 10_000;

	private static final int PIPELINED = 1_000_000;

	private static final int PIPELINED_PER_WRITE = 1_000;

	private static final Duration GRACE = Duration.ofSeconds(3);

	/** How long the pipelining client may stall the server's writes before it is cut off. */
	private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(3);

	/**
	 * After the grace period: aborting the 10,000 connections still open (the JDK's close and the
	 * kernel's FIN cost about 0.1 ms each on the selector thread: about a second here, twice that
	 * on a loaded machine), and the JVM's own exit.
	 */
	private static final Duration EXIT_SLACK = Duration.ofSeconds(5);

	/** Most heap one held connection may cost the server (its buffers, parser, thread). */
	private static final long HEAP_PER_CONNECTION = 24 * 1024;

	/** Most heap everything else may add: the pipelining client's bounded buffers, and noise. */
	private static final long HEAP_SLACK = 32L * 1024 * 1024;

	private static final byte[] PARTIAL_HEAD = "GET /hello HTTP/1.1\r\nHost: slowloris\r\nX-Slow: "
		.getBytes(StandardCharsets.US_ASCII);

	private static final String GET = "GET /hello HTTP/1.1\r\nHost: abuse\r\n\r\n";

	private final List<SocketChannel> slowloris = new ArrayList<>(SLOWLORIS);

	private ChildProcess child;

	@AfterEach
	void stop() {
		close(this.slowloris);
		if (this.child != null) {
			this.child.close();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void tenThousandSlowlorisAndAMillionUnreadPipelinedRequestsCostBoundedHeap(IoModel model) throws Exception {
		Servers.assumeSupported(model);
		this.child = ChildProcess.start(model, 0, "256m", "grace=" + GRACE.toMillis(), "backlog=1024",
				"queue-capacity=100", "header-timeout=120000", "keep-alive-timeout=" + WRITE_TIMEOUT.toMillis());
		int port = this.child.port();
		long heapBefore = this.child.stats().get("heapUsed");
		openSlowloris(port);
		Pipeliner pipeliner = new Pipeliner(port);
		pipeliner.start();
		pipeliner.awaitStalled();
		trickle();
		int held = this.slowloris.size();

		long asked = System.nanoTime();
		RawResponse answer;
		try (RawClient fresh = RawClient.connect(port, Duration.ofSeconds(10))) {
			answer = fresh.exchange(GET);
		}
		long answeredMillis = (System.nanoTime() - asked) / 1_000_000;
		Map<String, Long> stats = this.child.stats();
		long heapHeld = stats.get("heapUsed");
		int open = stats.get("open").intValue();
		System.out.printf("abusive clients, %s: %d slowloris held (%d connections open), a pipelining client wrote "
				+ "%,d requests (%d MB) before it stalled; heap in use after GC %d MB (before %d MB, %d bytes per "
				+ "open connection); heads cut by the low-resources mode %d; a new client answered %s in %d ms%n",
				model.value(), held, open, pipeliner.written.get() / GET.length(), pipeliner.written.get() >> 20,
				heapHeld >> 20, heapBefore >> 20, (heapHeld - heapBefore) / Math.max(1, open),
				stats.get("defences.slow-head.low-resources"), answer.statusLine(), answeredMillis);
		if (model == IoModel.BLOCKING && answer.status() == 200) {
			// the low-resources mode cut the heads that kept the starved pool's workers waiting
			// for a second: once the slowloris connections waiting behind them are all taken or
			// refused, the last wave's cut leaves workers free, and the new client one of them
			assertThat(stats.get("defences.slow-head.low-resources"))
				.as("heads the low-resources mode cut before a new client was served").isPositive();
			AbstractProtocolIT.assertOk(answer, "hello");
		}
		else if (model == IoModel.BLOCKING) {
			assertThat(answer.status()).as("a new client while every worker is pinned: %s", answer).isEqualTo(503);
			assertThat(answer.header("Retry-After")).as("Retry-After of %s", answer).isNotNull();
		}
		else {
			assertThat(held).as("slowloris connections the server holds").isEqualTo(SLOWLORIS);
			AbstractProtocolIT.assertOk(answer, "hello");
		}
		assertThat(answeredMillis).as("time to answer a new client").isLessThan(2000);
		assertThat(heapHeld - heapBefore).as("heap the held connections cost, after a full collection")
			.isLessThan(open * HEAP_PER_CONNECTION + HEAP_SLACK);
		assertThat(stats.get("fatalErrors")).as("errors the server's threads caught").isZero();

		// the pipelining client is cut off once it has read nothing for the write timeout
		Throwable cut = pipeliner.awaitEnd(WRITE_TIMEOUT.multipliedBy(4));
		assertThat(cut).as("how the pipelining client's writes ended").isInstanceOf(IOException.class);
		if (model != IoModel.BLOCKING) {
			try (RawClient fresh = RawClient.connect(port, Duration.ofSeconds(10))) {
				AbstractProtocolIT.assertOk(fresh.exchange(GET), "hello");
			}
		}

		Duration stopped = this.child.terminate(GRACE.plus(EXIT_SLACK).plusSeconds(10));
		assertThat(stopped).as("%s exited after SIGTERM; its output:%n%s", this.child, this.child.output())
			.isNotNull();
		System.out.printf("abusive clients, %s: the pipelining client cut off (%s); the server stopped in %d ms "
				+ "(grace period %d ms), the process exited %d ms after SIGTERM%n", model.value(), cut,
				this.child.stoppedMillis(), GRACE.toMillis(), stopped.toMillis());
		assertThat(stopped).as("time from SIGTERM to exit, slowloris connections open").isLessThan(
				GRACE.plus(EXIT_SLACK));
	}

	/** Connects the slowloris clients, each sending the start of a head. */
	private void openSlowloris(int port) throws IOException {
		InetSocketAddress server = new InetSocketAddress(RawClient.LOOPBACK, port);
		for (int i = 0; i < SLOWLORIS; i++) {
			SocketChannel channel = SocketChannel.open(server);
			this.slowloris.add(channel);
			channel.configureBlocking(false);
			channel.write(ByteBuffer.wrap(PARTIAL_HEAD));
		}
	}

	/** Sends one more byte of the head on every slowloris connection; drops those the server closed. */
	private void trickle() {
		byte[] one = { 'a' };
		Iterator<SocketChannel> channels = this.slowloris.iterator();
		while (channels.hasNext()) {
			SocketChannel channel = channels.next();
			try {
				channel.write(ByteBuffer.wrap(one));
			}
			catch (IOException ex) {
				close(List.of(channel));
				channels.remove();
			}
		}
	}

	private static void close(List<SocketChannel> channels) {
		for (SocketChannel channel : channels) {
			try {
				channel.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}
	}

	/** One client that writes a million pipelined requests and never reads a response. */
	private static final class Pipeliner extends Thread {

		final AtomicLong written = new AtomicLong();

		private final AtomicReference<Throwable> ended = new AtomicReference<>();

		private final Socket socket = new Socket();

		Pipeliner(int port) throws IOException {
			super("pipeliner");
			setDaemon(true);
			// small buffers, so the server's writes stall soon after the client stops reading
			this.socket.setReceiveBufferSize(16 * 1024);
			this.socket.connect(new InetSocketAddress(RawClient.LOOPBACK, port), 5000);
		}

		@Override
		public void run() {
			byte[] batch = GET.repeat(PIPELINED_PER_WRITE).getBytes(StandardCharsets.US_ASCII);
			try (Socket socket = this.socket) {
				OutputStream out = socket.getOutputStream();
				for (int sent = 0; sent < PIPELINED; sent += PIPELINED_PER_WRITE) {
					out.write(batch);
					this.written.addAndGet(batch.length);
				}
				this.ended.set(new AssertionError("all " + PIPELINED + " requests were taken"));
			}
			catch (IOException | RuntimeException ex) {
				this.ended.set(ex);
			}
		}

		/** Waits until the writes block (nothing written for a second) or end. */
		void awaitStalled() throws InterruptedException {
			long last = -1;
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			while (this.ended.get() == null && System.nanoTime() - deadline < 0) {
				long now = this.written.get();
				if (now == last) {
					return;
				}
				last = now;
				join(1000);
			}
		}

		/** Waits for the writes to end; returns how. */
		Throwable awaitEnd(Duration timeout) throws InterruptedException {
			join(timeout.toMillis());
			return this.ended.get();
		}

	}

}
