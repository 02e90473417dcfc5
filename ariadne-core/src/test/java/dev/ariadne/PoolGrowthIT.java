package dev.ariadne;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The event loop's worker pool under the two loads that look alike to a pool, every worker busy:
 * requests that spin on a contended CPU, for which it keeps about a thread per core instead of
 * growing towards {@code threads.max} (more threads would only take turns on the same cores),
 * and requests that block, for which it grows at once so that they wait together.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolGrowthIT {

	private static final int CORES = Runtime.getRuntime().availableProcessors();

	private final ExecutorService clients = Executors.newCachedThreadPool();

	private AriadneServer server;

	@AfterEach
	void cleanUp() {
		this.clients.shutdownNow();
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void requestsThatSpinOnAContendedCpuKeepAboutAWorkerPerCore() throws Exception {
		assumeTrue(Files.isReadable(Path.of("/proc/pressure/cpu")),
				"the pool reads the CPU's pressure from /proc/pressure/cpu (Linux 4.20 and later)");
		Set<Thread> workers = ConcurrentHashMap.newKeySet();
		this.server = Servers.start(IoModel.EVENT_LOOP, (config) -> config.minThreads(0).maxThreads(256),
				Route.get("/spin", (request, response) -> {
					workers.add(Thread.currentThread());
					spin(TimeUnit.MICROSECONDS.toNanos(300));
					response.send("spun");
				}));
		// sixteen requests in flight per core, each a few hundred microseconds on the CPU: a pool
		// that grows whenever its workers are busy starts a thread for nearly each of them
		int connections = 16 * CORES;
		List<Future<Integer>> answered = new ArrayList<>();
		for (int i = 0; i < connections; i++) {
			answered.add(this.clients.submit(() -> {
				try (RawClient client = RawClient.connect(this.server.port())) {
					int ok = 0;
					for (int n = 0; n < 200; n++) {
						if (client.exchange("GET /spin HTTP/1.1\r\nHost: test\r\n\r\n").status() == 200) {
							ok++;
						}
					}
					return ok;
				}
			}));
		}
		for (Future<Integer> client : answered) {
			assertThat(client.get(50, TimeUnit.SECONDS)).isEqualTo(200);
		}
		assertThat(workers).as("workers that ran a request, with %d on %d cores in flight", connections, CORES)
			.hasSizeLessThanOrEqualTo(2 * CORES + 2);
	}

	@Test
	void requestsThatBlockGetAWorkerEachAtOnce() throws Exception {
		int requests = 40;
		CountDownLatch together = new CountDownLatch(requests);
		this.server = Servers.start(IoModel.EVENT_LOOP, (config) -> config.minThreads(0).maxThreads(256),
				Route.get("/wait", (request, response) -> {
					together.countDown();
					// answered only once every request holds a worker at the same time
					response.status(together.await(20, TimeUnit.SECONDS) ? 200 : 503).send("waited");
				}));
		List<Future<Integer>> answered = new ArrayList<>();
		for (int i = 0; i < requests; i++) {
			answered.add(this.clients.submit(() -> {
				try (RawClient client = RawClient.connect(this.server.port(), java.time.Duration.ofSeconds(30))) {
					return client.exchange("GET /wait HTTP/1.1\r\nHost: test\r\n\r\n").status();
				}
			}));
		}
		for (Future<Integer> client : answered) {
			assertThat(client.get(30, TimeUnit.SECONDS)).isEqualTo(200);
		}
	}

	private static void spin(long nanos) {
		long until = System.nanoTime() + nanos;
		while (System.nanoTime() < until) {
			Thread.onSpinWait();
		}
	}

}
