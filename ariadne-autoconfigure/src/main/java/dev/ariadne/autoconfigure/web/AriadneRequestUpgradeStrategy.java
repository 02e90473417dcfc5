package dev.ariadne.autoconfigure.web;

import java.util.function.Supplier;

import reactor.core.publisher.Mono;

import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.server.RequestUpgradeStrategy;
import org.springframework.web.server.ServerWebExchange;

/**
 * The {@link RequestUpgradeStrategy} of Ariadne's native WebFlux adapter: a handshake that
 * WebFlux's {@code HandshakeWebSocketService} accepted is answered by the core's WebSocket
 * handler ({@code 101}, or {@code 503} over {@code ariadne.server.websocket.max-sessions}), and
 * the {@link WebSocketHandler} then runs on a core session, under the listener's
 * {@code websocket.*} settings and counted by its meters, with back-pressure both ways.
 *
 * <p>Spring picks a strategy by the classes present (Jetty's, then Reactor Netty's, else the
 * standard one), none of which works on Ariadne's exchange; the auto-configuration therefore puts
 * this one in the {@code HandshakeWebSocketService} of every {@code WebSocketHandlerAdapter} (a
 * bean post-processor), and keeps the strategy Spring picked for requests that reach the
 * application another way (another server, the servlet adapter). An application that builds its
 * own {@code HandshakeWebSocketService} may pass an instance of this class.
 *
 * <p>The core switches protocols only while the exchange's handler runs: when a filter lets the
 * handshake go on from another thread, the adapter's worker waits for it (a bounded wait, see
 * {@code ReactiveHandlerAdapter}).
 */
public final class AriadneRequestUpgradeStrategy implements RequestUpgradeStrategy {

	private final RequestUpgradeStrategy other;

	/**
	 * Creates a strategy for requests of Ariadne's native adapter only.
	 */
	public AriadneRequestUpgradeStrategy() {
		this(null);
	}

	/**
	 * Creates a strategy that hands requests that did not come through Ariadne's native adapter
	 * to another.
	 * @param other the strategy for other requests, or {@code null}
	 */
	public AriadneRequestUpgradeStrategy(RequestUpgradeStrategy other) {
		this.other = other;
	}

	/**
	 * Returns the strategy for requests that did not come through Ariadne's native adapter.
	 * @return the other strategy, or {@code null}
	 */
	public RequestUpgradeStrategy getOther() {
		return this.other;
	}

	@Override
	public Mono<Void> upgrade(ServerWebExchange exchange, WebSocketHandler handler, String subProtocol,
			Supplier<HandshakeInfo> handshakeInfoFactory) {
		ExchangeServerHttpResponse response = ExchangeServerHttpResponse.unwrap(exchange.getResponse());
		if (response == null) {
			if (this.other != null) {
				return this.other.upgrade(exchange, handler, subProtocol, handshakeInfoFactory);
			}
			return Mono.error(new IllegalStateException(
					"This request did not come through Ariadne's native WebFlux adapter: no WebSocket upgrade for it"));
		}
		return Mono.defer(() -> {
			try {
				response.switchToWebSocket(
						new FluxSessionListener(handler, handshakeInfoFactory, response.bufferFactory()), subProtocol);
			}
			catch (Exception ex) {
				return Mono.error(ex);
			}
			return Mono.empty();
		});
	}

}
