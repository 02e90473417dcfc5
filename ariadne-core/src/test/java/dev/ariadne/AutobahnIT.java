package dev.ariadne;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.server.routing.Route;
import dev.ariadne.server.websocket.WebSocketHandler;
import dev.ariadne.server.websocket.WebSocketListener;
import dev.ariadne.server.websocket.WebSocketSession;

/**
 * A bounded part of Autobahn|Testsuite 0.6.4 ({@link Autobahn#CASES}, 70 cases) against a
 * WebSocket echo route on Ariadne in every model: no case fails. The whole suite, with Tomcat
 * and Jetty beside Ariadne, is {@code bench/websocket/autobahn}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class AutobahnIT {

	private final List<AriadneServer> servers = new ArrayList<>();

	@AfterEach
	void stop() {
		this.servers.forEach(AriadneServer::stop);
	}

	@Test
	void noCaseFailsInAnyModel() throws Exception {
		Autobahn.assertNoCaseFailsInEveryModel("ariadne-", (model) -> {
			AriadneServer server = Servers.start(model, (config) -> config,
					Route.get("/ws/echo", WebSocketHandler.of((request) -> new Echo())));
			this.servers.add(server);
			return URI.create("ws://127.0.0.1:" + server.port() + "/ws/echo");
		}, 240);
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
