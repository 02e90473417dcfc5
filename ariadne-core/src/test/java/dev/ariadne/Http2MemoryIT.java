package dev.ariadne;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.http2.FrameWriter;
import dev.ariadne.http2.HpackEncoder;
import dev.ariadne.http2.Preface;
import dev.ariadne.http2.Settings;
import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 26's memory acceptance, in a server of its own with {@code -Xmx128m}: 1,000 h2c
 * connections open 100 streams each, every one asking for a response larger than its window,
 * and read nothing. The server does not run out of memory, keeps the bytes it holds within its
 * budget, cuts those clients off (their writers wait for credit while every worker is taken, so
 * the low-resources mode ends their connections), answers a client on another connection within
 * seconds, and frees everything once they go. The models whose idle connections cost no thread;
 * in {@code blocking} each of the 1,000 connections would own a worker for its frames, which is
 * that model's story, not memory's.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class Http2MemoryIT {

	private static final int CONNECTIONS = 1000;

	private static final int STREAMS = 100;

	private static final long MIB = 1024 * 1024;

	private final List<Socket> sockets = new ArrayList<>();

	private ChildProcess child;

	@AfterEach
	void cleanUp() {
		closeAll();
		if (this.child != null) {
			this.child.close();
		}
	}

	@ParameterizedTest
	@EnumSource(value = IoModel.class, names = { "EVENT_LOOP", "VIRTUAL_THREADS" })
	void thousandConnectionsOfHundredStreamsThatDoNotReadFitA128MegabyteHeap(IoModel model) throws Exception {
		this.child = ChildProcess.start(model, 0, "128m", "http2=true");
		long budget = this.child.stats().get("budget");
		int refused = 0;
		for (int i = 0; i < CONNECTIONS; i++) {
			try {
				this.sockets.add(openStreams(this.child.port()));
			}
			catch (IOException ex) {
				// the server had already cut this client off (a reset while its requests were sent)
				refused++;
			}
		}
		Thread.sleep(1000);
		Map<String, Long> held = this.child.stats();
		assertThat(held.get("buffers")).as("bytes held for the streams (%s)", held).isLessThanOrEqualTo(budget + 2 * MIB);
		assertThat(held.get("heapUsed")).as("heap in use after a collection (%s)", held).isLessThan(100 * MIB);
		long asked = System.nanoTime();
		AbstractProtocolIT.assertOk(askAnotherClient(), "hello");
		assertThat(Duration.ofNanos(System.nanoTime() - asked)).as("the other client's wait").isLessThan(Duration.ofSeconds(10));
		assertThat(held.get("defences.slow-reader.low-resources") + refused)
			.as("clients cut off for reading nothing while the pool was starved (%s)", held).isPositive();
		closeAll();
		Await.until(Duration.ofSeconds(60), () -> stat("h2c") == 0 && stat("streams") == 0,
				() -> "h2c connections: " + stat("h2c") + ", streams: " + stat("streams"));
		Map<String, Long> after = this.child.stats();
		assertThat(after.get("heapUsed")).as("heap in use once they are gone (%s)", after).isLessThan(32 * MIB);
		assertThat(this.child.isAlive()).as("child server alive; its output: %s", this.child.output()).isTrue();
		assertThat(this.child.terminate(Duration.ofSeconds(30))).as("child server stopped on SIGTERM").isNotNull();
		assertThat(this.child.lines((line) -> line.contains("OutOfMemoryError"))).isEmpty();
	}

	/**
	 * A request on a connection of its own, as a client that honours {@code Retry-After} sends
	 * it: while the streams fill the pool's queue the server may answer 503 (queue full) until the
	 * low-resources mode has cut their clients off; the wait is asserted by the caller.
	 */
	private RawResponse askAnotherClient() throws IOException, InterruptedException {
		long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (true) {
			RawResponse response;
			try (RawClient other = RawClient.connect(this.child.port(), Duration.ofSeconds(30))) {
				response = other.exchange("GET /hello HTTP/1.1\r\nHost: child\r\n\r\n");
			}
			if (response.status() != 503 || System.nanoTime() > end) {
				return response;
			}
			assertThat(response.header("Retry-After")).as("Retry-After of %s", response).isEqualTo("1");
			Thread.sleep(1000);
		}
	}

	/** A connection with its 100 streams' requests sent, that reads nothing. */
	private static Socket openStreams(int port) throws IOException {
		Socket socket = new Socket();
		socket.setReceiveBufferSize(4096);
		socket.connect(new InetSocketAddress(RawClient.LOOPBACK, port), 10_000);
		ByteBuffer out = ByteBuffer.allocate(64 * 1024);
		out.put(Preface.bytes());
		FrameWriter.settings(out, new Settings());
		HpackEncoder encoder = new HpackEncoder(Settings.DEFAULT_HEADER_TABLE_SIZE);
		for (int i = 0, stream = 1; i < STREAMS; i++, stream += 2) {
			encoder.startBlock();
			encoder.add(":method", "GET");
			encoder.add(":scheme", "http");
			encoder.add(":authority", "child");
			encoder.add(":path", "/big?size=200000");
			FrameWriter.headers(out, stream, encoder.endBlock(), true, 16_384);
		}
		OutputStream stream = socket.getOutputStream();
		stream.write(out.array(), 0, out.position());
		stream.flush();
		return socket;
	}

	private static String tail(String output) {
		return output.substring(Math.max(0, output.length() - 3000));
	}

	private long stat(String name) {
		try {
			return this.child.stats().get(name);
		}
		catch (IOException ex) {
			return -1;
		}
	}

	private void closeAll() {
		for (Socket socket : this.sockets) {
			try {
				socket.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}
		this.sockets.clear();
	}

}
