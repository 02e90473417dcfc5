package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.http.ParserLimits;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Request bodies stream to the handler in every model: the handler of a body larger than the
 * connection's input buffer gets its first bytes before the client has sent the rest (a smaller
 * one is read whole before the request is dispatched), a handler that does not read holds the
 * client back in its TCP window instead of making the server buffer the body, and pipelined
 * requests with bodies are answered in order.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamingBodyIT {

	/** Far more than any socket buffers: a server that buffered it would take it all at once. */
	private static final long LARGE_BODY = 256L * 1024 * 1024;

	/** More than any model's input buffer (16 KiB at most), which a body fills before dispatch. */
	private static final int BUFFERS = 20_000;

	private final CountDownLatch firstBytes = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	private final AtomicLong written = new AtomicLong();

	private AriadneServer server;

	@AfterEach
	void cleanUp() {
		this.release.countDown();
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void handlerReadsTheFirstBytesBeforeTheClientSendsTheRest(IoModel model) throws Exception {
		this.server = Servers.start(model, (config) -> config,
				Route.post("/first", (request, response) -> {
					InputStream body = request.body();
					byte[] first = body.readNBytes(5);
					this.firstBytes.countDown();
					byte[] rest = body.readAllBytes();
					response.send(new String(first, StandardCharsets.US_ASCII) + "|"
							+ new String(rest, StandardCharsets.US_ASCII));
				}));
		try (RawClient client = RawClient.connect(this.server.port())) {
			String rest = "world".repeat(BUFFERS);
			client.send("POST /first HTTP/1.1\r\nHost: stream\r\nContent-Length: " + (5 + 2 * rest.length()) + "\r\n\r\n"
					+ "hello" + rest);
			assertThat(this.firstBytes.await(10, TimeUnit.SECONDS)).as("handler read the first bytes").isTrue();
			client.send(rest);
			AbstractProtocolIT.assertOk(client.read(), "hello|" + rest + rest);
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void handlerThatDoesNotReadHoldsTheClientBackInsteadOfBufferingTheBody(IoModel model) throws Exception {
		this.server = Servers.start(model,
				(config) -> config.limits(new ParserLimits(8192, 16384, 100, LARGE_BODY)),
				Route.post("/held", (request, response) -> {
					this.firstBytes.countDown();
					this.release.await();
					long total = request.body().transferTo(OutputStream.nullOutputStream());
					response.send(Long.toString(total));
				}));
		try (RawClient client = RawClient.connect(this.server.port(), Duration.ofSeconds(30))) {
			client.send("POST /held HTTP/1.1\r\nHost: stream\r\nContent-Length: " + LARGE_BODY + "\r\n\r\n");
			CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> send(client, LARGE_BODY));
			assertThat(this.firstBytes.await(10, TimeUnit.SECONDS)).as("handler started").isTrue();
			// the client's writes stop once the socket buffers on both sides are full
			awaitStable(this.written);
			assertThat(this.written.get()).as("bytes the client could send while the handler did not read")
				.isLessThan(LARGE_BODY / 4);
			this.release.countDown();
			sending.get(30, TimeUnit.SECONDS);
			AbstractProtocolIT.assertOk(client.read(), Long.toString(LARGE_BODY));
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void answersPipelinedRequestsWithBodiesInOrder(IoModel model) throws Exception {
		this.server = Servers.start(model, (config) -> config,
				Route.post("/echo", (request, response) -> response.send(request.bodyBytes())));
		StringBuilder pipelined = new StringBuilder();
		for (int i = 0; i < 20; i++) {
			String body = "body-" + i + "-" + "x".repeat(i * 997);
			if (i % 2 == 0) {
				pipelined.append("POST /echo HTTP/1.1\r\nHost: stream\r\nContent-Length: ")
					.append(body.length())
					.append("\r\n\r\n")
					.append(body);
			}
			else {
				pipelined.append("POST /echo HTTP/1.1\r\nHost: stream\r\nTransfer-Encoding: chunked\r\n\r\n")
					.append(Integer.toHexString(body.length()))
					.append("\r\n")
					.append(body)
					.append("\r\n0\r\n\r\n");
			}
		}
		try (RawClient client = RawClient.connect(this.server.port())) {
			client.send(pipelined.toString());
			for (int i = 0; i < 20; i++) {
				AbstractProtocolIT.assertOk(client.read(), "body-" + i + "-" + "x".repeat(i * 997));
			}
		}
	}

	private void send(RawClient client, long length) {
		byte[] chunk = new byte[64 * 1024];
		try {
			for (long sent = 0; sent < length; sent += chunk.length) {
				client.send(chunk);
				this.written.addAndGet(chunk.length);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Waits until a count has not changed for half a second: the writer is blocked. */
	private static void awaitStable(AtomicLong count) {
		long[] last = { -1, System.nanoTime() };
		Await.until(Duration.ofSeconds(20), () -> {
			long now = System.nanoTime();
			long value = count.get();
			if (value != last[0]) {
				last[0] = value;
				last[1] = now;
				return false;
			}
			return now - last[1] > TimeUnit.MILLISECONDS.toNanos(500);
		}, () -> "the client kept sending: " + count.get() + " bytes");
	}

}
