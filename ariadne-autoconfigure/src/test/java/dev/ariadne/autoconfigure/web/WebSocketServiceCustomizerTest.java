package dev.ariadne.autoconfigure.web;

import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.socket.server.RequestUpgradeStrategy;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;
import org.springframework.web.reactive.socket.server.support.WebSocketHandlerAdapter;
import org.springframework.web.reactive.socket.server.upgrade.ReactorNettyRequestUpgradeStrategy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which WebSocket services of an application get Ariadne's upgrade strategy: those with one of
 * Spring's, picked by class presence, and nothing the application chose itself.
 */
class WebSocketServiceCustomizerTest {

	private final WebSocketServiceCustomizer customizer = new WebSocketServiceCustomizer();

	@Test
	void anAdapterWithSpringsStrategyGetsAriadnesInFrontOfItWithItsOrderAndPredicate() {
		ReactorNettyRequestUpgradeStrategy spring = new ReactorNettyRequestUpgradeStrategy();
		HandshakeWebSocketService service = new HandshakeWebSocketService(spring);
		Predicate<String> predicate = (name) -> name.startsWith("user");
		service.setSessionAttributePredicate(predicate);
		WebSocketHandlerAdapter adapter = new WebSocketHandlerAdapter(service);
		adapter.setOrder(7);
		Object processed = this.customizer.postProcessAfterInitialization(adapter, "handlerAdapter");
		assertThat(processed).isInstanceOf(WebSocketHandlerAdapter.class).isNotSameAs(adapter);
		WebSocketHandlerAdapter replaced = (WebSocketHandlerAdapter) processed;
		assertThat(replaced.getOrder()).isEqualTo(7);
		HandshakeWebSocketService handshake = (HandshakeWebSocketService) replaced.getWebSocketService();
		assertThat(handshake.getSessionAttributePredicate()).isSameAs(predicate);
		assertThat(handshake.getUpgradeStrategy()).isInstanceOfSatisfying(AriadneRequestUpgradeStrategy.class,
				(ariadne) -> assertThat(ariadne.getOther()).isSameAs(spring));
		// once is enough
		assertThat(this.customizer.postProcessAfterInitialization(replaced, "handlerAdapter")).isSameAs(replaced);
	}

	@Test
	void theDefaultAdapterAndAServiceBeanAreCustomizedToo() {
		WebSocketHandlerAdapter adapter = new WebSocketHandlerAdapter();
		WebSocketHandlerAdapter replaced = (WebSocketHandlerAdapter) this.customizer
			.postProcessAfterInitialization(adapter, "webFluxWebSocketHandlerAdapter");
		assertThat(((HandshakeWebSocketService) replaced.getWebSocketService()).getUpgradeStrategy())
			.isInstanceOf(AriadneRequestUpgradeStrategy.class);
		Object service = this.customizer.postProcessAfterInitialization(new HandshakeWebSocketService(), "service");
		assertThat(((HandshakeWebSocketService) service).getUpgradeStrategy())
			.isInstanceOf(AriadneRequestUpgradeStrategy.class);
	}

	@Test
	void theApplicationsOwnStrategyServiceOrAdapterIsLeftAlone() {
		RequestUpgradeStrategy own = (exchange, handler, subProtocol, info) -> Mono.empty();
		WebSocketHandlerAdapter withOwnStrategy = new WebSocketHandlerAdapter(new HandshakeWebSocketService(own));
		assertThat(this.customizer.postProcessAfterInitialization(withOwnStrategy, "a")).isSameAs(withOwnStrategy);
		HandshakeWebSocketService subclass = new HandshakeWebSocketService() {
		};
		assertThat(this.customizer.postProcessAfterInitialization(subclass, "b")).isSameAs(subclass);
		WebSocketHandlerAdapter ownAdapter = new WebSocketHandlerAdapter() {
		};
		assertThat(this.customizer.postProcessAfterInitialization(ownAdapter, "c")).isSameAs(ownAdapter);
		Object other = new Object();
		assertThat(this.customizer.postProcessAfterInitialization(other, "d")).isSameAs(other);
	}

}
