package dev.ariadne.autoconfigure.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.ariadne.AriadneServer;
import dev.ariadne.Await;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.diagnosis.Cause;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.ServerStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link AriadneServerMetrics} against a real server and a
 * {@link SimpleMeterRegistry}.
 */
class AriadneServerMetricsTest {

	private final CountDownLatch entered = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	private AriadneServer server;

	@AfterEach
	void stopServer() {
		this.release.countDown();
		if (this.server != null) {
			this.server.stop();
		}
	}

	private AriadneServer start(int maxThreads) {
		ServerConfig config = ServerConfig.builder()
			.port(0)
			.address(java.net.InetAddress.getLoopbackAddress())
			.ioModel(IoModel.BLOCKING)
			.maxThreads(maxThreads)
			.keepAliveReleaseThreshold(1.0)
			.build();
		this.server = AriadneServer.builder(config).route(Route.get("/hold", (request, response) -> {
			this.entered.countDown();
			this.release.await(10, TimeUnit.SECONDS);
			response.send("released");
		})).route(Route.get("/", (request, response) -> response.send("hi"))).build();
		this.server.start();
		return this.server;
	}

	@Test
	void registersEveryMeterWithListenerAndPoolTags() {
		MeterRegistry registry = new SimpleMeterRegistry();
		new AriadneServerMetrics(start(4).stats(), "1.2.3", List.of()).bindTo(registry);
		for (String name : List.of(AriadneServerMetrics.POOL_THREADS_BUSY, AriadneServerMetrics.POOL_THREADS_MAX,
				AriadneServerMetrics.POOL_SATURATION, AriadneServerMetrics.POOL_QUEUE_SIZE,
				AriadneServerMetrics.POOL_QUEUE_CAPACITY)) {
			Meter meter = registry.get(name).tag("listener", "app").tag("pool", "default").meter();
			assertThat(meter.getId().getDescription()).as(name).isNotBlank();
			assertThat(meter.getId().getBaseUnit()).as(name).isNull();
		}
		for (String name : List.of(AriadneServerMetrics.CONNECTIONS_ACTIVE, AriadneServerMetrics.CONNECTIONS_IDLE,
				AriadneServerMetrics.CONNECTIONS_MAX, AriadneServerMetrics.ACCEPT_QUEUE_DEPTH,
				AriadneServerMetrics.ACCEPT_QUEUE_CAPACITY)) {
			Meter meter = registry.get(name).tag("listener", "app").meter();
			assertThat(meter.getId().getDescription()).as(name).isNotBlank();
			assertThat(meter.getId().getBaseUnit()).as(name).isNull();
		}
		Meter sessions = registry.get(AriadneServerMetrics.WEBSOCKET_SESSIONS_ACTIVE).tag("listener", "app").meter();
		assertThat(sessions.getId().getDescription()).isNotBlank();
		assertThat(sessions.getId().getBaseUnit()).isNull();
		assertThat(registry.get(AriadneServerMetrics.WEBSOCKET_MESSAGES).functionCounters()).allSatisfy((counter) -> {
			assertThat(counter.getId().getDescription()).isNotBlank();
			assertThat(counter.getId().getBaseUnit()).isNull();
			assertThat(counter.count()).isZero();
		}).extracting((counter) -> counter.getId().getTag("direction")).containsExactlyInAnyOrder("in", "out");
		Meter buffers = registry.get(AriadneServerMetrics.BUFFERS_USED).tag("listener", "app").meter();
		assertThat(buffers.getId().getBaseUnit()).isEqualTo("bytes");
		assertThat(buffers.getId().getDescription()).contains("buffers.budget");
		assertThat(registry.get(AriadneServerMetrics.CONNECTIONS_ACCEPTED).functionCounter().count()).isZero();
		assertThat(registry.get(AriadneServerMetrics.CONNECTIONS_REJECTED).functionCounters()).extracting(
				(counter) -> counter.getId().getTag("reason"))
			.containsExactlyInAnyOrder("queue-full", "pool-full", "shutting-down", "websocket-sessions");
		assertThat(registry.get(AriadneServerMetrics.ACCEPT_ERRORS).functionCounters()).allSatisfy((counter) -> {
			assertThat(counter.getId().getDescription()).isNotBlank();
			assertThat(counter.getId().getBaseUnit()).isNull();
			assertThat(counter.count()).isZero();
		})
			.extracting((counter) -> counter.getId().getTag("reason"))
			.containsExactlyInAnyOrder("descriptors", "buffers", "memory", "other");
		Meter info = registry.get(AriadneServerMetrics.SERVER_INFO).meter();
		assertThat(info.getId().getTags()).contains(Tag.of("io_model", "blocking"), Tag.of("version", "1.2.3"),
				Tag.of("listener", "app"));
		assertThat(registry.get(AriadneServerMetrics.POOL_THREADS_MAX).gauge().value()).isEqualTo(4);
		assertThat(registry.get(AriadneServerMetrics.CONNECTIONS_MAX).gauge().value())
			.isEqualTo(ServerConfig.DEFAULT_MAX_CONNECTIONS);
	}

