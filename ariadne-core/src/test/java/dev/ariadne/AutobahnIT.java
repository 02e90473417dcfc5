package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.websocket.WebSocketHandler;
import dev.ariadne.server.websocket.WebSocketListener;
import dev.ariadne.server.websocket.WebSocketSession;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bounded part of Autobahn|Testsuite 0.6.4 (its fuzzing client) against a WebSocket echo on
 * Ariadne in every model at once: framing, pings, reserved bits and opcodes, fragmentation,
 * UTF-8 (fail fast included), close codes and the closing handshake, 64 KiB messages. No case
 * fails. The suite comes from the jars the build copies into {@code target/autobahn} (Maven
 * Central's {@code autobahntestsuite-maven-plugin}, under {@code jython-standalone}); the whole
 * suite, with Tomcat and Jetty beside Ariadne, is {@code bench/websocket/autobahn}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class AutobahnIT {

	/** The cases run here: a few of each group, chosen to stay well under a minute. */
	static final List<String> CASES = List.of("1.1.1", "1.1.5", "1.1.8", "1.2.1", "1.2.8", "2.*", "3.*", "4.*", "5.1",
			"5.2", "5.3", "5.6", "5.9", "5.15", "5.17", "5.18", "6.1.*", "6.2.3", "6.3.1", "6.4.1", "6.4.3", "6.6.2",
			"6.8.1", "6.9.1", "6.12.1", "6.21.1", "7.1.*", "7.3.1", "7.3.2", "7.3.3", "7.5.1", "7.7.1", "7.7.13",
			"7.9.1", "7.9.9", "9.1.1", "9.2.1", "10.1.1");

	private static final Pattern RESULT = Pattern
		.compile("\"([0-9.]+)\": \\{\\s*\"behavior\": \"([A-Z-]+)\",\\s*\"behaviorClose\": \"([A-Z- ]+)\"");

	private final List<AriadneServer> servers = new ArrayList<>();

	@AfterEach
	void stop() {
		this.servers.forEach(AriadneServer::stop);
	}

	@Test
	void noCaseFailsInAnyModel() throws Exception {
		Path directory = Paths.get("target", "autobahn").toAbsolutePath();
		Path suite = directory.resolve("autobahntestsuite.jar");
		Path jython = directory.resolve("jython-standalone.jar");
		assertThat(suite).as("copied by the build's pre-integration-test phase").exists();
		Map<String, Integer> agents = new LinkedHashMap<>();
		for (IoModel model : IoModel.values()) {
			if (model == IoModel.VIRTUAL_THREADS && Runtime.version().feature() < 21) {
				continue;
			}
			AriadneServer server = Servers.start(model, (config) -> config,
					Route.get("/ws/echo", WebSocketHandler.of((request) -> new Echo())));
			this.servers.add(server);
			agents.put("ariadne-" + model.value(), server.port());
		}
		Path reports = Files.createTempDirectory("autobahn-reports");
		Path spec = reports.resolve("spec.json");
		Files.writeString(spec, spec(agents, reports));
		Path driver = reports.resolve("fuzzingclient.py");
		try (InputStream in = AutobahnIT.class.getResourceAsStream("/autobahn/fuzzingclient.py")) {
			Files.copy(in, driver, StandardCopyOption.REPLACE_EXISTING);
		}
		Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
		Process process = new ProcessBuilder(java.toString(), "-cp", jython + ":" + suite, "org.python.util.jython",
				driver.toString(), spec.toString())
			.redirectErrorStream(true)
			.redirectOutput(reports.resolve("wstest.log").toFile())
			.start();
		try {
			assertThat(process.waitFor(240, TimeUnit.SECONDS)).as("the suite ends within 4 minutes").isTrue();
		}
		finally {
			process.destroyForcibly();
		}
		String index = Files.readString(reports.resolve("index.json"), StandardCharsets.UTF_8);
		for (String agent : agents.keySet()) {
			Map<String, String> results = results(index, agent);
			assertThat(results).as("cases run against %s (log: %s)", agent, reports.resolve("wstest.log"))
				.hasSize(70);
			assertThat(results.entrySet()).as("failed cases on %s", agent)
				.filteredOn((result) -> result.getValue().contains("FAILED") || result.getValue().contains("WRONG"))
				.isEmpty();
		}
	}

	private static String spec(Map<String, Integer> agents, Path reports) {
		StringBuilder servers = new StringBuilder();
		agents.forEach((agent, port) -> servers.append((servers.length() > 0) ? ", " : "")
			.append("{\"agent\": \"")
			.append(agent)
			.append("\", \"url\": \"ws://127.0.0.1:")
			.append(port)
			.append("/ws/echo\"}"));
		StringBuilder cases = new StringBuilder();
		CASES.forEach((id) -> cases.append((cases.length() > 0) ? ", " : "").append('"').append(id).append('"'));
		return "{\"outdir\": \"" + reports + "\", \"servers\": [" + servers + "], \"cases\": [" + cases
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

	/** The echo: each message back whole, the next read once the echo may be sent. */
	static final class Echo implements WebSocketListener {

		@Override
		public java.util.concurrent.CompletionStage<?> onText(WebSocketSession session, String text) {
			return session.sendText(text);
		}

		@Override
		public java.util.concurrent.CompletionStage<?> onBinary(WebSocketSession session, java.nio.ByteBuffer data) {
			return session.sendBinary(data);
		}

	}

}
