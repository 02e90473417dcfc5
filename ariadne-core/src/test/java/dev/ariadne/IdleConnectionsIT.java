package dev.ariadne;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 5,000 idle kept-alive connections cost the event loop and virtual threads no platform thread,
 * and fresh clients are still answered while they are held. Client and server share this JVM,
 * so the test holds 10,000 descriptors, below the 20,000 limit of the machines it runs on.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class IdleConnectionsIT {

	private static final int IDLE = 5_000;

	private final List<RawClient> idle = new ArrayList<>(IDLE);

	private AriadneServer server;

	@AfterEach
	void cleanUp() {
		this.idle.forEach(RawClient::close);
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(value = IoModel.class, names = { "EVENT_LOOP", "VIRTUAL_THREADS" })
	void holdsFiveThousandIdleConnectionsWithoutAThreadEachAndStillAnswers(IoModel model) throws IOException {
		this.server = Servers.start(model, (config) -> config.maxThreads(8).acceptBacklog(1024),
				Route.get("/", (request, response) -> response.send("Hello")));
		int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
		for (int i = 0; i < IDLE; i++) {
			RawClient client = RawClient.connect(this.server.port());
			this.idle.add(client);
			client.send("GET / HTTP/1.1\r\nHost: idle\r\n\r\n");
			if (i % 500 == 499) {
				drainAnswers(i - 499, i + 1);
			}
		}
		Await.until(() -> this.server.stats().idleConnections() == IDLE,
				() -> "idle " + this.server.stats().idleConnections() + ", open " + this.server.stats().openConnections());
		int platformThreads = ManagementFactory.getThreadMXBean().getThreadCount();
		assertThat(platformThreads - threadsBefore).as("platform threads added for %d idle connections", IDLE)
			.isLessThan(50);
		try (RawClient fresh = RawClient.connect(this.server.port())) {
			for (int i = 0; i < 10; i++) {
				AbstractProtocolIT.assertOk(fresh.exchange("GET / HTTP/1.1\r\nHost: fresh\r\n\r\n"), "Hello");
			}
		}
		// the idle ones are still usable
		RawClient first = this.idle.get(0);
		AbstractProtocolIT.assertOk(first.exchange("GET / HTTP/1.1\r\nHost: idle\r\n\r\n"), "Hello");
	}

	private void drainAnswers(int from, int to) throws IOException {
		for (int i = from; i < to; i++) {
			AbstractProtocolIT.assertOk(this.idle.get(i).read(), "Hello");
		}
	}

}
