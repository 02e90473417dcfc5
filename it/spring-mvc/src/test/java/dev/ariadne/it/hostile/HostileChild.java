package dev.ariadne.it.hostile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link HostileApplication} in a JVM of its own, started as a user runs it:
 * {@code java -Xmx256m -XX:+UseSerialGC -cp <the test classpath> ...HostileApplication
 * --server.port=... --management.server.port=... --ariadne.server.io-model=...}. Keeps every
 * line it writes (the log, and what the JVM prints of an {@link OutOfMemoryError}), reads its
 * figures from the management port ({@link HeapProbe}, {@code /actuator/ariadne},
 * {@code /actuator/prometheus}), and stops it with SIGTERM, forcibly only if it does not exit.
 * Stops only the process it started.
 */
final class HostileChild implements AutoCloseable {

	/** The prefix of an argument that is an option of the JVM, as with {@code javac -J}. */
	static final String JVM_OPTION = "-J";

	/** The heap the attacker found the application running with. */
	static final String MAX_HEAP = "256m";

	private static final Duration STARTUP = Duration.ofSeconds(60);

	private static final Pattern DEFENCE = Pattern.compile("^ariadne_defences_total\\{([^}]*)\\} (\\S+)$");

	private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Process process;

	private final List<String> arguments;

	private final int port;

	private final int managementPort;

