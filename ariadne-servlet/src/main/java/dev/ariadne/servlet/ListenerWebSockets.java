package dev.ariadne.servlet;

import java.io.OutputStream;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;
import dev.ariadne.server.WebSocketTally;

/**
 * The WebSocket sessions of the listener a request arrived on, for a WebSocket container such as
 * the Jakarta WebSocket of {@code dev.ariadne.servlet.websocket}: it counts each session there,
 * against {@code websocket.max-sessions} and beside the routes' sessions, so that the listener's
 * statistics, meters and diagnosis see it as they see a route's session. A session the container
 * runs itself on the HTTP upgrade ({@code HttpServletRequest.upgrade}) reports its messages to
 * its tally; one it asks the core to run ({@link #switchToSession}) is the core's own.
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
		return exchange(request).countWebSocket();
	}

	/**
	 * Switches a request to a WebSocket session that the core runs on its connection: the
	 * response becomes a {@code 101}, sent once the request's dispatch has returned (with the
	 * fields set until then), and the start runs after it, on the request's thread.
	 * @param request the handshake request, or a wrapper of it
	 * @param start starts the session
	 * @throws IllegalArgumentException if the request is not one of this container's
	 * @throws IllegalStateException if the request switched already, started async mode or
	 * committed its response
	 */
	public static void switchToSession(ServletRequest request, SessionStart start) {
		exchange(request).upgrade(start);
	}

	private static ServletExchange exchange(ServletRequest request) {
		ServletRequest unwrapped = request;
		while (unwrapped instanceof ServletRequestWrapper wrapper) {
			unwrapped = wrapper.getRequest();
		}
		if (unwrapped instanceof ExchangeRequest exchangeRequest) {
			return exchangeRequest.exchange();
		}
		throw new IllegalArgumentException("Not a request of Ariadne's servlet container: " + request.getClass().getName());
	}

	/** Starts a WebSocket session on a connection that switched protocols. */
	@FunctionalInterface
	public interface SessionStart {

		/**
		 * Starts the session, once the {@code 101} is out.
		 * @param request the core request of the handshake
		 * @param exchange the core's upgraded exchange
		 * @param out its stream
		 */
		void start(Request request, AsyncResponse exchange, OutputStream out);

	}

}
