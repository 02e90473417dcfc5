package dev.ariadne;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.ServerStats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * At {@code max-connections} the server stops accepting, so further clients wait in the kernel's
 * accept queue, where the statistics see them (Linux); once connections close, they are accepted
 * and served, and the queue empties.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectionLimitIT {

	private static final int LIMIT = 2;

	private static final int WAITING = 5;

	private final List<RawClient> clients = new ArrayList<>();

	private final List<Socket> queued = new ArrayList<>();

	private AriadneServer server;

	@AfterEach
	void cleanUp() throws IOException {
		this.clients.forEach(RawClient::close);
		for (Socket socket : this.queued) {
			socket.close();
		}
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void clientsBeyondTheLimitWaitInTheAcceptQueueUntilConnectionsClose(IoModel model) throws IOException {
		assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "the accept queue is read from /proc (Linux)");
		this.server = Servers.start(model, (config) -> config.maxConnections(LIMIT).maxThreads(8),
				Route.get("/", (request, response) -> response.send("Hello")));
		ServerStats stats = this.server.stats();
		long somaxconn;
		try (java.io.BufferedReader reader = Files.newBufferedReader(Path.of("/proc/sys/net/core/somaxconn"))) {
			somaxconn = Long.parseLong(reader.readLine().trim());
		}
		assertThat(stats.acceptQueueCapacity())
			.hasValue(Math.min(this.server.config().acceptBacklog(), somaxconn));
		for (int i = 0; i < LIMIT; i++) {
			RawClient client = RawClient.connect(this.server.port());
			this.clients.add(client);
			AbstractProtocolIT.assertOk(client.exchange("GET / HTTP/1.1\r\nHost: limit\r\n\r\n"), "Hello");
		}
		for (int i = 0; i < WAITING; i++) {
			Socket socket = new Socket();
			socket.connect(new InetSocketAddress(RawClient.LOOPBACK, this.server.port()), 5000);
			this.queued.add(socket);
		}
		Await.until(() -> stats.acceptQueueDepth().orElse(-1) == WAITING,
				() -> "accept queue depth " + stats.acceptQueueDepth() + ", open " + stats.openConnections());
		assertThat(stats.openConnections()).isEqualTo(LIMIT);
		this.clients.forEach(RawClient::close);
		Await.until(() -> stats.acceptQueueDepth().orElse(-1) == WAITING - LIMIT,
				() -> "accept queue depth " + stats.acceptQueueDepth());
		for (Socket socket : this.queued) {
			socket.close();
		}
		Await.until(() -> stats.acceptQueueDepth().orElse(-1) == 0 && stats.openConnections() == 0,
				() -> "accept queue depth " + stats.acceptQueueDepth() + ", open " + stats.openConnections());
	}

}
