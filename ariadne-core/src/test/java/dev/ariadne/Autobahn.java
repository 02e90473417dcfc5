package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs Autobahn|Testsuite 0.6.4's fuzzing client against WebSocket echo endpoints on loopback,
 * bounded in time, and reads each case's result from its report: for {@code AutobahnIT} and for
 * the test modules that run it against an application (the WebFlux app). The suite is the jar
 * of Maven Central's {@code autobahntestsuite-maven-plugin} under {@code jython-standalone},
 * which the module's build copies into a directory before its integration tests.
 */
public final class Autobahn {

	private static final Pattern RESULT = Pattern
		.compile("\"([0-9.]+)\": \\{\\s*\"behavior\": \"([A-Z-]+)\",\\s*\"behaviorClose\": \"([A-Z- ]+)\"");

	private Autobahn() {
	}

	/**
	 * Runs cases against echo endpoints and returns each agent's results.
	 * @param tools the directory that holds {@code autobahntestsuite.jar} and
	 * {@code jython-standalone.jar}
	 * @param endpoints each agent's name and its {@code ws://} URL
	 * @param cases the case ids or patterns ({@code "1.1.1"}, {@code "2.*"}, {@code "*"})
	 * @param timeout how long the suite may run
	 * @return per agent, each case's behavior and close behavior ({@code OK/OK}), and the report
	 * directory under the key {@code ""}
	 */
	public static Map<String, Map<String, String>> run(Path tools, Map<String, String> endpoints, List<String> cases,
			Duration timeout) throws IOException, InterruptedException {
		Path suite = tools.resolve("autobahntestsuite.jar");
		Path jython = tools.resolve("jython-standalone.jar");
		assertThat(suite).as("copied by the build's pre-integration-test phase").exists();
		Path reports = Files.createTempDirectory("autobahn-reports");
		Path spec = reports.resolve("spec.json");
		Files.writeString(spec, spec(endpoints, cases, reports));
		Path driver = reports.resolve("fuzzingclient.py");
		try (InputStream in = Autobahn.class.getResourceAsStream("/autobahn/fuzzingclient.py")) {
			Files.copy(in, driver, StandardCopyOption.REPLACE_EXISTING);
		}
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		Process process = new ProcessBuilder(java.toString(), "-cp", jython + ":" + suite, "org.python.util.jython",
				driver.toString(), spec.toString())
			.redirectErrorStream(true)
			.redirectOutput(reports.resolve("wstest.log").toFile())
			.start();
		try {
			assertThat(process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)).as("the suite ends within %s", timeout)
				.isTrue();
		}
		finally {
			process.destroyForcibly();
		}
		String index = Files.readString(reports.resolve("index.json"), StandardCharsets.UTF_8);
		Map<String, Map<String, String>> results = new LinkedHashMap<>();
		for (String agent : endpoints.keySet()) {
			results.put(agent, results(index, agent));
		}
		results.put("", Map.of("reports", reports.toString()));
		return results;
	}

	/**
	 * Returns the cases whose behavior or close behavior the suite calls a failure.
	 * @param results one agent's results
	 * @return the failed cases, with their results
	 */
	public static Map<String, String> failed(Map<String, String> results) {
		Map<String, String> failed = new TreeMap<>();
		results.forEach((id, result) -> {
			if (result.contains("FAILED") || result.contains("WRONG")) {
				failed.put(id, result);
			}
		});
		return failed;
	}

	private static String spec(Map<String, String> endpoints, List<String> cases, Path reports) {
		StringBuilder servers = new StringBuilder();
		endpoints.forEach((agent, url) -> servers.append((servers.length() > 0) ? ", " : "")
			.append("{\"agent\": \"")
			.append(agent)
			.append("\", \"url\": \"")
			.append(url)
			.append("\"}"));
		StringBuilder ids = new StringBuilder();
		cases.forEach((id) -> ids.append((ids.length() > 0) ? ", " : "").append('"').append(id).append('"'));
		return "{\"outdir\": \"" + reports + "\", \"servers\": [" + servers + "], \"cases\": [" + ids
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
