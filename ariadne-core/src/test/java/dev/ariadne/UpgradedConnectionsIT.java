package dev.ariadne;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.Response;
import dev.ariadne.server.stats.PoolStats;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an upgraded connection ({@link Response#upgrade()}) holds in each model, and which
 * requests may switch: in {@code blocking} a tunnel owns its connection's worker, busy while it
 * is open, so four tunnels starve a pool of four; in {@code event-loop} and
 * {@code virtual-threads} a hundred tunnels hold no worker (or permit) of a pool of four, which
 * answers a plain request meanwhile. An HTTP/1.0 request, one without {@code Upgrade}, one with
 * more than 64 KiB of body left and an HTTP/2 stream cannot switch; a short body is read and
 * discarded before the new protocol's bytes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class UpgradedConnectionsIT {

	private final Tunnels tunnels = new Tunnels();

	private final List<RawClient> clients = new ArrayList<>();

	private AriadneServer server;

	@AfterEach
	void stop() {
		this.clients.forEach(RawClient::close);
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void blockingTunnelsOwnTheirWorkersAndStarveOtherClients() throws Exception {
		start(IoModel.BLOCKING, false);
		PoolStats pool = this.server.stats().pool();
		RawClient first = open();
		Await.until(() -> pool.busyWorkers() == 1, () -> "busy " + pool.busyWorkers());
		Tunnels.assertEchoes(first, "idle between messages, and still busy");
		assertThat(pool.busyWorkers()).isEqualTo(1);
		for (int i = 1; i < 4; i++) {
			open();
		}
		Await.until(() -> pool.busyWorkers() == 4, () -> "busy " + pool.busyWorkers());
		RawClient plain = this.tunnels.connect();
		this.clients.add(plain);
		plain.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n");
		Await.until(() -> pool.queued() == 1, () -> "queued " + pool.queued());
		assertThat(plain.hasBytesWaiting()).as("answered while every worker holds a tunnel").isFalse();
		// one tunnel ends: its worker serves the client that waited
		first.shutdownOutput();
		assertThat(first.readUntilClose()).isEmpty();
		AbstractProtocolIT.assertOk(plain.read(), "hello");
		closeAll();
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest
	@EnumSource(value = IoModel.class, names = { "EVENT_LOOP", "VIRTUAL_THREADS" })
	void aHundredTunnelsHoldNoWorkerAndAPlainRequestIsAnsweredMeanwhile(IoModel model) throws Exception {
		start(model, false);
		PoolStats pool = this.server.stats().pool();
		List<RawClient> open = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			RawClient client = open();
			Tunnels.assertEchoes(client, "tunnel " + i);
			open.add(client);
		}
		Await.until(() -> pool.busyWorkers() == 0 && pool.queued() == 0,
				() -> "busy " + pool.busyWorkers() + ", queued " + pool.queued());
		assertThat(this.server.stats().openConnections()).isEqualTo(100);
		assertThat(this.server.stats().idleConnections()).as("tunnels are exchanges in progress").isZero();
		try (RawClient plain = this.tunnels.connect()) {
			AbstractProtocolIT.assertOk(plain.exchange("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n"), "hello");
		}
		for (int i = 0; i < open.size(); i++) {
			Tunnels.assertEchoes(open.get(i), "again " + i);
		}
		closeAll();
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void idleEventLoopTunnelsHoldNoInputBufferSoTheyCannotExhaustTheBudget(boolean tls) throws Exception {
		// 1 MiB holds 64 buffers of 16 KiB: 200 tunnels that each kept theirs would stall the
		// loop (the 65th could not read its echo, and nor could any new connection)
		this.server = this.tunnels.start(IoModel.EVENT_LOOP, tls,
				(config) -> config.maxThreads(4).bufferBudget(1024 * 1024));
		List<RawClient> open = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			RawClient client = open();
			Tunnels.assertEchoes(client, "tunnel " + i);
			open.add(client);
		}
		long buffer = 16 * 1024;
		Await.until(() -> this.server.stats().buffersUsed() < 8 * buffer,
				() -> "bytes in buffers " + this.server.stats().buffersUsed());
		try (RawClient plain = this.tunnels.connect()) {
			AbstractProtocolIT.assertOk(plain.exchange("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n"), "hello");
		}
		for (int i = 0; i < open.size(); i++) {
			Tunnels.assertEchoes(open.get(i), "again " + i);
		}
		closeAll();
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void onlyAnHttp11RequestThatAsksForAProtocolMaySwitch(IoModel model) throws Exception {
		start(model, false);
		try (RawClient client = this.tunnels.connect()) {
			RawResponse refused = client.exchange("GET /try HTTP/1.1\r\nHost: localhost\r\n\r\n");
			assertThat(refused.status()).isEqualTo(409);
			assertThat(refused.bodyText()).contains("no Upgrade field");
		}
		try (RawClient client = this.tunnels.connect()) {
			client.send("GET /try HTTP/1.0\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n");
			RawResponse refused = client.read();
			assertThat(refused.status()).isEqualTo(409);
			assertThat(refused.bodyText()).contains("HTTP/1.0");
		}
		try (RawClient client = this.tunnels.connect()) {
			int length = 70 * 1024;
			client.send("POST /try HTTP/1.1\r\nHost: localhost\r\nUpgrade: echo\r\nContent-Length: " + length
					+ "\r\n\r\n" + "x".repeat(length));
			RawResponse refused = client.read();
			assertThat(refused.status()).isEqualTo(409);
			assertThat(refused.bodyText()).contains("request body are left");
			assertThat(refused.announcesClose()).as("the rest of the body is not read").isTrue();
		}
		// a short body is read and discarded: the new protocol's bytes follow it
		try (RawClient client = this.tunnels.connect()) {
			client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nUpgrade: echo\r\nContent-Length: 8\r\n\r\n"
					+ "ignored!" + "after the body");
			assertThat(client.read().status()).isEqualTo(101);
			assertThat(Tunnels.text(client.take(14))).isEqualTo("after the body");
			client.shutdownOutput();
			assertThat(client.readUntilClose()).isEmpty();
		}
		Leaks.assertServerHoldsNothing(this.server);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void anHttp2StreamCannotSwitchProtocols(IoModel model) throws Exception {
		this.server = this.tunnels.start(model, false, (config) -> config.maxThreads(4).http2Enabled(true));
		try (Http2RawClient client = Http2RawClient.connect(this.server.port())) {
			client.get(1, "/try").flush();
			Map<Integer, Integer> statuses = client.statuses(1, Duration.ofSeconds(10));
			assertThat(statuses).containsEntry(1, 409);
		}
	}

	private void start(IoModel model, boolean tls) {
		this.server = this.tunnels.start(model, tls, (config) -> config.maxThreads(4));
	}

	private RawClient open() throws Exception {
		RawClient client = this.tunnels.open("/echo", "");
		this.clients.add(client);
		return client;
	}

	/** Ends every tunnel from the client's side, as the echo ends when its client does. */
	private void closeAll() throws Exception {
		for (RawClient client : this.clients) {
			try {
				client.shutdownOutput();
				client.readUntilClose();
			}
			catch (java.io.IOException ex) {
				// ended already
			}
		}
	}

}
