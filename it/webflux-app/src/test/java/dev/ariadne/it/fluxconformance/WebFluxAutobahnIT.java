package dev.ariadne.it.fluxconformance;

import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import dev.ariadne.Autobahn;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Autobahn|Testsuite's fuzzing client against the WebFlux application's echo
 * ({@link WebSocketEndpoints#echo}) on Ariadne's native adapter, in every model at once: a
 * bounded part of the suite (framing, pings, fragmentation, UTF-8, close codes, 64 KiB
 * messages), in which no case fails. {@code -Dautobahn.cases="*"} runs the whole suite (with
 * {@code -Dtest.jvm.args=-Xmx1g}: its messages reach 16 MiB, echoed under 32 MiB limits) and
 * prints the counts per model.
 */
@Timeout(value = 1800, unit = TimeUnit.SECONDS)
class WebFluxAutobahnIT {

	/** The cases run by default: a few of each group. */
	private static final List<String> CASES = List.of("1.1.1", "1.1.6", "1.2.1", "1.2.6", "2.*", "3.*", "4.1.1",
			"4.2.1", "5.1", "5.3", "5.6", "5.8", "5.15", "5.19", "6.1.*", "6.2.1", "6.4.2", "6.7.1", "7.1.*", "7.3.*",
			"7.5.1", "7.7.1", "7.7.8", "7.9.2", "9.1.1", "9.2.1");

	private final List<FluxApp> apps = new ArrayList<>();

	@AfterEach
	void stop() {
		this.apps.forEach(FluxApp::close);
	}

	@Test
	void noCaseFailsInAnyModel() throws Exception {
		String selected = System.getProperty("autobahn.cases", "");
		List<String> cases = selected.isBlank() ? CASES : Arrays.asList(selected.trim().split("\\s+"));
		Map<String, String> endpoints = new LinkedHashMap<>();
		for (IoModel model : IoModel.values()) {
			FluxApp app = FluxApp.onAriadne(model, "ariadne.server.websocket.max-message-size=32MB",
					"ariadne.server.websocket.max-frame-size=32MB", "ariadne.server.diagnosis.enabled=false");
			this.apps.add(app);
			endpoints.put("webflux-" + model.value(), "ws://127.0.0.1:" + app.port() + "/ws/echo");
		}
		long start = System.nanoTime();
		Map<String, Map<String, String>> results = Autobahn.run(Paths.get("target", "autobahn").toAbsolutePath(),
				endpoints, cases, cases.equals(CASES) ? Duration.ofSeconds(300) : Duration.ofSeconds(1700));
		long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
		for (String agent : endpoints.keySet()) {
			Map<String, Integer> counts = new TreeMap<>();
			results.get(agent).values().forEach((result) -> counts.merge(result.split("/")[0], 1, Integer::sum));
			System.out.println("Autobahn " + agent + ": " + results.get(agent).size() + " cases " + counts + " in "
					+ seconds + " s (reports: " + results.get("") + ")");
			assertThat(results.get(agent)).as("cases run against %s (reports: %s)", agent, results.get(""))
				.isNotEmpty();
			assertThat(Autobahn.failed(results.get(agent))).as("failed cases on %s", agent).isEmpty();
		}
	}

}
