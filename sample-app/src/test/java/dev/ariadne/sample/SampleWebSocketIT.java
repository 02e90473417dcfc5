package dev.ariadne.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's story over WebSocket, as a user meets it: the packaged sample application's
 * {@code /ws/echo} route, started with {@code java -jar}, talked to over sockets. In
 * {@code starved} (4 blocking workers) 4 open sessions own the 4 workers: the meters show them
 * and a plain request waiting, the diagnosis names {@code websocket-sessions} within 10 s, and
 * the request is answered once a session closes. In {@code event-loop} the same 4 workers hold
 * 1,000 open sessions and answer plain requests at once.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class SampleWebSocketIT {

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private final List<Socket> sockets = new ArrayList<>();

	private SampleProcess application;

	@AfterEach
	void stop() throws Exception {
		for (Socket socket : this.sockets) {
			socket.close();
		}
		if (this.application != null) {
			this.application.close();
		}
	}

	@Test
	void starvedProfileWithFourOpenSessionsShowsThemOwningTheWorkersAndTheDiagnosisNamesThem() throws Exception {
		this.application = SampleProcess.start("starved");
		List<Socket> sessions = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			sessions.add(openSession(this.application.appPort()));
		}
		assertThat(echo(sessions.get(0), "hello")).isEqualTo("hello");
		Socket plain = send(this.application.appPort(), "/ping");
		Map<String, Object> pool = this.application.awaitPool((p) -> "websocket-sessions".equals(p.get("cause")),
				"websocket-sessions", WITHIN);
		assertThat((String) pool.get("evidence")).startsWith("4 of 4 workers held by 4 WebSocket sessions, each until "
				+ "it closes").contains("; 1 connection waiting for a worker");
		List<String> advised = JsonPath.read(pool, "$.advice[*].property");
		assertThat(advised).containsExactly("ariadne.server.io-model", "ariadne.server.threads.max",
				"ariadne.server.websocket.max-sessions");
		String scrape = this.application.management("/actuator/prometheus");
		assertThat(scrape).contains("ariadne_websocket_sessions_active{listener=\"app\"} 4.0")
			.contains("ariadne_connections_protocol{listener=\"app\",protocol=\"websocket\"} 4.0")
			.contains("ariadne_pool_threads_busy{listener=\"app\",pool=\"default\"} 4.0")
			.contains("ariadne_pool_queue_size{listener=\"app\",pool=\"default\"} 1.0")
			.contains("ariadne_pool_starvation{cause=\"websocket-sessions\",listener=\"app\",pool=\"default\"} 1.0");
		assertThat(plain.getInputStream().available()).as("the plain request unanswered").isZero();
		// the sessions are still served: each owns its worker
		assertThat(echo(sessions.get(3), "still here")).isEqualTo("still here");
		sessions.get(0).close();
		assertThat(SampleProcess.readHead(plain)).startsWith("HTTP/1.1 200 ");
		for (Socket session : sessions) {
			session.close();
		}
		Map<String, Object> ok = this.application.awaitPool((p) -> "ok".equals(p.get("status")), "ok", WITHIN);
		assertThat(JsonPath.<String>read(ok, "$.lastStarvation.cause")).isEqualTo("websocket-sessions");
	}

	@Test
	void eventLoopProfileWithFourWorkersHoldsAThousandSessionsAndAnswersPlainRequestsAtOnce() throws Exception {
		this.application = SampleProcess.start("event-loop");
		List<Socket> sessions = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			sessions.add(openSession(this.application.appPort()));
		}
		long until = System.nanoTime() + WITHIN.toNanos();
		String scrape = "";
		while (!scrape.contains("ariadne_websocket_sessions_active{listener=\"app\"} 1000.0")
				&& System.nanoTime() - until < 0) {
			scrape = this.application.management("/actuator/prometheus");
			Thread.sleep(100);
		}
		assertThat(scrape).contains("ariadne_websocket_sessions_active{listener=\"app\"} 1000.0")
			.contains("ariadne_pool_threads_max{listener=\"app\",pool=\"default\"} 4.0")
			.contains("ariadne_pool_threads_busy{listener=\"app\",pool=\"default\"} 0.0");
		for (String path : List.of("/ping", "/api/user")) {
			long start = System.nanoTime();
			Socket plain = send(this.application.appPort(), path);
			assertThat(SampleProcess.readHead(plain)).as(path).startsWith("HTTP/1.1 200 ");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as(path).isLessThan(Duration.ofSeconds(1));
		}
		assertThat(echo(sessions.get(999), "the last one")).isEqualTo("the last one");
		assertThat(echo(sessions.get(0), "the first one")).isEqualTo("the first one");
		Map<String, Object> pool = this.application.awaitPool((p) -> "ok".equals(p.get("status"))
				&& ((String) p.get("evidence")).contains("1000 WebSocket sessions open"), "ok with the sessions", WITHIN);
		assertThat((String) pool.get("evidence")).endsWith("; 1000 WebSocket sessions open, holding no thread while "
				+ "quiet");
	}

	// ---- a WebSocket client on a plain socket (RFC 6455)

	/** Opens a session on {@code /ws/echo}: the handshake, answered 101. */
	private Socket openSession(int port) throws IOException {
		Socket socket = send(port, "/ws/echo", "Upgrade: websocket\r\nConnection: Upgrade\r\n"
				+ "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n");
		assertThat(SampleProcess.readHead(socket)).startsWith("HTTP/1.1 101 ")
			.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
		return socket;
	}

	/** Sends a masked text message and reads the echo's text frame. */
	private static String echo(Socket socket, String text) throws IOException {
		byte[] payload = text.getBytes(StandardCharsets.UTF_8);
		byte[] mask = new byte[4];
		ThreadLocalRandom.current().nextBytes(mask);
		ByteArrayOutputStream frame = new ByteArrayOutputStream();
		frame.write(0x81);
		frame.write(0x80 | payload.length);
		frame.write(mask);
		for (int i = 0; i < payload.length; i++) {
			frame.write(payload[i] ^ mask[i % 4]);
		}
		OutputStream out = socket.getOutputStream();
		out.write(frame.toByteArray());
		out.flush();
		InputStream in = socket.getInputStream();
		assertThat(in.read()).as("a final text frame").isEqualTo(0x81);
		int length = in.read();
		assertThat(length).as("an unmasked short payload").isBetween(0, 125);
		return new String(in.readNBytes(length), StandardCharsets.UTF_8);
	}

	// ---- HTTP over raw sockets

	/** Sends a GET, with more header lines, and leaves the connection open, closed after the test. */
	private Socket send(int port, String path, String fields) throws IOException {
		Socket socket = SampleProcess.send(port, path, fields);
		this.sockets.add(socket);
		return socket;
	}

	private Socket send(int port, String path) throws IOException {
		return send(port, path, "");
	}

}