	@Test
	void gaugesReadLiveFiguresOfAStarvedPool() throws Exception {
		MeterRegistry registry = new SimpleMeterRegistry();
		AriadneServer server = start(1);
		new AriadneServerMetrics(server.stats(), "test", List.of()).bindTo(registry);
		try (Socket holder = send(server.port(), "/hold")) {
			// the only worker runs the handler: its connection has left the idle wait for good
			assertThat(this.entered.await(10, TimeUnit.SECONDS)).isTrue();
			try (Socket waiter = send(server.port(), "/")) {
				awaitValue(registry, AriadneServerMetrics.POOL_THREADS_BUSY, 1);
				awaitValue(registry, AriadneServerMetrics.POOL_QUEUE_SIZE, 1);
				assertThat(registry.get(AriadneServerMetrics.POOL_SATURATION).gauge().value()).isEqualTo(1.0);
				assertThat(registry.get(AriadneServerMetrics.CONNECTIONS_ACCEPTED).functionCounter().count())
					.isEqualTo(2);
				assertThat(registry.get(AriadneServerMetrics.CONNECTIONS_ACTIVE).gauge().value()).isEqualTo(2);
				this.release.countDown();
				assertThat(readStatusLine(holder)).isEqualTo("HTTP/1.1 200 OK");
				// release threshold 1 keeps the holder's connection, and so the worker, until it closes
				holder.close();
				assertThat(readStatusLine(waiter)).isEqualTo("HTTP/1.1 200 OK");
			}
		}
	}

	@Test
	void starvationIsOneForTheCauseTheDiagnosisNamesAndZeroForTheOthers() throws Exception {
		MeterRegistry registry = new SimpleMeterRegistry();
		AriadneServer server = start(1);
		new AriadneServerMetrics(server.stats(), server.diagnosis().orElseThrow(), "test", List.of()).bindTo(registry);
		assertThat(registry.get(AriadneServerMetrics.POOL_STARVATION).gauges()).hasSize(Cause.values().length)
			.allSatisfy((gauge) -> {
				assertThat(gauge.getId().getTags()).contains(Tag.of("listener", "app"), Tag.of("pool", "default"));
				assertThat(gauge.value()).isZero();
			});
		try (Socket holder = send(server.port(), "/")) {
			// answered, then idle: with the release threshold off it keeps the only worker
			assertThat(readStatusLine(holder)).isEqualTo("HTTP/1.1 200 OK");
			try (Socket waiter = send(server.port(), "/")) {
				awaitStarvation(registry, "thread-per-connection", 1);
				assertThat(registry.get(AriadneServerMetrics.POOL_STARVATION).gauges())
					.filteredOn((gauge) -> gauge.value() == 1)
					.extracting((gauge) -> gauge.getId().getTag("cause"))
					.containsExactly("thread-per-connection");
				holder.close();
				assertThat(readStatusLine(waiter)).isEqualTo("HTTP/1.1 200 OK");
				awaitStarvation(registry, "thread-per-connection", 0);
			}
		}
	}

