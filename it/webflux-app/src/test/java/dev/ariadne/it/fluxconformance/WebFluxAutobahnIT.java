package dev.ariadne.it.fluxconformance;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.ariadne.Autobahn;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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

	private final List<FluxApp> apps = new ArrayList<>();

	@AfterEach
	void stop() {
		this.apps.forEach(FluxApp::close);
	}

	@Test
	void noCaseFailsInAnyModel() throws Exception {
		String selected = System.getProperty("autobahn.cases", "");
		List<String> cases = selected.isBlank() ? Autobahn.CASES : Arrays.asList(selected.trim().split("\\s+"));
		Map<String, URI> agents = new LinkedHashMap<>();
		for (IoModel model : IoModel.values()) {
			FluxApp app = FluxApp.onAriadne(model, "ariadne.server.websocket.max-message-size=32MB",
					"ariadne.server.websocket.max-frame-size=32MB", "ariadne.server.diagnosis.enabled=false");
			this.apps.add(app);
			agents.put("webflux-" + model.value(), URI.create("ws://127.0.0.1:" + app.port() + "/ws/echo"));
		}
		Autobahn.assertNoCaseFails(agents, cases, (cases == Autobahn.CASES) ? 300 : 1700);
	}

}
