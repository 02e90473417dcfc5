package dev.ariadne.servlet;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;

import dev.ariadne.server.Response;
import dev.ariadne.server.WebSocketTally;

/**
 * The WebSocket sessions of the listener a request arrived on, for a WebSocket container that
 * runs on the container's HTTP upgrade ({@code HttpServletRequest.upgrade}), such as the Jakarta
 * WebSocket of {@code dev.ariadne.servlet.websocket}: it counts each session there, against
 * {@code websocket.max-sessions} and beside the routes' sessions, and reports its messages, so
 * that the listener's statistics, meters and diagnosis see it as they see a route's session.
 */
public final class ListenerWebSockets {

	private ListenerWebSockets() {
	}

	/**
	 * Counts a WebSocket session during its handshake, before the request switches protocols:
	 * through the core exchange under the request ({@link Response#countWebSocket()}).
	 * @param request the handshake request, or a wrapper of it
	 * @return the session's tally, or {@code null} when the listener takes no more sessions (the
	 * handshake is then answered 503 with {@code Retry-After})
	 * @throws IllegalArgumentException if the request is not one of this container's
	 * @throws IllegalStateException if the request's exchange has ended
	 */
	public static WebSocketTally count(ServletRequest request) {
		ServletRequest unwrapped = request;
		while (unwrapped instanceof ServletRequestWrapper wrapper) {
			unwrapped = wrapper.getRequest();
		}
		if (unwrapped instanceof ExchangeRequest exchangeRequest) {
			return exchangeRequest.exchange().countWebSocket();
		}
		throw new IllegalArgumentException("Not a request of Ariadne's servlet container: " + request.getClass().getName());
	}

}
