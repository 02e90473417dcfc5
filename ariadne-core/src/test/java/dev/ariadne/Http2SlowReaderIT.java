package dev.ariadne;

import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.Defence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/2 clients that ask for more than their windows and never give credit hold a worker per
 * stream while the stream's writer waits: in every model, while the pool is starved, the
 * low-resources mode ends such a wait after its stall timeout (1 s) instead of
 * {@code http2.write-timeout} (20 s), and ends the connection, so a client on another
 * connection waiting for a worker is answered in about a second; each cut is a
 * {@code slow-reader} with {@code low_resources}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2SlowReaderIT {

	private AriadneServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void writersWaitingForCreditFreeTheirWorkersWhileThePoolIsStarved(IoModel model) throws Exception {
		Route big = Route.get("/big", (request, response) -> {
			byte[] chunk = new byte[16 * 1024];
			response.header("Content-Length", Integer.toString(40 * chunk.length));
			try (OutputStream out = response.outputStream()) {
				for (int i = 0; i < 40; i++) {
					out.write(chunk);
				}
			}
		});
		Route hello = Route.get("/hello", (request, response) -> response.send("hello"));
		// two connections of one stream each (a connection's second stream would be refused while
		// its first waits: Http2MemoryIT); blocking: a worker reads each connection's frames
		int threads = (model == IoModel.BLOCKING) ? 4 : 2;
		this.server = Servers.start(model, (config) -> config.http2Enabled(true).maxThreads(threads), big, hello);
		int port = this.server.localAddress().getPort();
		try (Http2RawClient hog = Http2RawClient.connect(port); Http2RawClient hog2 = Http2RawClient.connect(port)) {
			hog.get(1, "/big").flush();
			hog2.get(1, "/big").flush();
			Await.until(Duration.ofSeconds(10), () -> this.server.stats().pool().busyWorkers() == threads,
					() -> this.server.stats().pool().busyWorkers() + " busy");
			long start = System.nanoTime();
			try (RawClient other = RawClient.connect(port, Duration.ofSeconds(15))) {
				AbstractProtocolIT.assertOk(other.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n"), "hello");
			}
			long waitedMillis = (System.nanoTime() - start) / 1_000_000;
			assertThat(waitedMillis).as("how long the other client waited").isLessThan(8_000);
			assertThat(this.server.stats().defences(Defence.SLOW_READER, true)).isGreaterThanOrEqualTo(1);
		}
	}

}
