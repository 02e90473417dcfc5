package dev.ariadne;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.http.Method;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.stats.RequestEvent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Route pools (bulkheads), in every model: a CPU-heavy route confined to a one-thread pool
 * cannot take the workers of the light routes; its pool's saturation and queue are visible; a
 * full pool answers 503 while the other routes stay 200.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RoutePoolsIT {

	private final CountDownLatch release = new CountDownLatch(1);

	private final List<RawClient> clients = new ArrayList<>();

	private AriadneServer server;

	@AfterEach
	void cleanUp() {
		this.release.countDown();
		this.clients.forEach(RawClient::close);
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void lightRoutesAreAnsweredWhileTheComputePoolIsFullAndItsOverflowGets503(IoModel model) throws Exception {
		List<RequestEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
		this.server = Servers.start(model,
				(config) -> config.maxThreads(8).pool("compute", new ServerConfig.PoolConfig(1, 1, false)),
				(server) -> server.requestListener(events::add),
				Route.get("/", (request, response) -> response.send("light")),
				Route.get("/api/compute", (request, response) -> {
					this.release.await(20, TimeUnit.SECONDS);
					response.send("computed");
				}).inPool("compute"));
		PoolStats compute = pool("compute");
		RawClient running = send("/api/compute");
		Await.until(() -> compute.busyWorkers() == 1, () -> "compute busy " + compute.busyWorkers());
		RawClient queued = send("/api/compute");
		Await.until(() -> compute.queued() == 1, () -> "compute queued " + compute.queued());
		RawResponse overflow = send("/api/compute").read();
		AbstractProtocolIT.assertRefused(overflow, "HTTP/1.1 503 Service Unavailable");
		assertThat(overflow.header("Retry-After")).isEqualTo("1");
		assertThat(overflow.bodyText()).isEqualTo("Pool 'compute' is full\n");
		assertThat(this.server.stats().rejected(RejectReason.POOL_FULL)).isEqualTo(1);
		// the refusal keeps the route it was refused for, and says why on its own
		Await.until(() -> events.stream().anyMatch((event) -> event.status() == 503), () -> "events " + events);
		assertThat(events).filteredOn((event) -> event.status() == 503).singleElement().satisfies((event) -> {
			assertThat(event.route()).isEqualTo("/api/compute");
			assertThat(event.refusal()).isEqualTo(RequestEvent.REJECTED);
		});
		for (int i = 0; i < 5; i++) {
			AbstractProtocolIT.assertOk(send("/").read(), "light");
		}
		assertThat(compute.busyWorkers()).isEqualTo(1);
		this.release.countDown();
		AbstractProtocolIT.assertOk(running.read(), "computed");
		AbstractProtocolIT.assertOk(queued.read(), "computed");
		Await.until(() -> compute.busyWorkers() == 0 && compute.queued() == 0,
				() -> "compute busy " + compute.busyWorkers() + ", queued " + compute.queued());
	}

	@Test
	void aRouteNamingAnUnknownPoolFailsAtBuild() {
		ServerConfig config = ServerConfig.builder().port(0).build();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> AriadneServer.builder(config)
				.route(Route.of(Method.GET, "/x", (request, response) -> response.send("x")).inPool("cpu"))
				.build())
			.withMessageContaining("ariadne.server.pools.cpu");
	}

	private PoolStats pool(String name) {
		return this.server.stats().pools().stream().filter((pool) -> pool.name().equals(name)).findFirst().orElseThrow();
	}

	private RawClient send(String path) throws Exception {
		RawClient client = RawClient.connect(this.server.port());
		this.clients.add(client);
		client.send("GET " + path + " HTTP/1.1\r\nHost: pools\r\n\r\n");
		return client;
	}

}
