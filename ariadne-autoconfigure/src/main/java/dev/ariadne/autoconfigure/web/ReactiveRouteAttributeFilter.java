package dev.ariadne.autoconfigure.web;

import jakarta.servlet.http.HttpServletRequest;

import dev.ariadne.server.Request;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Hands a WebFlux request's best-matching pattern (an annotated mapping's or a
 * {@code RouterFunction}'s) to the request under the exchange (Ariadne's own, or the servlet
 * request under Spring's servlet adapter), before the response is committed, so that
 * Ariadne's meters and diagnosis tag the request with its route, never its raw path, as they
 * do for Spring MVC.
 */
final class ReactiveRouteAttributeFilter implements WebFilter, Ordered {

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		exchange.getResponse().beforeCommit(() -> {
			Object pattern = exchange.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
			if (pattern != null) {
				Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(exchange.getRequest());
				if (nativeRequest instanceof Request request) {
					request.route(pattern.toString());
				}
				else if (nativeRequest instanceof HttpServletRequest request) {
					request.setAttribute(AriadneWebServerFactoryCustomizer.REACTIVE_ROUTE, pattern.toString());
				}
			}
			return Mono.empty();
		});
		return chain.filter(exchange);
	}

}
