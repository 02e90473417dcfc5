package dev.ariadne.server.websocket;

import java.io.OutputStream;
import java.util.List;
import java.util.Objects;

import dev.ariadne.http.Headers;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Handler;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;
import dev.ariadne.server.WebSocketConfig;
import dev.ariadne.websocket.Extension;
import dev.ariadne.websocket.Handshake;
import dev.ariadne.websocket.HandshakeException;
import dev.ariadne.websocket.PerMessageDeflate;

/**
 * A route handler that opens WebSocket sessions: it checks the opening handshake (RFC 6455
 * §4.2), asks its {@link WebSocketEndpoint} for a listener, agrees to a subprotocol and to
 * permessage-deflate, answers {@code 101} through {@link Response#upgrade()} and runs a
 * {@link WebSocketSession} on the connection.
 *
 * <pre>{@code
 * Route.get("/echo", WebSocketHandler.of((request) -> new WebSocketListener() {
 *     public CompletionStage<?> onText(WebSocketSession session, String text) {
 *         return session.sendText(text);
 *     }
 * }))
 * }</pre>
 *
 * <p>Refusals: a request that is not a valid handshake gets 400, 405 or 426 as
 * {@link Handshake#check} says; over {@code websocket.max-sessions}, or while the server shuts
 * down, 503 with {@code Retry-After}, counted; an endpoint that returns {@code null} 403.
 *
 * <p>A server built with the route ({@code AriadneServer.builder(...).route(...)}) gives the
 * handler its {@link WebSocketSessions}: its {@code websocket.*} settings, its meters, its
 * shutdown. A handler called some other way (wrapped by another handler) runs its sessions under
 * the defaults, apart from the server's.
 */
public final class WebSocketHandler implements Handler {

	private final WebSocketEndpoint endpoint;

	private final List<String> subprotocols;

	private final WebSocketSessions sessions;

	/** The sessions of a handler no server bound, under the defaults, made once needed. */
	private volatile WebSocketSessions own;

	private WebSocketHandler(WebSocketEndpoint endpoint, List<String> subprotocols, WebSocketSessions sessions) {
		this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
		this.subprotocols = List.copyOf(subprotocols);
		this.sessions = sessions;
	}

	/**
	 * Creates a handler that opens sessions for an endpoint.
	 * @param endpoint makes each session's listener
	 * @return the handler
	 */
	public static WebSocketHandler of(WebSocketEndpoint endpoint) {
		return new WebSocketHandler(endpoint, List.of(), null);
	}

	/**
	 * Returns a copy that agrees to the first of the client's subprotocols that is among these.
	 * @param subprotocols the subprotocols the endpoint speaks
	 * @return the copy
	 */
	public WebSocketHandler subprotocols(String... subprotocols) {
		return new WebSocketHandler(this.endpoint, List.of(subprotocols), this.sessions);
	}

	/**
	 * Returns a copy that runs its sessions among a server's.
	 * @param sessions the server's sessions
	 * @return the copy
	 */
	public WebSocketHandler bind(WebSocketSessions sessions) {
		return new WebSocketHandler(this.endpoint, this.subprotocols, Objects.requireNonNull(sessions, "sessions"));
	}

	/**
	 * Returns the sessions this handler runs its own among.
	 * @return the server's sessions, or {@code null} when the handler is not bound to a server
	 */
	public WebSocketSessions sessions() {
		return this.sessions;
	}

	@Override
	public void handle(Request request, Response response) throws Exception {
		String key;
		try {
			key = Handshake.check(head(request));
		}
		catch (HandshakeException ex) {
			refuse(response, ex.status().code(), ex.reason(), ex.headers());
			return;
		}
		WebSocketSessions sessions = sessions();
		if (sessions == null) {
			sessions = ownSessions();
		}
		if (!sessions.reserve()) {
			response.header("Retry-After", "1");
			refuse(response, 503, "Too many WebSocket sessions", null);
			return;
		}
		boolean opened = false;
		try {
			WebSocketListener listener = this.endpoint.open(request);
			if (listener == null) {
				refuse(response, 403, "WebSocket refused", null);
				return;
			}
			Headers fields = request.headers();
			String subprotocol = Handshake.selectSubprotocol(fields, this.subprotocols);
			PerMessageDeflate deflate = sessions.config().permessageDeflate()
					? PerMessageDeflate.negotiate(Extension.offered(fields), PerMessageDeflate.Options.DEFAULTS) : null;
			Headers answer = Handshake.responseHeaders(key, subprotocol, (deflate != null) ? deflate.toString() : null);
			for (int i = 0; i < answer.size(); i++) {
				response.header(answer.name(i), answer.value(i));
			}
			AsyncResponse exchange = response.upgrade();
			OutputStream out = response.outputStream();
			// the 101 leaves before the session's first frame
			out.flush();
			Session session = new Session(sessions, request, exchange, out, listener, subprotocol, deflate,
					sessions.limits());
			opened = true;
			session.start();
		}
		finally {
			if (!opened) {
				sessions.unreserve();
			}
		}
	}

	private WebSocketSessions ownSessions() {
		WebSocketSessions own = this.own;
		if (own == null) {
			synchronized (this) {
				own = this.own;
				if (own == null) {
					own = new WebSocketSessions("unbound", WebSocketConfig.DEFAULTS);
					this.own = own;
				}
			}
		}
		return own;
	}

	private static RequestHead head(Request request) {
		try {
			return RequestHead.of(request.method(), "/", RequestHead.TargetForm.ORIGIN, request.version(),
					request.headers(), -1, false);
		}
		catch (HttpParseException ex) {
			throw new IllegalStateException("The origin form '/' is always valid", ex);
		}
	}

	private static void refuse(Response response, int status, String reason, Headers fields) {
		response.status(status);
		if (fields != null) {
			for (int i = 0; i < fields.size(); i++) {
				response.header(fields.name(i), fields.value(i));
			}
		}
		response.send(reason);
	}

}