	private static void awaitStarvation(MeterRegistry registry, String cause, double expected)
			throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (registry.get(AriadneServerMetrics.POOL_STARVATION).tag("cause", cause).gauge().value() != expected) {
			assertThat(System.nanoTime()).as("starvation of cause " + cause + " to reach " + expected)
				.isLessThan(deadline);
			Thread.sleep(50);
		}
	}

	@Test
	void acceptQueueGaugesReadTheKernelOnLinux() {
		MeterRegistry registry = new SimpleMeterRegistry();
		new AriadneServerMetrics(start(2).stats(), "test", List.of()).bindTo(registry);
		double depth = registry.get(AriadneServerMetrics.ACCEPT_QUEUE_DEPTH).gauge().value();
		double capacity = registry.get(AriadneServerMetrics.ACCEPT_QUEUE_CAPACITY).gauge().value();
		if (java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/net/tcp"))) {
			assertThat(depth).isZero();
			assertThat(capacity).isBetween(1.0, (double) ServerConfig.DEFAULT_ACCEPT_BACKLOG);
			assertThat(registry.find(AriadneServerMetrics.ACCEPT_QUEUE_OVERFLOWS).functionCounter()).isNotNull();
		}
		else {
			assertThat(depth).isNaN();
		}
	}

	@Test
	void theNamespacesOverflowCounterIsOneSeriesWhateverTheListeners() {
		assumeTrue(java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/net/netstat")), "Linux");
		MeterRegistry registry = new SimpleMeterRegistry();
		AriadneServer app = start(2);
		AriadneServer management = AriadneServer.builder(ServerConfig.builder()
			.name("management")
			.port(0)
			.address(java.net.InetAddress.getLoopbackAddress())
			.build()).route(Route.get("/", (request, response) -> response.send("hi"))).build();
		management.start();
		try {
			AriadneServerMetrics first = new AriadneServerMetrics(app.stats(), "test", List.of());
			first.bindTo(registry);
			new AriadneServerMetrics(management.stats(), "test", List.of()).bindTo(registry);
			assertThat(registry.find(AriadneServerMetrics.ACCEPT_QUEUE_DEPTH).gauges()).hasSize(2);
			// ListenOverflows counts every listener of the network namespace: one series, no listener tag
			assertThat(registry.find(AriadneServerMetrics.ACCEPT_QUEUE_OVERFLOWS).functionCounters()).singleElement()
				.satisfies((counter) -> assertThat(counter.getId().getTag("listener")).isNull());
		}
		finally {
			management.stop();
		}
	}

	@Test
	void theAccessLogsDroppedCounterReadsTheListenersCount() {
		MeterRegistry registry = new SimpleMeterRegistry();
		ServerStats real = start(2).stats();
		// the listener's figures, with 3 lines dropped: the core's own test makes a stuck output drop them
		ServerStats stats = (ServerStats) Proxy.newProxyInstance(ServerStats.class.getClassLoader(),
				new Class<?>[] { ServerStats.class }, (proxy, method, args) -> method.getName().equals("accessLogDropped")
						? 3L : method.invoke(real, args));
		new AriadneServerMetrics(stats, "test", List.of()).bindTo(registry);
		FunctionCounter dropped = registry.get(AriadneServerMetrics.ACCESS_LOG_DROPPED)
			.tag("listener", "app")
			.functionCounter();
		assertThat(dropped.count()).isEqualTo(3);
		assertThat(dropped.getId().getBaseUnit()).isNull();
		assertThat(dropped.getId().getDescription()).contains("accesslog.queue-capacity");
	}

	@Test
	void closeRemovesEveryMeter() {
		MeterRegistry registry = new SimpleMeterRegistry();
		AriadneServerMetrics metrics = new AriadneServerMetrics(start(2).stats(), "test", List.of());
		metrics.bindTo(registry);
		assertThat(registry.getMeters()).isNotEmpty();
		metrics.close();
		assertThat(registry.getMeters()).isEmpty();
	}

	private static Socket send(int port, String path) throws IOException {
		Socket socket = new Socket();
		socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
		socket.setSoTimeout(10_000);
		OutputStream out = socket.getOutputStream();
		out.write(("GET " + path + " HTTP/1.1\r\nHost: a\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		out.flush();
		return socket;
	}

	private static String readStatusLine(Socket socket) throws IOException {
		InputStream in = socket.getInputStream();
		StringBuilder line = new StringBuilder();
		int b;
		while ((b = in.read()) >= 0 && b != '\n') {
			if (b != '\r') {
				line.append((char) b);
			}
		}
		return line.toString();
	}

	private static void awaitValue(MeterRegistry registry, String name, double expected) {
		Await.until(() -> registry.get(name).gauge().value() == expected,
				() -> name + " is " + registry.get(name).gauge().value() + ", not " + expected);
	}

}
