package dev.ariadne;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/2 request content a handler has not read yet counts in the server's buffer budget, in
 * every model: a client that sends more content on its streams than the budget holds, to
 * handlers that do not read yet, gets 503 for the streams whose content did not fit, the others
 * are served whole, and everything goes back to the budget after.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2ContentBudgetIT {

	private static final int STREAMS = 15;

	private static final int CONTENT = 60 * 1024;

	private static final long BUDGET = 1024 * 1024;

	private final CountDownLatch release = new CountDownLatch(1);

	private final AtomicInteger arrived = new AtomicInteger();

	private AriadneServer server;

	@AfterEach
	void stop() {
		this.release.countDown();
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void contentBeyondTheBudgetIsRefusedWith503AndTheRestServed(IoModel model) throws Exception {
		Route hold = Route.post("/hold", (request, response) -> {
			this.arrived.incrementAndGet();
			this.release.await(30, TimeUnit.SECONDS);
			response.send("read " + request.body().readAllBytes().length);
		});
		this.server = Servers.start(model, (config) -> config.http2Enabled(true).bufferBudget(BUDGET).maxThreads(64),
				hold);
		try (Http2RawClient client = Http2RawClient.connect(this.server.port())) {
			for (int i = 0, stream = 1; i < STREAMS; i++, stream += 2) {
				client.post(stream, "/hold");
				for (int sent = 0; sent < CONTENT; sent += 15 * 1024) {
					client.data(stream, 15 * 1024, sent + 15 * 1024 == CONTENT);
				}
				client.flush();
			}
			Await.until(() -> this.arrived.get() == STREAMS, () -> this.arrived.get() + " handlers");
			// 900 KiB sent, more than the three quarters of the budget content may take
			Await.until(() -> this.server.stats().buffersUsed() > BUDGET / 2,
					() -> this.server.stats().buffersUsed() + " bytes held");
			assertThat(this.server.stats().buffersUsed()).isLessThanOrEqualTo(BUDGET + STREAMS * 8192);
			this.release.countDown();
			Map<Integer, Integer> statuses = client.statuses(STREAMS, Duration.ofSeconds(20));
			assertThat(statuses.values()).containsOnly(200, 503).contains(200, 503);
		}
		Leaks.assertServerHoldsNothing(this.server);
		Await.until(() -> this.server.stats().buffersUsed() < 64 * 1024,
				() -> this.server.stats().buffersUsed() + " bytes held after");
	}

}
