package dev.ariadne.sample;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletionStage;

import dev.ariadne.server.routing.Route;
import dev.ariadne.server.websocket.WebSocketHandler;
import dev.ariadne.server.websocket.WebSocketListener;
import dev.ariadne.server.websocket.WebSocketSession;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Ariadne's own {@link Route} API beside Spring MVC: a route declared as a bean is served by
 * the same listener, with the same pools and meters, ahead of the servlet chain (no
 * {@code DispatcherServlet}, no filters), for the few endpoints where that matters.
 */
@Configuration(proxyBeanMethods = false)
public class SampleRoutes {

	/**
	 * Answers {@code pong}, without Spring MVC.
	 * @return the {@code GET /ping} route
	 */
	@Bean
	Route pingRoute() {
		return Route.get("/ping", (request, response) -> response.send("pong"));
	}

	/**
	 * Echoes each WebSocket message, taking the next one once the echo may be sent. An open
	 * session holds a worker of the {@code blocking} model for as long as it is open, quiet or
	 * not; on the event loop a quiet one holds none.
	 * @return the {@code GET /ws/echo} route
	 */
	@Bean
	Route echoRoute() {
		return Route.get("/ws/echo", WebSocketHandler.of((request) -> new Echo()));
	}

	/** Sends every message back as it came. */
	private static final class Echo implements WebSocketListener {

		@Override
		public CompletionStage<?> onText(WebSocketSession session, String text) {
			return session.sendText(text);
		}

		@Override
		public CompletionStage<?> onBinary(WebSocketSession session, ByteBuffer data) {
			return session.sendBinary(data);
		}

	}

}
