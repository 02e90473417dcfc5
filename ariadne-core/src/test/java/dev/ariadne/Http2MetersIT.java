package dev.ariadne;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.Http2Config;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.ServerStats;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the connection meters say of HTTP/2, in every model: an h2c connection is counted as
 * {@code h2c}, beside the HTTP/1.1 connections on the same port, and its streams whose handler
 * runs are active streams until their exchange ends; the streams that wait for a worker are
 * counted apart, as is a connection whose streams reach {@code http2.max-concurrent-streams}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2MetersIT {

	private final CountDownLatch release = new CountDownLatch(1);

	private final AtomicInteger running = new AtomicInteger();

	private AriadneServer server;

	/** Counts itself running, then holds its worker until the test releases it. */
	private final Route held = Route.get("/held", (request, response) -> {
		this.running.incrementAndGet();
		try {
			this.release.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		response.send("held");
	});

	@AfterEach
	void stop() {
		this.release.countDown();
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void h2cConnectionsAndTheirActiveStreamsAreCountedApartFromHttp11(IoModel model) throws Exception {
		Route hello = Route.get("/hello", (request, response) -> response.send("hello"));
		this.server = Servers.start(model, (config) -> config.http2Enabled(true).maxThreads(16), this.held, hello);
		ServerStats stats = this.server.stats();
		int port = this.server.localAddress().getPort();
		try (RawClient http11 = RawClient.connect(port);
				Http2RawClient h2c = Http2RawClient.connect(port)) {
			assertThat(http11.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n").status()).isEqualTo(200);
			for (int i = 0, stream = 1; i < 5; i++, stream += 2) {
				h2c.get(stream, "/held");
			}
			h2c.flush();
			Await.until(Duration.ofSeconds(20), () -> this.running.get() == 5, () -> this.running.get() + " running");
			assertThat(stats.connections("h2c")).isEqualTo(1);
			assertThat(stats.connections("http/1.1")).isEqualTo(1);
			assertThat(stats.connections("h2")).isZero();
			assertThat(stats.http2ActiveStreams()).isEqualTo(5);
			this.release.countDown();
			assertThat(h2c.statuses(5, Duration.ofSeconds(10))).hasSize(5);
			Await.until(Duration.ofSeconds(10), () -> stats.http2ActiveStreams() == 0,
					() -> stats.http2ActiveStreams() + " active streams");
			assertThat(stats.connections("h2c")).isEqualTo(1);
		}
		Await.until(Duration.ofSeconds(10), () -> stats.connections("h2c") == 0,
				() -> stats.connections("h2c") + " h2c connections");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void streamsWaitingForAWorkerAndAConnectionAtItsStreamLimitAreCounted(IoModel model) throws Exception {
		Http2Config fiveStreams = new Http2Config(5, 65_535, 1 << 20, 16_384, 0, 1000, 200, Duration.ofSeconds(30),
				Duration.ofSeconds(20));
		this.server = Servers.start(model, (config) -> config.http2Enabled(true).http2(fiveStreams).maxThreads(3),
				this.held);
		ServerStats stats = this.server.stats();
		int port = this.server.localAddress().getPort();
		try (Http2RawClient h2c = Http2RawClient.connect(port)) {
			for (int i = 0, stream = 1; i < 4; i++, stream += 2) {
				h2c.get(stream, "/held");
			}
			h2c.flush();
			// blocking: the connection's own worker reads its frames, so 2 of the 3 run streams
			int workers = (model == IoModel.BLOCKING) ? 2 : 3;
			Await.until(Duration.ofSeconds(20), () -> this.running.get() == workers && stats.http2QueuedStreams() == 4 - workers,
					() -> this.running.get() + " running, " + stats.http2QueuedStreams() + " queued");
			assertThat(stats.http2ActiveStreams()).isEqualTo(4);
			assertThat(stats.http2ConnectionsAtStreamLimit()).isZero();
			h2c.get(9, "/held").flush();
			Await.until(Duration.ofSeconds(20), () -> stats.http2ConnectionsAtStreamLimit() == 1,
					() -> stats.http2ActiveStreams() + " active streams");
			assertThat(stats.http2QueuedStreams()).isEqualTo(5 - workers);
			this.release.countDown();
			assertThat(h2c.statuses(5, Duration.ofSeconds(10))).hasSize(5);
			Await.until(Duration.ofSeconds(10), () -> stats.http2ActiveStreams() == 0,
					() -> stats.http2ActiveStreams() + " active streams");
			assertThat(stats.http2QueuedStreams()).isZero();
			assertThat(stats.http2ConnectionsAtStreamLimit()).isZero();
		}
	}

}
