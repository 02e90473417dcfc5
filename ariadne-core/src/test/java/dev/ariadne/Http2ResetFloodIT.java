package dev.ariadne;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.http2.ErrorCode;
import dev.ariadne.http2.FrameType;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.Defence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/2 clients that reset streams to make the server work for nothing, in every model: Rapid
 * Reset (CVE-2023-44487) ends the connection with {@code ENHANCE_YOUR_CALM} once more than 200
 * streams were reset before their response, and streams reset while they waited for a worker
 * never run their handler; a client that resets streams whose handlers still run cannot open
 * more than {@code SETTINGS_MAX_CONCURRENT_STREAMS} exchanges (the rest are refused with
 * {@code REFUSED_STREAM}). A well-behaved client on another connection is served meanwhile.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2ResetFloodIT {

	private final AtomicInteger slowRuns = new AtomicInteger();

	private final CountDownLatch release = new CountDownLatch(1);

	private AriadneServer server;

	private HttpClient client;

	@AfterEach
	void stop() throws Exception {
		this.release.countDown();
		if (this.client != null) {
			this.client.stop();
		}
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void rapidResetEndsTheConnectionAndResetStreamsDoNotRunTheirHandler(IoModel model) throws Exception {
		start(model, 8);
		try (Http2RawClient attacker = Http2RawClient.connect(port())) {
			int stream = 1;
			int sent = 0;
			try {
				for (int batch = 0; batch < 10; batch++) {
					for (int i = 0; i < 50; i++, stream += 2) {
						attacker.get(stream, "/slow").reset(stream, ErrorCode.CANCEL);
					}
					attacker.flush();
					sent += 50;
					assertThat(hello().getStatus()).as("a client on another connection").isEqualTo(200);
				}
			}
			catch (IOException ex) {
				// the server closed the connection after its GOAWAY
				assertThat(sent).as("streams sent and reset before the server closed").isGreaterThan(200);
			}
			Http2RawClient.Frame goAway = attacker.await(FrameType.GOAWAY, Duration.ofSeconds(10));
			assertThat(goAway).isNotNull().isNotEqualTo(Http2RawClient.CLOSED);
			assertThat(goAway.errorCode()).isEqualTo(ErrorCode.ENHANCE_YOUR_CALM.code());
			assertThat(attacker.awaitClosed(Duration.ofSeconds(10))).isTrue();
		}
		assertThat(this.server.stats().defences(Defence.HTTP2_RAPID_RESET, false)).isEqualTo(1);
		// 8 workers: most streams were reset before one was free for them
		assertThat(this.slowRuns.get()).isLessThan(100);
		assertThat(hello().getStatus()).isEqualTo(200);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void resetStreamsCountUntilTheirExchangeEndsSoNoMoreThanTheLimitRun(IoModel model) throws Exception {
		start(model, 200);
		try (Http2RawClient attacker = Http2RawClient.connect(port())) {
			for (int i = 0, stream = 1; i < 100; i++, stream += 2) {
				attacker.get(stream, "/held");
			}
			attacker.flush();
			Await.until(Duration.ofSeconds(20), () -> this.slowRuns.get() == 100, () -> this.slowRuns.get() + " handlers run");
			for (int i = 0, stream = 1; i < 100; i++, stream += 2) {
				attacker.reset(stream, ErrorCode.CANCEL);
			}
			attacker.flush();
			for (int i = 0, stream = 201; i < 50; i++, stream += 2) {
				attacker.get(stream, "/held");
			}
			attacker.flush();
			int refused = 0;
			for (int i = 0; i < 50; i++) {
				Http2RawClient.Frame reset = attacker.await(FrameType.RST_STREAM, Duration.ofSeconds(10));
				assertThat(reset).isNotNull().isNotEqualTo(Http2RawClient.CLOSED);
				if (reset.errorCode() == ErrorCode.REFUSED_STREAM.code()) {
					refused++;
				}
			}
			assertThat(refused).isEqualTo(50);
			assertThat(this.slowRuns.get()).as("handlers run").isEqualTo(100);
			assertThat(this.server.stats().defences(Defence.HTTP2_STREAMS, false)).isEqualTo(50);
			assertThat(hello().getStatus()).as("a client on another connection").isEqualTo(200);
		}
	}

	private void start(IoModel model, int threads) throws Exception {
		Route hello = Route.get("/hello", (request, response) -> response.send("hello"));
		Route slow = Route.get("/slow", (request, response) -> {
			this.slowRuns.incrementAndGet();
			sleep(50);
			response.send("slow");
		});
		Route held = Route.get("/held", (request, response) -> {
			this.slowRuns.incrementAndGet();
			try {
				this.release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			response.send("held");
		});
		this.server = Servers.start(model, (config) -> config.http2Enabled(true).maxThreads(threads), hello, slow, held);
		this.client = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
		this.client.start();
	}

	private ContentResponse hello() throws Exception {
		return this.client.newRequest(URI.create("http://127.0.0.1:" + port() + "/hello"))
			.timeout(10, TimeUnit.SECONDS)
			.send();
	}

	private int port() {
		return this.server.localAddress().getPort();
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
