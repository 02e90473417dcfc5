package dev.ariadne.autoconfigure.web;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.web.reactive.socket.server.RequestUpgradeStrategy;
import org.springframework.web.reactive.socket.server.WebSocketService;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;
import org.springframework.web.reactive.socket.server.support.WebSocketHandlerAdapter;

/**
 * Gives every {@link WebSocketHandlerAdapter} and {@link HandshakeWebSocketService} bean of a
 * WebFlux application Ariadne's {@link AriadneRequestUpgradeStrategy}, without the application
 * changing: the adapter that {@code @EnableWebFlux} and Boot's WebFlux auto-configuration declare,
 * and one the application declares itself as Spring's reference shows
 * ({@code new WebSocketHandlerAdapter()}). Both build a {@code HandshakeWebSocketService} whose
 * strategy Spring picked by class presence, and which holds it for good; such a bean is
 * replaced by one of the same class with Ariadne's strategy in front of Spring's (kept for
 * requests that come another way), the same session attribute predicate and the same order.
 *
 * <p>Left alone: a service or adapter of another class (the application's own), a strategy that
 * is not one of Spring's (the application chose it), and a strategy that is Ariadne's already.
 */
final class WebSocketServiceCustomizer implements BeanPostProcessor {

	private static final String SPRING_STRATEGIES = "org.springframework.web.reactive.socket.server.upgrade.";

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean.getClass() == WebSocketHandlerAdapter.class) {
			WebSocketHandlerAdapter adapter = (WebSocketHandlerAdapter) bean;
			HandshakeWebSocketService service = withAriadne(adapter.getWebSocketService());
			if (service != null) {
				WebSocketHandlerAdapter replaced = new WebSocketHandlerAdapter(service);
				replaced.setOrder(adapter.getOrder());
				return replaced;
			}
		}
		else if (bean.getClass() == HandshakeWebSocketService.class) {
			HandshakeWebSocketService service = withAriadne((WebSocketService) bean);
			if (service != null) {
				return service;
			}
		}
		return bean;
	}

	/**
	 * Returns a copy of a service with Ariadne's strategy in front of Spring's, or {@code null}
	 * when it is to be left alone.
	 */
	static HandshakeWebSocketService withAriadne(WebSocketService service) {
		if (service == null || service.getClass() != HandshakeWebSocketService.class) {
			return null;
		}
		HandshakeWebSocketService handshake = (HandshakeWebSocketService) service;
		RequestUpgradeStrategy strategy = handshake.getUpgradeStrategy();
		if (strategy instanceof AriadneRequestUpgradeStrategy
				|| !strategy.getClass().getName().startsWith(SPRING_STRATEGIES)) {
			return null;
		}
		HandshakeWebSocketService replaced = new HandshakeWebSocketService(new AriadneRequestUpgradeStrategy(strategy));
		replaced.setSessionAttributePredicate(handshake.getSessionAttributePredicate());
		if (handshake.isRunning()) {
			replaced.start();
		}
		return replaced;
	}

}
