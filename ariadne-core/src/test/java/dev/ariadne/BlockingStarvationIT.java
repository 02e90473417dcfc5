package dev.ariadne;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.PoolStats;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's bug, kept as a regression test: in the {@code blocking} model every kept-alive
 * connection pins a worker, so a pool sized for CPU parallelism serves only as many clients as
 * it has workers, and everyone else waits, unanswered, in the pool's queue.
 *
 * <p>Starvation is asserted through {@link AriadneServer#stats()}, never through timing: each
 * client sends one request and holds its connection; the test polls the statistics and the
 * sockets until a state is reached, and a state that is never reached fails at the deadline.
 * Which clients are answered is seen without blocking, by the response bytes waiting on their
 * sockets.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BlockingStarvationIT {

	private static final int CLIENTS = 20;

	private static final int WORKERS = 4;

	private final List<RawClient> clients = new ArrayList<>();

	/** Holds every response back until it opens; open unless a test closes it. */
	private CountDownLatch gate = new CountDownLatch(0);

	private AriadneServer server;

	@AfterEach
	void cleanUp() {
		this.gate.countDown();
		this.clients.forEach(RawClient::close);
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void servesOnlyFourOfTwentyKeepAliveClientsWhenPoolIsFour() throws IOException {
		start(WORKERS, 1.0);
		List<RawClient> waiting = connectClients();
		int served = 0;
		while (!waiting.isEmpty()) {
			List<RawClient> round = awaitAnswered(waiting, WORKERS, waiting.size() - WORKERS);
			for (RawClient client : round) {
				RawResponse response = client.read();
				AbstractProtocolIT.assertOk(response, "served");
				assertThat(response.announcesClose()).as("kept alive").isFalse();
			}
			waiting.removeAll(round);
			served += round.size();
			for (RawClient client : waiting) {
				assertThat(answered(client)).as("client %d answered while all workers are pinned", client.localPort())
					.isFalse();
			}
			assertPool(WORKERS, waiting.size());
			// the served clients let go: their workers come free for the next ones in the queue
			round.forEach(RawClient::close);
		}
		assertThat(served).isEqualTo(CLIENTS);
	}

	@Test
	void servesAllTwentyKeepAliveClientsWhenPoolIsTwoHundredFifty() throws IOException {
		start(250, 1.0);
		List<RawClient> waiting = connectClients();
		List<RawClient> answered = awaitAnswered(waiting, CLIENTS, 0);
		for (RawClient client : answered) {
			RawResponse response = client.read();
			AbstractProtocolIT.assertOk(response, "served");
			assertThat(response.announcesClose()).as("kept alive").isFalse();
		}
		assertPool(CLIENTS, 0);
	}

	@Test
	void servesAllTwentyClientsWithFourWorkersWhenReleaseThresholdIsOn() throws IOException {
		double threshold = 0.5;
		// the first responses wait until every client is connected: otherwise whether a
		// response sees a waiter depends on how fast the clients connect. (A client that
		// connects after every worker is pinned by an idle connection waits until one of
		// those answers again: the threshold acts on responses only.)
		this.gate = new CountDownLatch(1);
		start(WORKERS, threshold);
		List<RawClient> waiting = connectClients();
		Await.until(() -> pool().busyWorkers() == WORKERS && pool().queued() == CLIENTS - WORKERS,
				() -> "busy " + pool().busyWorkers() + ", queued " + pool().queued());
		this.gate.countDown();
		Await.until(() -> answered(waiting).size() == CLIENTS, () -> "answered " + answered(waiting).size()
				+ " of " + CLIENTS + ", busy " + pool().busyWorkers() + ", queued " + pool().queued());
		List<RawClient> answered = answered(waiting);
		int kept = 0;
		for (RawClient client : answered) {
			RawResponse response = client.read();
			AbstractProtocolIT.assertOk(response, "served");
			if (response.announcesClose()) {
				client.expectClosed();
			}
			else {
				kept++;
			}
		}
		// a response closes its connection only while the pool is busier than the threshold and
		// someone waits for the worker; once nobody waits, the last connections are kept: every
		// worker but none of the waiters stays pinned
		assertThat(kept).as("connections kept alive").isEqualTo(WORKERS);
		assertPool(kept, 0);
	}

	private void start(int maxThreads, double releaseThreshold) {
		ServerConfig config = ServerConfig.builder()
			.name("starvation")
			.ioModel(IoModel.BLOCKING)
			.address(RawClient.LOOPBACK)
			.port(0)
			.maxThreads(maxThreads)
			.keepAliveReleaseThreshold(releaseThreshold)
			// no held connection may time out while the test looks at it
			.keepAliveTimeout(Duration.ofSeconds(60))
			.build();
		this.server = AriadneServer.builder(config)
			.route(Route.get("/hello", (request, response) -> {
				awaitGate();
				response.send("served");
			}))
			.build();
		this.server.start();
	}

	private void awaitGate() {
		try {
			this.gate.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Opens every client; each sends one request and then holds its connection. */
	private List<RawClient> connectClients() throws IOException {
		List<RawClient> connected = new ArrayList<>();
		for (int i = 0; i < CLIENTS; i++) {
			// queued clients wait for their answer for the whole test: reads must outlast it
			RawClient client = RawClient.connect(this.server.port(), Duration.ofSeconds(60));
			this.clients.add(client);
			connected.add(client);
			client.send(AbstractProtocolIT.get("/hello"));
		}
		return connected;
	}

	/**
	 * Waits until exactly {@code count} of the clients have response bytes waiting and the pool
	 * reports {@code count} busy workers and {@code queued} queued connections.
	 */
	private List<RawClient> awaitAnswered(List<RawClient> candidates, int count, int queued) {
		Await.until(() -> answered(candidates).size() == count && pool().busyWorkers() == count
				&& pool().queued() == queued,
				() -> "answered " + answered(candidates).size() + " of " + candidates.size() + ", busy "
						+ pool().busyWorkers() + ", queued " + pool().queued() + "; expected answered " + count
						+ ", busy " + count + ", queued " + queued);
		return answered(candidates);
	}

	private static List<RawClient> answered(List<RawClient> candidates) {
		List<RawClient> answered = new ArrayList<>();
		for (RawClient client : candidates) {
			if (answered(client)) {
				answered.add(client);
			}
		}
		return answered;
	}

	private static boolean answered(RawClient client) {
		try {
			return client.hasBytesWaiting();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Waits until the pool reports the given figures and every busy worker idles on a held
	 * connection. Where the state is already stable this returns at once; where connections are
	 * still closing it waits for their workers to come free.
	 */
	private void assertPool(int busy, int queued) {
		Await.until(() -> pool().busyWorkers() == busy && pool().queued() == queued
				&& this.server.stats().idleConnections() == busy,
				() -> "busy " + pool().busyWorkers() + ", queued " + pool().queued() + ", idle connections "
						+ this.server.stats().idleConnections() + "; expected busy " + busy + ", queued " + queued
						+ ", idle " + busy);
	}

	private PoolStats pool() {
		return this.server.stats().pool();
	}

}
