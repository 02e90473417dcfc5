package dev.ariadne.bench.webflux;

import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;

/**
 * A text echo at {@code /ws/echo} as a WebFlux {@link WebSocketHandler}, for bench/run-websocket:
 * every message's text back as a text message, as the Spring MVC echo does. The same sources run
 * on Ariadne (the native adapter's sessions) and on Reactor Netty (bench/webflux-netty).
 */
@Configuration(proxyBeanMethods = false)
class EchoWebSocket {

	/**
	 * Maps {@code /ws/echo} after the annotated controllers (order 0), so that the HTTP routes the
	 * other workloads measure are found first, as without it.
	 * @return the mapping
	 */
	@Bean
	HandlerMapping echoWebSocketMapping() {
		WebSocketHandler echo = (session) -> session.send(session.receive()
			.map(WebSocketMessage::getPayloadAsText)
			.map(session::textMessage));
		return new SimpleUrlHandlerMapping(Map.of("/ws/echo", echo), 1);
	}

}
