package dev.ariadne.it.websocket;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.Autobahn;

/**
 * A bounded part of Autobahn|Testsuite 0.6.4 ({@link Autobahn#CASES}, the 70 cases the core's
 * routes run) against the Jakarta path: the {@code @EnableWebSocket} echo handler of a Spring
 * MVC application on Tyrus's engine over Ariadne's servlet upgrade, in every model: no case
 * fails. Applications of its own, so that the suite's closes (1002, 1007, ...) do not reach the
 * shared applications' handlers, whose closes other tests look for. The whole suite against this
 * application is {@code bench/websocket/autobahn}'s {@code ariadne-jakarta-*} servers.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class AutobahnIT {

	private final List<WebSocketApp> apps = new ArrayList<>();

	@AfterEach
	void close() {
		this.apps.forEach(WebSocketApp::close);
	}

	@Test
	void noCaseFailsInAnyModel() throws Exception {
		Autobahn.assertNoCaseFailsInEveryModel("ariadne-jakarta-", (model) -> {
			WebSocketApp app = WebSocketApp.start(model);
			this.apps.add(app);
			return app.ws("/echo");
		}, 240);
	}

}
