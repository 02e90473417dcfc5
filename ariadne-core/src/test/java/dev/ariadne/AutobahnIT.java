package dev.ariadne;

import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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

	private final List<AriadneServer> servers = new ArrayList<>();

	@AfterEach
	void stop() {
		this.servers.forEach(AriadneServer::stop);
	}

	@Test
	void noCaseFailsInAnyModel() throws Exception {
		Map<String, String> endpoints = new LinkedHashMap<>();
		for (IoModel model : IoModel.values()) {
			if (model == IoModel.VIRTUAL_THREADS && Runtime.version().feature() < 21) {
				continue;
			}
			AriadneServer server = Servers.start(model, (config) -> config,
					Route.get("/ws/echo", WebSocketHandler.of((request) -> new Echo())));
			this.servers.add(server);
			endpoints.put("ariadne-" + model.value(), "ws://127.0.0.1:" + server.port() + "/ws/echo");
		}
		Map<String, Map<String, String>> results = Autobahn.run(Paths.get("target", "autobahn").toAbsolutePath(),
				endpoints, CASES, Duration.ofSeconds(240));
		for (String agent : endpoints.keySet()) {
			assertThat(results.get(agent)).as("cases run against %s (reports: %s)", agent, results.get(""))
				.hasSize(70);
			assertThat(Autobahn.failed(results.get(agent))).as("failed cases on %s", agent).isEmpty();
		}
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
