package dev.ariadne.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample application as a user runs it: {@code java -jar} with a profile and
 * command-line properties, on loopback ports of its own, its output in a log file under
 * {@code target}, talked to over HTTP only.
 */
final class SampleProcess implements AutoCloseable {

	private static final Path JAR = Path.of("target", "ariadne-sample-app.jar");

	private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final Process process;

	private final Path log;

	private final int appPort;

	private final int managementPort;

	private final String name;

	private SampleProcess(Process process, Path log, int appPort, int managementPort, String name) {
		this.process = process;
		this.name = name;
		this.log = log;
		this.appPort = appPort;
		this.managementPort = managementPort;
	}

	/**
	 * Starts the application and waits until its management listener says it is up.
	 * @param profile the profile to activate
	 * @param properties more command-line properties, {@code --name=value}
	 * @return the running application
	 * @throws Exception if it does not start within 60 s
	 */
	static SampleProcess start(String profile, String... properties) throws Exception {
		return start(List.of(), profile, properties);
	}

	/**
	 * Starts the application with options for its JVM and waits until its management listener
	 * says it is up.
	 * @param jvmOptions options before {@code -jar}, such as {@code -Dspring.aot.enabled=true}
	 * @param profile the profile to activate
	 * @param properties more command-line properties, {@code --name=value}
	 * @return the running application
	 * @throws Exception if it does not start within 60 s
	 */
	static SampleProcess start(List<String> jvmOptions, String profile, String... properties) throws Exception {
		assertThat(JAR).as("the packaged sample application (run in the integration-test phase)").exists();
		int appPort = freePort();
		int managementPort = freePort();
		Path log = Files.createTempFile(Path.of("target"), "sample-" + profile + "-", ".log");
		String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
		List<String> command = new ArrayList<>(List.of(java, "-Xmx256m"));
		command.addAll(jvmOptions);
		command.addAll(List.of("-jar", JAR.toString(), "--spring.profiles.active=" + profile,
				"--ariadne.server.address=127.0.0.1", "--ariadne.server.port=" + appPort,
				"--management.server.address=127.0.0.1", "--management.server.port=" + managementPort,
				"--ariadne.server.keep-alive.timeout=10m"));
		command.addAll(List.of(properties));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		SampleProcess sample = new SampleProcess(process, log, appPort, managementPort,
				(profile + " " + String.join(" ", properties)).trim());
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (true) {
			try {
				if (sample.management("/actuator/health").contains("\"status\":\"UP\"")) {
					return sample;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			assertThat(process.isAlive()).as("the application is running; see %s", log).isTrue();
			assertThat(System.nanoTime() - deadline).as("started within 60 s; see %s", log).isNegative();
			Thread.sleep(200);
		}
	}

	int appPort() {
		return this.appPort;
	}

	int managementPort() {
		return this.managementPort;
	}

	Path log() {
		return this.log;
	}

	/** The log's lines so far. */
	List<String> logLines() throws IOException {
		return Files.readAllLines(this.log);
	}

	/** One GET on the management listener; the body, whatever its framing. */
	String management(String path) throws IOException {
		return get(this.managementPort, path);
	}

	/** The diagnosis of the app's default pool now, or {@code null} before the first evaluation. */
	Map<String, Object> defaultPool() throws IOException {
		String diagnosis = management("/actuator/ariadne/diagnosis");
		List<Map<String, Object>> pools = JsonPath.read(diagnosis, "$.pools[?(@.listener == 'app' && @.pool == 'default')]");
		return pools.isEmpty() ? null : pools.get(0);
	}

	/**
	 * Reads the gauges of the app's default pool from one Prometheus scrape.
	 * @return each {@code ariadne_pool_*} gauge's value by its exported name
	 */
	Map<String, Double> appPoolGauges() throws IOException {
		String labels = "{listener=\"app\",pool=\"default\"} ";
		Map<String, Double> gauges = new java.util.HashMap<>();
		for (String line : management("/actuator/prometheus").split("\n")) {
			int at = line.indexOf(labels);
			if (line.startsWith("ariadne_pool_") && at > 0) {
				gauges.put(line.substring(0, at), Double.parseDouble(line.substring(at + labels.length()).trim()));
			}
		}
		return gauges;
	}

	/** Waits until the app's default pool's diagnosis matches. */
	Map<String, Object> awaitPool(Predicate<Map<String, Object>> condition, String what, Duration within)
			throws Exception {
		long deadline = System.nanoTime() + within.toNanos();
		Map<String, Object> pool = null;
		while (System.nanoTime() - deadline < 0) {
			pool = defaultPool();
			if (pool != null && condition.test(pool)) {
				return pool;
			}
			Thread.sleep(100);
		}
		throw new AssertionError("The app's default pool was not " + what + " within " + within.toSeconds() + " s: "
				+ pool);
	}

	@Override
	public String toString() {
		return this.name;
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
		}
	}

	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	/**
	 * Sends a GET on a new connection and leaves it open, its answer unread.
	 * @param port the port on 127.0.0.1
	 * @param path the request's path
	 * @param fields more header lines, each ending with CRLF, or empty
	 * @return the connection, reads timing out after 10 s
	 */
	static Socket send(int port, String path, String fields) throws IOException {
		Socket socket = new Socket();
		try {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + fields + "\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			return socket;
		}
		catch (IOException ex) {
			socket.close();
			throw ex;
		}
	}

	/** Reads a response head up to its blank line, or what came before the connection closed. */
	static String readHead(Socket socket) throws IOException {
		InputStream in = socket.getInputStream();
		StringBuilder head = new StringBuilder();
		try {
			while (head.indexOf("\r\n\r\n") < 0) {
				int b = in.read();
				if (b < 0) {
					break;
				}
				head.append((char) b);
			}
		}
		catch (SocketTimeoutException ex) {
			throw new AssertionError("no answer within the read timeout; read so far: " + head, ex);
		}
		return head.toString();
	}

	/** One request; returns the body, whatever its framing (Spring MVC's Actuator chunks it). */
	static String get(int port, String path) throws IOException {
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
