package dev.ariadne;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Graceful shutdown under load, in every model: every request a handler started is answered
 * (and the last ones say {@code Connection: close}), no client sees a truncated response, the
 * shutdown completes within the grace period, and new connections are refused afterwards.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShutdownUnderLoadIT {

	private static final int CLIENTS = 16;

	private final AtomicInteger started = new AtomicInteger();

	private final AtomicInteger answered = new AtomicInteger();

	private final AtomicBoolean sawClose = new AtomicBoolean();

	private final CountDownLatch loaded = new CountDownLatch(CLIENTS * 3);

	private AriadneServer server;

	@AfterEach
	void cleanUp() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void answersEveryStartedRequestAndRefusesNewConnections(IoModel model) throws Exception {
		this.server = Servers.start(model, (config) -> config.maxThreads(CLIENTS),
				Route.get("/work", (request, response) -> {
					this.started.incrementAndGet();
					Thread.sleep(20);
					response.send("done");
				}));
		int port = this.server.port();
		ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
		List<Future<?>> running = new ArrayList<>();
		for (int i = 0; i < CLIENTS; i++) {
			running.add(clients.submit(() -> load(port)));
		}
		assertThat(this.loaded.await(20, TimeUnit.SECONDS)).as("load reached the server").isTrue();
		boolean drained = this.server.shutdownGracefully(Duration.ofSeconds(10));
		for (Future<?> client : running) {
			client.get(20, TimeUnit.SECONDS);
		}
		clients.shutdownNow();
		assertThat(drained).as("drained within the grace period").isTrue();
		assertThat(this.answered.get()).as("responses received").isEqualTo(this.started.get());
		assertThat(this.sawClose).as("a response announced the close").isTrue();
		assertThat(this.server.stats().openConnections()).isZero();
		assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> RawClient.connect(port).close());
	}

	/** Sends requests on kept-alive connections until the server closes them and refuses more. */
	private Void load(int port) {
		while (true) {
			RawClient client;
			try {
				client = RawClient.connect(port);
			}
			catch (IOException ex) {
				return null;
			}
			try (client) {
				while (true) {
					RawResponse response;
					try {
						response = client.exchange("GET /work HTTP/1.1\r\nHost: load\r\n\r\n");
					}
					catch (RawClient.IncompleteResponseException ex) {
						if (ex.partial() != null) {
							throw new AssertionError("truncated response: " + ex.getMessage(), ex);
						}
						break;
					}
					catch (IOException ex) {
						break;
					}
					if (response.status() == 503) {
						// a connection still waiting for a worker when the shutdown began is
						// refused before anything of it was read: no handler started for it
						assertThat(response.announcesClose()).isTrue();
						break;
					}
					AbstractProtocolIT.assertOk(response, "done");
					this.answered.incrementAndGet();
					this.loaded.countDown();
					if (response.announcesClose()) {
						this.sawClose.set(true);
						break;
					}
				}
			}
		}
	}

}
