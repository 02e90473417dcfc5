package dev.ariadne;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.http2.ErrorCode;
import dev.ariadne.http2.FrameType;
import dev.ariadne.http2.FrameWriter;
import dev.ariadne.http2.Preface;
import dev.ariadne.http2.Settings;
import dev.ariadne.server.Http2Config;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.Defence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/2 clients that make the server work without asking for anything, in every model: a flood
 * of control frames (PING here) beyond {@code http2.max-control-frames}, streams the client makes
 * the server reset beyond {@code http2.max-resets} (MadeYouReset), each ended with
 * {@code GOAWAY ENHANCE_YOUR_CALM} and counted by reason; and a client that sends PINGs without
 * reading their acknowledgements is not read until it does, so the answers it leaves unread stay
 * bounded. A well-behaved client on another connection is served meanwhile.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2FloodIT {

	private AriadneServer server;

	private HttpClient client;

	@AfterEach
	void stop() throws Exception {
		if (this.client != null) {
			this.client.stop();
		}
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aPingFloodEndsTheConnection(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		try (Http2RawClient attacker = Http2RawClient.connect(port())) {
			for (int batch = 0; batch < 12; batch++) {
				for (int i = 0; i < 100; i++) {
					attacker.ping(i);
				}
				if (!send(attacker)) {
					break;
				}
				if (batch % 4 == 0) {
					assertThat(hello().getStatus()).as("a client on another connection").isEqualTo(200);
				}
			}
			assertCalmedDown(attacker);
		}
		assertThat(this.server.stats().defences(Defence.HTTP2_CONTROL_FRAMES, false)).isEqualTo(1);
		assertThat(hello().getStatus()).isEqualTo(200);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void streamsTheClientMakesTheServerResetEndTheConnection(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		try (Http2RawClient attacker = Http2RawClient.connect(port())) {
			int stream = 1;
			for (int batch = 0; batch < 5; batch++) {
				for (int i = 0; i < 50; i++, stream += 2) {
					attacker.malformed(stream);
				}
				if (!send(attacker)) {
					break;
				}
				assertThat(hello().getStatus()).as("a client on another connection").isEqualTo(200);
			}
			Http2RawClient.Frame reset = attacker.await(FrameType.RST_STREAM, Duration.ofSeconds(10));
			assertThat(reset.errorCode()).isEqualTo(ErrorCode.PROTOCOL_ERROR.code());
			assertCalmedDown(attacker);
		}
		assertThat(this.server.stats().defences(Defence.HTTP2_PROVOKED_RESETS, false)).isEqualTo(1);
		assertThat(hello().getStatus()).isEqualTo(200);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aClientThatDoesNotReadIsNotReadEither(IoModel model) throws Exception {
		// no rate limit in reach: only back-pressure bounds what the server queues for it
		Http2Config http2 = new Http2Config(100, 65_535, 1 << 20, 16_384, 0, Integer.MAX_VALUE, 200,
				Duration.ofSeconds(30), Duration.ofSeconds(20));
		start(model, (config) -> config.http2(http2));
		long before = this.server.stats().buffersUsed();
		try (Socket socket = new Socket()) {
			socket.setReceiveBufferSize(4096);
			socket.connect(new InetSocketAddress(RawClient.LOOPBACK, port()), 5000);
			Thread flooder = new Thread(() -> flood(socket), "h2-ping-flooder");
			flooder.setDaemon(true);
			flooder.start();
			// 3 s of PINGs at loopback speed: millions of acknowledgements if the server read them all
			Thread.sleep(3000);
			long held = this.server.stats().buffersUsed() - before;
			assertThat(held).as("bytes the server holds for the client that does not read").isLessThan(1 << 20);
			assertThat(flooder.isAlive()).as("the flooder is blocked: the server stopped reading").isTrue();
			assertThat(hello().getStatus()).as("a client on another connection").isEqualTo(200);
		}
	}

	private static void flood(Socket socket) {
		ByteBuffer pings = ByteBuffer.allocate(64 * 1024);
		ByteBuffer preface = Preface.bytes();
		pings.put(preface);
		FrameWriter.settings(pings, new Settings());
		try {
			OutputStream out = socket.getOutputStream();
			while (true) {
				while (pings.remaining() >= 17) {
					FrameWriter.ping(pings, false, 42);
				}
				out.write(pings.array(), 0, pings.position());
				pings.clear();
			}
		}
		catch (IOException ex) {
			// closed by the test, or by the server
		}
	}

	/** Sends what the attacker queued; {@code false} once the server has closed the connection. */
	private static boolean send(Http2RawClient attacker) {
		try {
			attacker.flush();
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static void assertCalmedDown(Http2RawClient attacker) throws InterruptedException {
		Http2RawClient.Frame goAway = attacker.await(FrameType.GOAWAY, Duration.ofSeconds(10));
		assertThat(goAway).isNotNull().isNotEqualTo(Http2RawClient.CLOSED);
		assertThat(goAway.errorCode()).isEqualTo(ErrorCode.ENHANCE_YOUR_CALM.code());
		assertThat(attacker.awaitClosed(Duration.ofSeconds(10))).isTrue();
	}

	private void start(IoModel model, UnaryOperator<ServerConfig.Builder> more) throws Exception {
		Route hello = Route.get("/hello", (request, response) -> response.send("hello"));
		this.server = Servers.start(model, (config) -> more.apply(config.http2Enabled(true).maxThreads(8)), hello);
		this.client = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
		this.client.start();
	}

	private ContentResponse hello() throws Exception {
		return this.client.newRequest(URI.create("http://127.0.0.1:" + port() + "/hello"))
			.timeout(10, TimeUnit.SECONDS)
			.send();
	}

	private int port() {
		return this.server.localAddress().getPort();
	}

}
