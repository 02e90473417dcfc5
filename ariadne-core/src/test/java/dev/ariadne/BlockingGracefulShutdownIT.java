package dev.ariadne;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.server.IoModel;
import dev.ariadne.RawClient.IncompleteResponseException;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Graceful shutdown of the {@code blocking} model, at socket level. The request in flight is a
 * handler blocked on a latch that the test opens, so that every step happens in a known order
 * and nothing depends on timing; the grace period is long enough never to be the reason a test
 * passes, except where its expiry is the point.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BlockingGracefulShutdownIT {

	private final CountDownLatch entered = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	private final List<RawClient> clients = new ArrayList<>();

	private final ExecutorService shutdownThread = Executors.newSingleThreadExecutor();

	private AriadneServer server;

	@AfterEach
	void cleanUp() {
		this.release.countDown();
		this.clients.forEach(RawClient::close);
		this.shutdownThread.shutdownNow();
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void completesRequestInFlightWithConnectionCloseAndClosesIdleConnectionAtOnce() throws Exception {
		start(8, Duration.ofSeconds(30));
		int port = this.server.port();
		RawClient idle = connect();
		AbstractProtocolIT.assertOk(idle.exchange(AbstractProtocolIT.get("/hello")), "hello");
		RawClient inFlight = connect();
		inFlight.send(AbstractProtocolIT.get("/blocked"));
		assertThat(this.entered.await(10, TimeUnit.SECONDS)).as("handler entered").isTrue();

		Future<Boolean> shutdown = this.shutdownThread.submit(() -> this.server.shutdownGracefully());

		// closed while the request in flight still holds the shutdown inside its grace period
		idle.expectClosed();
		assertThat(shutdown.isDone()).as("shutdown done while a request is in flight").isFalse();
		assertThatExceptionOfType(ConnectException.class).as("connecting after shutdown began")
			.isThrownBy(() -> RawClient.connect(port).close());

		this.release.countDown();
		RawResponse response = inFlight.read();
		AbstractProtocolIT.assertOk(response, "released");
		assertThat(response.header("Connection")).isEqualTo("close");
		inFlight.expectClosed();
		assertThat(shutdown.get(10, TimeUnit.SECONDS)).as("finished within the grace period").isTrue();
		assertThat(this.server.stats().openConnections()).isZero();
	}

	@Test
	void answersQueuedConnectionWith503WhenShutdownBegins() throws Exception {
		start(1, Duration.ofSeconds(30));
		RawClient inFlight = connect();
		inFlight.send(AbstractProtocolIT.get("/blocked"));
		assertThat(this.entered.await(10, TimeUnit.SECONDS)).as("handler entered").isTrue();
		RawClient queued = connect();
		queued.send(AbstractProtocolIT.get("/hello"));
		Await.until(() -> this.server.stats().pool().queued() == 1,
				() -> "queued " + this.server.stats().pool().queued());

		Future<Boolean> shutdown = this.shutdownThread.submit(() -> this.server.shutdownGracefully());

		AbstractProtocolIT.assertRefused(queued.read(), "HTTP/1.1 503 Service Unavailable");
		queued.expectClosed();
		this.release.countDown();
		RawResponse response = inFlight.read();
		AbstractProtocolIT.assertOk(response, "released");
		assertThat(response.header("Connection")).isEqualTo("close");
		assertThat(shutdown.get(10, TimeUnit.SECONDS)).as("finished within the grace period").isTrue();
	}

	@Test
	void aStopRightAfterABackgroundShutdownBeganCutsItShortAndSaysRequestsWereActive() throws Exception {
		start(8, Duration.ofSeconds(30));
		RawClient inFlight = connect();
		inFlight.send(AbstractProtocolIT.get("/blocked"));
		assertThat(this.entered.await(10, TimeUnit.SECONDS)).as("handler entered").isTrue();

		// as Spring Boot's shutdown does when its phase times out: stop at once, whether or not the
		// drain's thread has begun
		CompletableFuture<Boolean> shutdown = this.server.shutdownGracefullyInBackground(Duration.ofSeconds(30));
		this.server.stop();

		assertThat(shutdown.get(10, TimeUnit.SECONDS)).as("finished within the grace period").isFalse();
		assertThatExceptionOfType(IncompleteResponseException.class).isThrownBy(inFlight::read);
	}

	@Test
	void aStopRightAfterABackgroundShutdownOfAServerWithNoConnectionSaysItWasIdle() throws Exception {
		start(8, Duration.ofSeconds(30));
		try (RawClient client = RawClient.connect(this.server.port())) {
			AbstractProtocolIT.assertOk(client.exchange(AbstractProtocolIT.get("/hello")), "hello");
		}
		Await.until(() -> this.server.stats().openConnections() == 0,
				() -> "open connections " + this.server.stats().openConnections());

		CompletableFuture<Boolean> shutdown = this.server.shutdownGracefullyInBackground(Duration.ofSeconds(30));
		this.server.stop();

		assertThat(shutdown.get(10, TimeUnit.SECONDS)).as("finished within the grace period").isTrue();
	}

	@Test
	void closesRequestThatOutlivesGracePeriodWithoutResponse() throws Exception {
		start(8, Duration.ofMillis(200));
		RawClient inFlight = connect();
		inFlight.send(AbstractProtocolIT.get("/blocked"));
		assertThat(this.entered.await(10, TimeUnit.SECONDS)).as("handler entered").isTrue();

		// the handler is released only after the shutdown returned, so the grace period must end
		assertThat(this.server.shutdownGracefully()).as("finished within the grace period").isFalse();

		assertThatExceptionOfType(IncompleteResponseException.class).isThrownBy(inFlight::read)
			.withMessageContaining("before a response");
	}

	private void start(int maxThreads, Duration gracePeriod) {
		ServerConfig config = ServerConfig.builder()
			.name("shutdown")
			.ioModel(IoModel.BLOCKING)
			.address(RawClient.LOOPBACK)
			.port(0)
			.maxThreads(maxThreads)
			.keepAliveReleaseThreshold(1.0)
			.shutdownGracePeriod(gracePeriod)
			.build();
		this.server = AriadneServer.builder(config)
			.route(Route.get("/hello", (request, response) -> response.send("hello")))
			.route(Route.get("/blocked", (request, response) -> {
				this.entered.countDown();
				if (!this.release.await(20, TimeUnit.SECONDS)) {
					throw new IllegalStateException("The test never released the handler");
				}
				response.send("released");
			}))
			.build();
		this.server.start();
	}

	private RawClient connect() throws IOException {
		RawClient client = RawClient.connect(this.server.port());
		this.clients.add(client);
		return client;
	}

}
