package dev.ariadne.it.fluxconformance;

import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.WebSocketSession;
import org.springframework.web.reactive.socket.server.support.WebSocketHandlerAdapter;
import org.springframework.web.server.WebFilter;

/**
 * WebSocket endpoints as Spring's reference declares them: {@link WebSocketHandler}s in a
 * {@link SimpleUrlHandlerMapping}, and a {@link WebSocketHandlerAdapter} of the application's own,
 * with nothing in them that knows about Ariadne.
 */
@Configuration(proxyBeanMethods = false)
public class WebSocketEndpoints {

	/** The close status the {@code /ws/close} handler sends after its first message. */
	static final CloseStatus HANDLER_CLOSE = new CloseStatus(4001, "closed by the handler");

	@Bean
	WebSocketProbe webSocketProbe() {
		return new WebSocketProbe();
	}

	@Bean
	HandlerMapping webSocketMapping(WebSocketProbe probe) {
		Map<String, WebSocketHandler> handlers = Map.of("/ws/echo", WebSocketEndpoints::echo, "/ws/late",
				WebSocketEndpoints::echo, "/ws/close",
				(session) -> session.receive().concatMap((message) -> session.close(HANDLER_CLOSE)).then(),
				"/ws/watch",
				(session) -> {
					session.closeStatus().subscribe(probe::closed);
					return echo(session);
				}, "/ws/info", new Info(), "/ws/slow", (session) -> session.receive()
					.doOnNext((message) -> probe.slowReceived())
					.concatMap((message) -> Mono.never())
					.then());
		return new SimpleUrlHandlerMapping(handlers, -1);
	}

	/** A principal for {@code /ws/info}, named by {@code X-User}, as an authentication filter sets one. */
	@Bean
	WebFilter webSocketPrincipal() {
		return (exchange, chain) -> {
			String user = exchange.getRequest().getHeaders().getFirst("X-User");
			if (user == null || !exchange.getRequest().getPath().value().equals("/ws/info")) {
				return chain.filter(exchange);
			}
			Principal principal = () -> user;
			return chain.filter(exchange.mutate().principal(Mono.just(principal)).build());
		};
	}

	/**
	 * Lets {@code /ws/late}'s handshake go on from another thread, after a pause, as a filter that
	 * looks something up without blocking does (Spring Security's reactive authentication checks
	 * a password on {@code boundedElastic}).
	 */
	@Bean
	WebFilter lateHandshake() {
		return (exchange, chain) -> {
			if (!exchange.getRequest().getPath().value().equals("/ws/late")) {
				return chain.filter(exchange);
			}
			return Mono.delay(Duration.ofMillis(50))
				.publishOn(Schedulers.boundedElastic())
				.then(Mono.defer(() -> chain.filter(exchange)));
		};
	}

	@Bean
	WebSocketHandlerAdapter handlerAdapter() {
		return new WebSocketHandlerAdapter();
	}

	/**
	 * Sends back what it receives, a message for each, text as text and binary as binary; pongs
	 * (an answer to nothing, Autobahn's cases 2.7 to 2.9) get no answer.
	 */
	static Mono<Void> echo(WebSocketSession session) {
		return session.send(session.receive()
			.filter((message) -> message.getType() == WebSocketMessage.Type.TEXT
					|| message.getType() == WebSocketMessage.Type.BINARY)
			.map((message) -> {
				if (message.getType() == WebSocketMessage.Type.TEXT) {
					return session.textMessage(message.getPayloadAsText());
				}
				byte[] bytes = new byte[message.getPayload().readableByteCount()];
				message.getPayload().read(bytes);
				return session.binaryMessage((factory) -> factory.wrap(bytes));
			}));
	}

	/** Answers each message with what the handshake told the handler, the principal last. */
	static final class Info implements WebSocketHandler {

		@Override
		public List<String> getSubProtocols() {
			return List.of("v1.probe");
		}

		@Override
		public Mono<Void> handle(WebSocketSession session) {
			HandshakeInfo info = session.getHandshakeInfo();
			session.getAttributes().put("seen", "yes");
			String facts = info.getUri().getPath() + "|" + info.getUri().getQuery() + "|"
					+ info.getHeaders().getFirst("X-Probe") + "|" + info.getSubProtocol() + "|"
					+ info.getRemoteAddress().getAddress().getHostAddress() + "|" + session.getAttributes().get("seen");
			// not receive().next(): Reactor Netty closes a session whose receive() was cancelled
			return session.send(session.receive()
				.concatMap((message) -> info.getPrincipal()
					.map(Principal::getName)
					.defaultIfEmpty("nobody")
					.map((name) -> session.textMessage(facts + "|" + name))));
		}

	}

}