	private final List<String> lines = new ArrayList<>();

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(10))
		.build();

	private final long startupMillis;

	private HostileChild(List<String> arguments) throws IOException {
		this.arguments = List.copyOf(arguments);
		this.port = freePort();
		this.managementPort = freePort();
		String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		Map<Boolean, List<String>> jvmOptions = arguments.stream()
			.collect(Collectors.partitioningBy((argument) -> argument.startsWith(JVM_OPTION)));
		List<String> command = new ArrayList<>(List.of(java, "-Xmx" + MAX_HEAP, "-XX:+UseSerialGC"));
		jvmOptions.get(true).forEach((option) -> command.add(option.substring(JVM_OPTION.length())));
		command.addAll(List.of("-cp", classpath, HostileApplication.class.getName(), "--server.port=" + this.port,
				"--server.address=127.0.0.1", "--management.server.port=" + this.managementPort,
				"--management.server.address=127.0.0.1"));
		command.addAll(jvmOptions.get(false));
		long start = System.nanoTime();
		this.process = new ProcessBuilder(command).redirectErrorStream(true).start();
		// a test JVM that ends without closing it leaves no application behind
		ProcessHandle handle = this.process.toHandle();
		Runtime.getRuntime().addShutdownHook(new Thread(handle::destroyForcibly, "stop-" + handle.pid()));
		Thread reader = new Thread(this::readLines, "hostile-child-" + this.process.pid());
		reader.setDaemon(true);
		reader.start();
		awaitHealthy();
		warmUp();
		this.startupMillis = (System.nanoTime() - start) / 1_000_000;
	}

	/**
	 * Starts the application and waits until its health endpoint answers.
	 * @param arguments its command-line arguments beyond the ports, such as
	 * {@code --ariadne.server.io-model=event-loop}; one that starts with {@value #JVM_OPTION} is
	 * an option of the JVM instead, without the prefix
	 * @return the running child
	 * @throws IOException if it does not start
	 */
	static HostileChild start(List<String> arguments) throws IOException {
		return new HostileChild(arguments);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket()) {
			socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
			return socket.getLocalPort();
		}
	}

	private void awaitHealthy() throws IOException {
		long deadline = System.nanoTime() + STARTUP.toNanos();
		while (System.nanoTime() - deadline < 0) {
			if (!this.process.isAlive()) {
				throw new IOException(this + " exited with " + this.process.exitValue() + "; its output:\n" + output());
			}
			try {
				if (this.http.send(request("/actuator/health").build(), BodyHandlers.discarding()).statusCode() == 200) {
					return;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException("Interrupted while " + this + " started", ex);
			}
			pause(100);
		}
		close();
		throw new IOException(this + " was not healthy within " + STARTUP.toSeconds() + " s; its output:\n" + output());
	}

	/**
	 * Serves what an application in production has served before it is attacked: its pages, and
	 * an answer by its error page, whose first rendering loads classes that the attack would
	 * otherwise be timed with.
	 */
	private void warmUp() throws IOException {
		URI app = URI.create("http://127.0.0.1:" + this.port);
		try {
			for (int i = 0; i < 20; i++) {
				this.http.send(HttpRequest.newBuilder(app.resolve("/")).build(), BodyHandlers.discarding());
				this.http.send(HttpRequest.newBuilder(app.resolve("/form"))
					.header("Content-Type", "application/x-www-form-urlencoded")
					.POST(HttpRequest.BodyPublishers.ofString((i % 2 == 0) ? "k0=x" : "other=x"))
					.build(), BodyHandlers.discarding());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while " + this + " warmed up", ex);
		}
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void readLines() {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line; (line = reader.readLine()) != null;) {
				synchronized (this.lines) {
					this.lines.add(line);
				}
			}
		}
		catch (IOException ex) {
			// the process is gone
		}
	}

	/** The arguments it was started with, beyond the ports. */
	List<String> arguments() {
		return this.arguments;
	}

	/** The application's port. */
	int port() {
		return this.port;
	}

	/** How long it took from the process's start to a healthy answer. */
	long startupMillis() {
		return this.startupMillis;
	}

	/**
	 * Returns the lines it wrote that match a condition.
	 * @param condition the condition
	 * @return the lines, in order
	 */
	List<String> lines(Predicate<String> condition) {
		synchronized (this.lines) {
			return this.lines.stream().filter(condition).toList();
		}
	}

	/** The lines that tell of an {@link OutOfMemoryError}, in the log or from the JVM. */
	List<String> outOfMemoryErrors() {
		return lines((line) -> line.contains("OutOfMemoryError"));
	}

	/** The last 80 lines it wrote, for failure messages. */
	String output() {
		synchronized (this.lines) {
			return String.join("\n", this.lines.subList(Math.max(0, this.lines.size() - 80), this.lines.size()));
		}
	}

	/**
	 * Returns whether it can serve another scenario: alive, no {@link OutOfMemoryError} so far (a
	 * JVM that had one may have lost any thread), and healthy.
	 * @return whether it may be reused
	 */
	boolean reusable() {
		if (!this.process.isAlive() || !outOfMemoryErrors().isEmpty()) {
			return false;
		}
		try {
			return this.http.send(request("/actuator/health").build(), BodyHandlers.discarding()).statusCode() == 200;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** The heap figures of {@link HeapProbe}, without a collection. */
	Heap heap() {
		JsonNode node = json(request("/actuator/heap").build());
		return new Heap(node.get("peak").asLong(), node.get("used").asLong(), node.get("max").asLong(),
				node.get("fullCollections").asLong(), node.get("youngCollections").asLong());
	}

	/**
	 * Collects the whole heap and starts a new peak from what is left: a baseline.
	 * @return the heap in use after the collection, in bytes
	 */
	long collect() {
		HttpRequest post = request("/actuator/heap").POST(HttpRequest.BodyPublishers.noBody()).build();
		return json(post).get("used").asLong();
	}

	/** The application listener's figures from {@code /actuator/ariadne}. */
	JsonNode listener() {
		return json(request("/actuator/ariadne").build()).get("listeners").get("app");
	}

	/** The application's diagnosis, {@code /actuator/ariadne/diagnosis}. */
	JsonNode diagnosis() {
		return json(request("/actuator/ariadne/diagnosis").build());
	}

	/**
	 * Reads {@code ariadne_defences_total} of the application listener from
	 * {@code /actuator/prometheus}.
	 * @return the counts by {@code reason/low_resources}, for example {@code slow-body/true}
	 */
	Map<String, Long> defences() {
		Map<String, Long> counts = new HashMap<>();
		for (String line : text(request("/actuator/prometheus").build()).split("\n")) {
			Matcher meter = DEFENCE.matcher(line);
			if (!meter.matches()) {
				continue;
			}
			Map<String, String> labels = new HashMap<>();
			Matcher label = LABEL.matcher(meter.group(1));
			while (label.find()) {
				labels.put(label.group(1), label.group(2));
			}
			if ("management".equals(labels.get("listener"))) {
				continue;
			}
			counts.merge(labels.get("reason") + "/" + labels.get("low_resources"),
					(long) Double.parseDouble(meter.group(2)), Long::sum);
		}
		return counts;
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.managementPort + path))
			.timeout(Duration.ofSeconds(20));
	}

	private JsonNode json(HttpRequest request) {
		return JSON.readTree(text(request));
	}

	private String text(HttpRequest request) {
		try {
			var response = this.http.send(request, BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				throw new IllegalStateException(request.uri() + " answered " + response.statusCode() + ": " + response.body());
			}
			return response.body();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(request.uri() + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	/**
	 * Sends SIGTERM and waits up to 30 s for the process to exit; kills it only then.
	 */
	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
	}

	@Override
	public String toString() {
		return "the application (pid " + this.process.pid() + ", " + String.join(" ", this.arguments) + ")";
	}

	/**
	 * The heap as {@link HeapProbe} sees it, in bytes.
	 *
	 * @param peak the most in use since the last {@link #collect()}
	 * @param used in use now
	 * @param max the most the heap may grow to
	 * @param fullCollections full collections so far
	 * @param youngCollections young collections so far
	 */
	record Heap(long peak, long used, long max, long fullCollections, long youngCollections) {

		/** Megabytes, for the lines of figures. */
		static long mb(long bytes) {
			return Math.round(bytes / 1048576.0);
		}

	}

}
