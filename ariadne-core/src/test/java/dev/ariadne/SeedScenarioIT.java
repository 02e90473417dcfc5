package dev.ariadne;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.PoolStats;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's load test in every model with the seed's pool of 4 workers: 200 clients, each on
 * its own kept-alive connection, each sending a request and holding the connection. The blocking
 * model starves as before; the event loop and virtual threads answer every client, because an
 * idle connection costs them no worker. Asserted through the statistics and the sockets, not
 * timing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SeedScenarioIT {

	private static final int CLIENTS = 200;

	private static final int WORKERS = 4;

	private final List<RawClient> clients = new ArrayList<>();

	private AriadneServer server;

	@AfterEach
	void cleanUp() {
		this.clients.forEach(RawClient::close);
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void blockingModelServesOnlyItsFourWorkersOfTwoHundredClients() throws IOException {
		start(IoModel.BLOCKING);
		connectAndSend();
		PoolStats pool = this.server.stats().pool();
		Await.until(() -> pool.busyWorkers() == WORKERS && pool.queued() == CLIENTS - WORKERS,
				() -> "busy " + pool.busyWorkers() + ", queued " + pool.queued());
		Await.until(() -> answeredCount() == WORKERS, () -> answeredCount() + " clients answered");
		assertThat(answeredCount()).isEqualTo(WORKERS);
	}

	@ParameterizedTest
	@EnumSource(value = IoModel.class, names = { "EVENT_LOOP", "VIRTUAL_THREADS" })
	void modelsThatSpendNoWorkerOnIdleConnectionsAnswerEveryClient(IoModel model) throws IOException {
		start(model);
		connectAndSend();
		for (RawClient client : this.clients) {
			AbstractProtocolIT.assertOk(client.read(), "Hello");
		}
		// and a second round on the same, kept-alive connections
		for (RawClient client : this.clients) {
			client.send("GET / HTTP/1.1\r\nHost: seed\r\n\r\n");
		}
		for (RawClient client : this.clients) {
			AbstractProtocolIT.assertOk(client.read(), "Hello");
		}
		PoolStats pool = this.server.stats().pool();
		Await.until(() -> pool.busyWorkers() == 0 && pool.queued() == 0,
				() -> "busy " + pool.busyWorkers() + ", queued " + pool.queued());
		Await.until(() -> this.server.stats().idleConnections() == CLIENTS,
				() -> "idle " + this.server.stats().idleConnections());
		assertThat(this.server.stats().openConnections()).isEqualTo(CLIENTS);
	}

	private void start(IoModel model) {
		this.server = Servers.start(model,
				(config) -> config.maxThreads(WORKERS).keepAliveReleaseThreshold(1.0).acceptBacklog(CLIENTS),
				Route.get("/", (request, response) -> response.send("Hello")));
	}

	private void connectAndSend() throws IOException {
		for (int i = 0; i < CLIENTS; i++) {
			RawClient client = RawClient.connect(this.server.port());
			this.clients.add(client);
			client.send("GET / HTTP/1.1\r\nHost: seed\r\n\r\n");
		}
	}

	private int answeredCount() {
		int answered = 0;
		for (RawClient client : this.clients) {
			try {
				if (client.hasBytesWaiting()) {
					answered++;
				}
			}
			catch (IOException ex) {
				throw new AssertionError(ex);
			}
		}
		return answered;
	}

}
