package dev.ariadne.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The diagnosis as a user meets it: the packaged sample application started with
 * {@code java -jar} and a profile, talked to over HTTP only. In {@code starved}, 20 keep-alive
 * clients make it name idle keep-alive and advise the event loop within 10 s, on the endpoint,
 * the meter and one log line, and closing them makes it ok within 10 s; in {@code tuned}, 200
 * keep-alive clients on 250 workers stay ok.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class SampleDiagnosisIT {

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private static final Path JAR = Path.of("target", "ariadne-sample-app.jar");

	private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final List<Socket> clients = new ArrayList<>();

	private Process application;

	private Path log;

	private int appPort;

	private int managementPort;

	@AfterEach
	void stop() throws Exception {
		for (Socket client : this.clients) {
			client.close();
		}
		if (this.application != null) {
			this.application.destroy();
			if (!this.application.waitFor(20, TimeUnit.SECONDS)) {
				this.application.destroyForcibly();
			}
		}
	}

	@Test
	void starvedProfileWithTwentyKeepAliveClientsIsIdleKeepAliveAdvisingTheEventLoop() throws Exception {
		start("starved");
		for (int i = 0; i < 20; i++) {
			this.clients.add(send(this.appPort, "/api/compute"));
		}
		Map<String, Object> pool = awaitPool((p) -> "idle-keep-alive".equals(p.get("cause")), "idle-keep-alive");
		assertThat(pool).containsEntry("status", "starved");
		assertThat((String) pool.get("evidence")).matches("4 of 4 workers own connections idle between requests, "
				+ ".+ on average; 16 connections waiting for a worker");
		List<Map<String, String>> advice = JsonPath.read(pool, "$.advice");
		assertThat(advice).anySatisfy((item) -> {
			assertThat(item).containsEntry("property", "ariadne.server.io-model").containsEntry("value", "event-loop");
			assertThat(item.get("why")).isNotBlank();
		});
		assertThat(get(this.managementPort, "/actuator/prometheus"))
			.contains("ariadne_pool_starvation{cause=\"idle-keep-alive\",listener=\"app\",pool=\"default\"} 1.0")
			.contains("ariadne_pool_starvation{cause=\"cpu-bound\",listener=\"app\",pool=\"default\"} 0.0");
		for (Socket client : this.clients) {
			client.close();
		}
		awaitPool((p) -> "ok".equals(p.get("status")), "ok");
		assertThat(Files.readAllLines(this.log)).filteredOn((line) -> line.contains("is starved: idle-keep-alive"))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("WARN").contains("ariadne.server.io-model=event-loop"));
	}

	@Test
	void tunedProfileWithTwoHundredKeepAliveClientsStaysOk() throws Exception {
		start("tuned");
		for (int i = 0; i < 200; i++) {
			Socket client = send(this.appPort, "/");
			this.clients.add(client);
			assertThat(readHead(client)).startsWith("HTTP/1.1 200 ");
		}
		long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
		int busy = 0;
		while (System.nanoTime() < until) {
			String diagnosis = get(this.managementPort, "/actuator/ariadne/diagnosis");
			assertThat(JsonPath.<String>read(diagnosis, "$.status")).as(diagnosis).isEqualTo("ok");
			busy = JsonPath.read(get(this.managementPort, "/actuator/ariadne"), "$.listeners.app.pool.busy");
		}
		assertThat(busy).as("workers owning the 200 kept-alive connections").isEqualTo(200);
	}

	// ---- the application

	private void start(String profile) throws Exception {
		assertThat(JAR).as("the packaged sample application (run in the integration-test phase)").exists();
		this.appPort = freePort();
		this.managementPort = freePort();
		this.log = Files.createTempFile(Path.of("target"), "sample-" + profile + "-", ".log");
		String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
		this.application = new ProcessBuilder(java, "-Xmx256m", "-jar", JAR.toString(),
				"--spring.profiles.active=" + profile, "--ariadne.server.address=127.0.0.1",
				"--ariadne.server.port=" + this.appPort, "--management.server.address=127.0.0.1",
				"--management.server.port=" + this.managementPort, "--ariadne.server.keep-alive.timeout=10m")
			.redirectErrorStream(true)
			.redirectOutput(this.log.toFile())
			.start();
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (true) {
			try {
				if (get(this.managementPort, "/actuator/health").contains("\"status\":\"UP\"")) {
					return;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			assertThat(this.application.isAlive()).as("the application is running; see %s", this.log).isTrue();
			assertThat(System.nanoTime() - deadline).as("started within 60 s; see %s", this.log).isNegative();
			Thread.sleep(200);
		}
	}

	private Map<String, Object> awaitPool(Predicate<Map<String, Object>> condition, String what) throws Exception {
		long deadline = System.nanoTime() + WITHIN.toNanos();
		String diagnosis = "";
		while (System.nanoTime() - deadline < 0) {
			diagnosis = get(this.managementPort, "/actuator/ariadne/diagnosis");
			List<Map<String, Object>> pools = JsonPath.read(diagnosis,
					"$.pools[?(@.listener == 'app' && @.pool == 'default')]");
			if (!pools.isEmpty() && condition.test(pools.get(0))) {
				return pools.get(0);
			}
			Thread.sleep(100);
		}
		throw new AssertionError("The app's default pool was not " + what + " within " + WITHIN.toSeconds()
				+ " s: " + diagnosis);
	}

	// ---- HTTP over raw sockets

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	/** Sends a keep-alive request and leaves the connection open, its answer unread. */
	private static Socket send(int port, String path) throws IOException {
		Socket socket = new Socket();
		socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
		socket.setSoTimeout(10_000);
		OutputStream out = socket.getOutputStream();
		out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		out.flush();
		return socket;
	}

	private static String readHead(Socket socket) throws IOException {
		InputStream in = socket.getInputStream();
		StringBuilder head = new StringBuilder();
		while (head.indexOf("\r\n\r\n") < 0) {
			int b = in.read();
			if (b < 0) {
				break;
			}
			head.append((char) b);
		}
		return head.toString();
	}

	/** One request; returns the body, whatever its framing (Spring MVC's Actuator chunks it). */
	private static String get(int port, String path) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.build();
		try {
			return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while reading " + path, ex);
		}
	}

}
