package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs a bounded part of Autobahn|Testsuite 0.6.4 (its fuzzing client) against WebSocket echo
 * endpoints and fails if any case does, for the tests of every module that serves WebSocket
 * (the core's routes, the Jakarta container). The suite comes from the jars the module's build
 * copies into {@code target/autobahn} ({@code autobahntestsuite.jar}, Maven Central's
 * {@code autobahntestsuite-maven-plugin}, and {@code jython-standalone.jar}); the suite runs in a
 * JVM of its own, bounded, and writes its reports to a temporary directory that the failure
 * messages name. The whole suite is {@code bench/websocket/autobahn}.
 */
public final class Autobahn {

	/**
	 * The cases run in the test command: a few of each group, chosen to stay well under a
	 * minute: framing, pings, reserved bits and opcodes, fragmentation, UTF-8 (fail fast
	 * included), close codes and the closing handshake, 64 KiB messages. 70 cases.
	 */
	public static final List<String> CASES = List.of("1.1.1", "1.1.5", "1.1.8", "1.2.1", "1.2.8", "2.*", "3.*", "4.*",
			"5.1", "5.2", "5.3", "5.6", "5.9", "5.15", "5.17", "5.18", "6.1.*", "6.2.3", "6.3.1", "6.4.1", "6.4.3",
			"6.6.2", "6.8.1", "6.9.1", "6.12.1", "6.21.1", "7.1.*", "7.3.1", "7.3.2", "7.3.3", "7.5.1", "7.7.1",
			"7.7.13", "7.9.1", "7.9.9", "9.1.1", "9.2.1", "10.1.1");

	/** How many cases {@link #CASES} selects in this version of the suite. */
	public static final int CASE_COUNT = 70;

	private static final Pattern RESULT = Pattern
		.compile("\"([0-9.]+)\": \\{\\s*\"behavior\": \"([A-Z-]+)\",\\s*\"behaviorClose\": \"([A-Z- ]+)\"");

	private Autobahn() {
	}

	/**
	 * Runs {@link #CASES} against an echo in every I/O model this Java runs ({@code
	 * virtual-threads} from Java 21), as {@link #assertNoCaseFails} does.
	 * @param agentPrefix the agents' name before the model's
	 * @param echo starts the echo of a model and returns its {@code ws} URI
	 * @param timeoutSeconds how long the suite may take for all of them
	 * @throws IOException if the reports cannot be written or read
	 * @throws InterruptedException if interrupted while the suite runs
	 */
	public static void assertNoCaseFailsInEveryModel(String agentPrefix, Function<IoModel, URI> echo,
			int timeoutSeconds) throws IOException, InterruptedException {
		Map<String, URI> agents = new LinkedHashMap<>();
		for (IoModel model : IoModel.values()) {
			if (model != IoModel.VIRTUAL_THREADS || Runtime.version().feature() >= 21) {
				agents.put(agentPrefix + model.value(), echo.apply(model));
			}
		}
		assertNoCaseFails(agents, timeoutSeconds);
	}

	/**
	 * Runs {@link #CASES} against each agent's echo, one agent after the other, and asserts that
	 * every case ran and none failed (a behavior or a close behavior FAILED, or a wrong close
	 * code), nor found invalid UTF-8 late (a fail-fast case 6.4.x NON-STRICT). Each echo first answers one message of a client of the JDK's: the suite gives its
	 * first case a second, which a cold server on a loaded machine may miss while it loads its
	 * WebSocket classes.
	 * @param agents the name of each server and the {@code ws} URI of its echo
	 * @param timeoutSeconds how long the suite may take for all of them
	 * @throws IOException if the reports cannot be written or read
	 * @throws InterruptedException if interrupted while the suite runs
	 */
	public static void assertNoCaseFails(Map<String, URI> agents, int timeoutSeconds)
			throws IOException, InterruptedException {
		assertNoCaseFails(agents, CASES, timeoutSeconds);
	}

	/**
	 * Runs the given cases (patterns as the suite takes them, {@code "*"} for all) against each
	 * agent's echo as {@link #assertNoCaseFails(Map, int)} does, and prints each agent's counts
	 * by outcome, for a whole run from a test ({@code bench/websocket/autobahn} is the other way).
	 * @param agents the name of each server and the {@code ws} URI of its echo
	 * @param cases the cases
	 * @param timeoutSeconds how long the suite may take for all of them
	 * @throws IOException if the reports cannot be written or read
	 * @throws InterruptedException if interrupted while the suite runs
	 */
	public static void assertNoCaseFails(Map<String, URI> agents, List<String> cases, int timeoutSeconds)
			throws IOException, InterruptedException {
		Path directory = Paths.get("target", "autobahn").toAbsolutePath();
		Path suite = directory.resolve("autobahntestsuite.jar");
		Path jython = directory.resolve("jython-standalone.jar");
		assertThat(suite).as("copied by the build's pre-integration-test phase").exists();
		assertThat(jython).as("copied by the build's pre-integration-test phase").exists();
		for (URI echo : agents.values()) {
			warmUp(echo);
		}
		Path reports = Files.createTempDirectory("autobahn-reports");
		Path spec = reports.resolve("spec.json");
		Files.writeString(spec, spec(agents, cases, reports));
		Path driver = reports.resolve("fuzzingclient.py");
		try (InputStream in = Autobahn.class.getResourceAsStream("/autobahn/fuzzingclient.py")) {
			Files.copy(in, driver, StandardCopyOption.REPLACE_EXISTING);
		}
		Path log = reports.resolve("wstest.log");
		Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
		Process process = new ProcessBuilder(java.toString(), "-cp", jython + ":" + suite, "org.python.util.jython",
				driver.toString(), spec.toString())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			assertThat(process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
				.as("the suite ends within %d s (log: %s)", timeoutSeconds, log)
				.isTrue();
		}
		finally {
			process.destroyForcibly();
		}
		String index = Files.readString(reports.resolve("index.json"), StandardCharsets.UTF_8);
		for (String agent : agents.keySet()) {
			Map<String, String> results = results(index, agent);
			Map<String, Integer> counts = new TreeMap<>();
			results.values().forEach((result) -> counts.merge(result.split("/")[0], 1, Integer::sum));
			System.out.println("Autobahn " + agent + ": " + results.size() + " cases " + counts);
			assertThat(results).as("cases run against %s (reports: %s)", agent, reports).isNotEmpty();
			if (cases == CASES) {
				assertThat(results).as("cases run against %s (reports: %s)", agent, reports).hasSize(CASE_COUNT);
			}
			// and no fail-fast case (6.4.x) NON-STRICT: both paths find invalid UTF-8 at its first
			// byte, as Tomcat does; other cases may be NON-STRICT on a loaded machine (3.4: whether
			// an echo beats the failure of a frame sent byte by byte)
			assertThat(results.entrySet()).as("failed or late-UTF-8 cases on %s (reports: %s)", agent, reports)
				.filteredOn((result) -> result.getValue().contains("FAILED") || result.getValue().contains("WRONG")
						|| (result.getKey().startsWith("6.4.") && result.getValue().contains("NON-STRICT")))
				.isEmpty();
		}
	}

	private static void warmUp(URI echo) throws InterruptedException {
		CompletableFuture<CharSequence> answer = new CompletableFuture<>();
		WebSocket.Listener listener = new WebSocket.Listener() {
			@Override
			public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
				answer.complete(data);
				return null;
			}
		};
		try {
			WebSocket socket = HttpClient.newHttpClient()
				.newWebSocketBuilder()
				.buildAsync(echo, listener)
				.get(30, TimeUnit.SECONDS);
			socket.sendText("warm-up", true);
			assertThat(answer.get(30, TimeUnit.SECONDS)).as("the echo of %s", echo).hasToString("warm-up");
			socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new AssertionError("No echo from " + echo, ex);
		}
	}

	private static String spec(Map<String, URI> agents, List<String> cases, Path reports) {
		StringBuilder servers = new StringBuilder();
		agents.forEach((agent, uri) -> servers.append((servers.length() > 0) ? ", " : "")
			.append("{\"agent\": \"")
			.append(agent)
			.append("\", \"url\": \"")
			.append(uri)
			.append("\"}"));
		StringBuilder selected = new StringBuilder();
		cases.forEach((id) -> selected.append((selected.length() > 0) ? ", " : "").append('"').append(id).append('"'));
		return "{\"outdir\": \"" + reports + "\", \"servers\": [" + servers + "], \"cases\": [" + selected
				+ "], \"exclude-cases\": [], \"exclude-agent-cases\": {}}";
	}

	/** Each case's behavior and close behavior for one agent, from the suite's index. */
	private static Map<String, String> results(String index, String agent) {
		int start = index.indexOf("\"" + agent + "\": {");
		assertThat(start).as("results for %s", agent).isNotNegative();
		int end = index.indexOf("\n   }", start);
		Matcher matcher = RESULT.matcher(index.substring(start, (end > 0) ? end : index.length()));
		Map<String, String> results = new TreeMap<>();
		while (matcher.find()) {
			results.put(matcher.group(1), matcher.group(2) + "/" + matcher.group(3));
		}
		return results;
	}

}
