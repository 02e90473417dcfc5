package dev.ariadne;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.Response;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Non-blocking reads and writes of a suspended exchange ({@link AsyncResponse#read},
 * {@link AsyncResponse#readable()}, {@link AsyncResponse#writable()}), in every model: a body
 * read as it arrives by callbacks, with no worker held between them in {@code event-loop} and
 * {@code virtual-threads}; a large response written without ever waiting, told when to go on;
 * a client that pauses too long answered 408; {@code 100 Continue} on the first read.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NonBlockingIoIT {

	private final List<RawClient> clients = new ArrayList<>();

	private final AtomicLong received = new AtomicLong();

	private final AtomicInteger notWritable = new AtomicInteger();

	private final AtomicLong mostHeld = new AtomicLong();

	private final AtomicBoolean sampling = new AtomicBoolean(true);

	private AriadneServer server;

	@AfterEach
	void cleanUp() {
		this.sampling.set(false);
		this.clients.forEach(RawClient::close);
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void readsABodyAsItArrivesWithoutHoldingAWorkerBetweenCallbacks(IoModel model) throws Exception {
		start(model, Duration.ofSeconds(20));
		RawClient client = connect();
		// a first chunk larger than any input buffer: the request is dispatched once one is full
		String first = "x".repeat(20_000);
		client.send("POST /read HTTP/1.1\r\nHost: nb\r\nTransfer-Encoding: chunked\r\n\r\n"
				+ Integer.toHexString(first.length()) + "\r\n" + first + "\r\n");
		StringBuilder sent = new StringBuilder(first);
		for (int i = 0; i < 3; i++) {
			String part = "part " + i + ";";
			client.send(Integer.toHexString(part.length()) + "\r\n" + part + "\r\n");
			sent.append(part);
			Await.until(() -> this.received.get() == sent.length(), () -> "received " + this.received.get());
			if (model != IoModel.BLOCKING) {
				Await.until(() -> this.server.stats().pool().busyWorkers() == 0,
						() -> "busy workers " + this.server.stats().pool().busyWorkers());
			}
		}
		client.send("0\r\n\r\n");
		AbstractProtocolIT.assertOk(client.read(), sent.toString());
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void sendsContinueOnTheFirstNonBlockingRead(IoModel model) throws Exception {
		start(model, Duration.ofSeconds(20));
		RawClient client = connect();
		client.send("POST /read HTTP/1.1\r\nHost: nb\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
		assertThat(client.read().statusLine()).isEqualTo("HTTP/1.1 100 Continue");
		AbstractProtocolIT.assertOk(client.send("hello").read(), "hello");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aClientThatPausesLongerThanTheHeaderTimeoutIsAnswered408(IoModel model) throws Exception {
		start(model, Duration.ofMillis(500));
		RawClient client = connect();
		client.send("POST /read HTTP/1.1\r\nHost: nb\r\nContent-Length: 100\r\n\r\n0123456789");
		AbstractProtocolIT.assertRefused(client.read(), "HTTP/1.1 408 Request Timeout");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void writesALargeResponseWithoutWaitingAndIsToldWhenToGoOn(IoModel model) throws Exception {
		start(model, Duration.ofSeconds(20));
		long size = 64L * 1024 * 1024;
		RawClient client = connect();
		client.send("GET /write?size=" + size + " HTTP/1.1\r\nHost: nb\r\nConnection: close\r\n\r\n");
		// the client reads nothing yet: the writer is told to wait, and holds no worker meanwhile
		Await.until(() -> this.notWritable.get() > 0, () -> "the writer was never told to wait");
		if (model != IoModel.BLOCKING) {
			Await.until(() -> this.server.stats().pool().busyWorkers() == 0,
					() -> "busy workers " + this.server.stats().pool().busyWorkers());
		}
		assertThat(client.countSlowly(256 * 1024, 0)).as("response head and body").isBetween(size, size + 512);
		assertThat(this.mostHeld.get()).as("most bytes held").isLessThan(2L * 1024 * 1024);
	}

	private void start(IoModel model, Duration headerTimeout) {
		this.server = Servers.start(model, (config) -> config.maxThreads(4).headerTimeout(headerTimeout),
				Route.post("/read", (request, response) -> readWithoutBlocking(response)),
				Route.get("/write", (request, response) -> writeWithoutBlocking(response,
						Long.parseLong(request.queryParam("size")))));
		Thread sampler = new Thread(() -> {
			while (this.sampling.get()) {
				this.mostHeld.accumulateAndGet(this.server.stats().buffersUsed(), Math::max);
				Thread.onSpinWait();
			}
		}, "nb-sampler");
		sampler.setDaemon(true);
		sampler.start();
	}

	/** Reads the body in callbacks, then echoes it: what a servlet ReadListener does. */
	private void readWithoutBlocking(Response response) {
		AsyncResponse async = response.suspend();
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		byte[] buffer = new byte[4096];
		Runnable onData = () -> {
			try {
				while (async.readable()) {
					int n = async.read(buffer, 0, buffer.length);
					if (n < 0) {
						response.send(body.toByteArray());
						async.complete();
						return;
					}
					body.write(buffer, 0, n);
					this.received.addAndGet(n);
				}
			}
			catch (IOException ex) {
				async.abort(ex);
			}
		};
		async.onReadable(onData);
		// the first turn, as a container calls onDataAvailable once the listener is set
		async.execute(onData);
	}

	/** Writes the body in callbacks while the stream is writable: what a WriteListener does. */
	private void writeWithoutBlocking(Response response, long size) {
		AsyncResponse async = response.suspend();
		response.header("Content-Length", Long.toString(size));
		OutputStream out = response.outputStream();
		byte[] chunk = new byte[64 * 1024];
		AtomicLong written = new AtomicLong();
		CountDownLatch done = new CountDownLatch(1);
		Runnable write = () -> {
			try {
				while (written.get() < size) {
					if (!async.writable()) {
						this.notWritable.incrementAndGet();
						return;
					}
					int n = (int) Math.min(chunk.length, size - written.get());
					out.write(chunk, 0, n);
					written.addAndGet(n);
				}
				if (done.getCount() > 0) {
					done.countDown();
					async.complete();
				}
			}
			catch (IOException ex) {
				async.abort(ex);
			}
		};
		async.onWritable(write);
		async.execute(write);
	}

	private RawClient connect() throws IOException {
		RawClient client = RawClient.connect(this.server.port(), Duration.ofSeconds(30));
		this.clients.add(client);
		return client;
	}

}
