package dev.ariadne.server.connection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.function.BooleanSupplier;

import javax.net.ssl.SSLSession;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.Method;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Status;
import dev.ariadne.server.Handler;
import dev.ariadne.server.RateLimitedLogger;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.routing.RouteMatch;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.stats.RequestEvent;

/**
 * The request-to-response step every I/O model shares, in the order a request takes it: route
 * it ({@link #route}, once), send it to the pool that runs it through the model's
 * {@link PoolEntry} ({@link #dispatch}), then, on that pool's worker, run the handler chain,
 * turn a failure into a response, end the response's framing, decide whether the connection
 * carries another request, and report the exchange to the listeners ({@link #run}). Also the
 * one place where refused requests (bad syntax, limits, overload) are answered
 * ({@link #refuse}).
 *
 * <p>Every answer the server chooses itself (a refused request, a failed handler's 500, a
 * malformed path's 400, {@code CONNECT}'s 501, a full pool's 503) is encoded by
 * {@link Answers}, and the connection closes after it. Statuses a handler chooses, and the
 * router's 404 and 405, keep the connection.
 *
 * <p>One instance per connection, used by one thread at a time: the thread running the
 * connection's current exchange.
 */
public final class HttpExchange {

	private static final Logger logger = System.getLogger(HttpExchange.class.getName());

	private static final RateLimitedLogger handlerFailures = RateLimitedLogger.of(logger, "Handler failed");

	/** Most bytes of an unread request body discarded to keep the connection; more closes it. */
	static final long MAX_DRAIN = 64 * 1024;

	private static final String ASTERISK_ROUTE = "*";

	private static final RouteMatch REFUSED_CONNECT = refusal(Status.NOT_IMPLEMENTED_501, Answers.CONNECT_UNSUPPORTED);

	private static final RouteMatch REFUSED_PATH = refusal(Status.BAD_REQUEST_400, Answers.MALFORMED_PATH);

	private final ConnectionContext context;

	private final ConnectionOutput out;

	private final InetSocketAddress remote;

	private final InetSocketAddress local;

	private final BooleanSupplier releaseConnection;

	/** The connection's TLS session once its handshake completed; before its first exchange. */
	private SSLSession tlsSession;

	private int requests;

	private RequestHead head;

	private RequestBody body;

	/**
	 * Creates the exchange logic of one connection.
	 * @param context the server's shared state
	 * @param out the connection's output
	 * @param remote the client's address
	 * @param local the server's address
	 * @param releaseConnection asked at each response whether the model wants this connection
	 * released ({@code Connection: close}) to free its worker; the blocking model's release
	 * threshold
	 */
	public HttpExchange(ConnectionContext context, ConnectionOutput out, InetSocketAddress remote,
			InetSocketAddress local, BooleanSupplier releaseConnection) {
		this.context = context;
		this.out = out;
		this.remote = remote;
		this.local = local;
		this.releaseConnection = releaseConnection;
	}

	ConnectionContext context() {
		return this.context;
	}

	/**
	 * Sets the TLS session of the connection, which its requests report; called once the
	 * handshake completed, before the first exchange is dispatched.
	 * @param session the session
	 */
	public void tlsSession(SSLSession session) {
		this.tlsSession = session;
	}

	/**
	 * Sends a routed request to the pool that runs it, the route's own or the model's default
	 * one, through the model's entry. A pool that refuses it is counted and answered here, the
	 * same in every model: 503 with {@code Retry-After}, after which the connection closes.
	 * @param <X> what the entry may throw
	 * @param head the request's head
	 * @param match the request's route, found once with {@link #route(RequestHead)}
	 * @param entry how the model reaches the pool
	 * @param exchange runs the exchange with {@link #run}, on the pool's worker
	 * @return whether the request went to its pool; if not, its 503 is in the output
	 * @throws X if the entry failed while waiting for a turn
	 */
	public <X extends Exception> boolean dispatch(RequestHead head, RouteMatch match, PoolEntry<X> entry,
			Runnable exchange) throws X {
		RejectReason refused = entry.enter(this.context.routePools().get(match.pool()), exchange);
		if (refused == null) {
			return true;
		}
		this.context.registry().rejected(refused);
		refuse(Status.SERVICE_UNAVAILABLE_503,
				(refused == RejectReason.POOL_FULL) ? Answers.poolFull(match.pool()) : Answers.QUEUE_FULL, 1, head,
				RequestEvent.REJECTED);
		return false;
	}

	/**
	 * Runs one request on the calling thread, a worker of the request's pool, and leaves its
	 * response in the connection's output (not necessarily flushed).
	 * @param head the parsed head
	 * @param body the body, positioned at its start
	 * @param startNanos when the head was read ({@link System#nanoTime()})
	 * @param queueWaitNanos how long the request waited for a worker
	 * @param match the request's route, found once with {@link #route(RequestHead)}
	 * @return whether the connection may carry another request; when {@code false} the caller
	 * flushes and closes it
	 */
	public boolean run(RequestHead head, RequestBody body, long startNanos, long queueWaitNanos, RouteMatch match) {
		RequestEvents events = this.context.events();
		long begin = events.countsRouteWork() ? System.nanoTime() : 0;
		this.requests++;
		this.head = head;
		this.body = body;
		ServerResponse response = new ServerResponse(this, this.out, head.method() == Method.HEAD, head.version());
		ServerRequest request = new ServerRequest(head, body, this.remote, this.local,
				this.context.config().limits().maxBodySize());
		request.match(match);
		request.tlsSession(this.tlsSession);
		boolean complete;
		try {
			match.handler().handle(request, response);
			complete = response.finish();
		}
		catch (Throwable failure) {
			complete = fail(request, response, failure);
		}
		boolean keep = complete && response.keepAlive();
		if (keep && !body.finished()) {
			keep = drain(body);
		}
		// a fallback handler (a servlet container) may have reported the route it served
		String route = request.route();
		boolean listeners = events.hasListeners();
		long end = (begin != 0 || listeners) ? System.nanoTime() : 0;
		if (begin != 0) {
			events.routeWorked(match.pool(), route, end - begin);
		}
		if (listeners) {
			events.publish(new RequestEvent(this.context.config().name(), head.method().name(), route,
					complete ? response.status() : 0, end - startNanos, queueWaitNanos, match.pool()));
		}
		return keep;
	}

	/**
	 * Finds what to run for a request: a route, or one of the fixed answers (404, 405,
	 * {@code OPTIONS *}, 501 for {@code CONNECT}, 400 for a malformed path).
	 * @param head the request's head
	 * @return the match
	 */
	public RouteMatch route(RequestHead head) {
		if (head.targetForm() == RequestHead.TargetForm.ASTERISK) {
			String allow = this.context.router().allowedMethods();
			Handler options = (req, res) -> {
				res.status(204);
				res.header(HeaderName.ALLOW, allow.isEmpty() ? "OPTIONS" : allow + ", OPTIONS");
			};
			return new RouteMatch(ASTERISK_ROUTE, options, Collections.emptyMap(), Route.DEFAULT_POOL, true);
		}
		if (head.targetForm() == RequestHead.TargetForm.AUTHORITY) {
			return REFUSED_CONNECT;
		}
		try {
			return this.context.router().match(head.method(), ServerRequest.rawPath(head));
		}
		catch (IllegalArgumentException ex) {
			return REFUSED_PATH;
		}
	}

	/** A fixed answer the server chooses for a request no route may see; the connection closes after it. */
	private static RouteMatch refusal(Status status, String reason) {
		Handler refuse = (request, response) -> ((ServerResponse) response).answer(status, reason, 0);
		return new RouteMatch(RequestEvent.INVALID, refuse, Collections.emptyMap(), Route.DEFAULT_POOL, false);
	}

	private boolean fail(ServerRequest request, ServerResponse response, Throwable failure) {
		Throwable cause = (failure instanceof UncheckedIOException) ? failure.getCause() : failure;
		if (cause instanceof BodyException bad && !response.committed()) {
			HttpParseException parse = bad.parseException();
			response.answer(parse.status(), parse.reason(), 0);
			return true;
		}
		if (cause instanceof IOException) {
			// mostly the connection failing; but a handler's own I/O error (a missing file) is an
			// IOException too, and is answered like any other failure: if the connection is gone,
			// the 500 below fails to go out, which changes nothing
			logger.log(Level.DEBUG, () -> "I/O failed during " + request, failure);
		}
		else {
			if (failure instanceof Error) {
				// out of memory, a stack overflow: answered like any failure, and counted
				this.context.registry().fatalError();
			}
			handlerFailures.log(() -> "Handler failed for " + request, failure);
		}
		if (response.committed()) {
			// the head is on its way: the only honest signal left is an incomplete body
			return false;
		}
		response.answer(Status.INTERNAL_SERVER_ERROR_500, Answers.HANDLER_FAILED, 0);
		return true;
	}

	private boolean drain(RequestBody body) {
		try {
			return body.drain(MAX_DRAIN);
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Decides, when a response is committed, whether the connection stays open after it.
	 */
	boolean keepAliveAfter(ServerResponse response) {
		if (!this.context.config().keepAliveEnabled() || !this.head.keepAlive() || this.context.registry().shuttingDown()) {
			return false;
		}
		int max = this.context.config().keepAliveMaxRequests();
		if (max > 0 && this.requests >= max) {
			return false;
		}
		if (this.body.awaitingContinue()) {
			// the client holds the body back; it cannot be skipped reliably
			return false;
		}
		if (!this.body.finished() && this.head.contentLength() > MAX_DRAIN) {
			// too long to drain after the response: say so now, since the connection will close
			return false;
		}
		return !this.releaseConnection.getAsBoolean();
	}

	/**
	 * Writes the response to a request that is refused before any handler runs, with
	 * {@code Connection: close}: the caller closes the connection after flushing.
	 * @param status the status
	 * @param reason the body, plain text, safe to echo
	 * @param retryAfterSeconds a {@code Retry-After} value, or 0 for none
	 * @param head the request's head when it was read, or {@code null}
	 * @param route the route value to report ({@link RequestEvent#INVALID} or
	 * {@link RequestEvent#REJECTED})
	 */
	public void refuse(Status status, String reason, int retryAfterSeconds, RequestHead head, String route) {
		Answers.write(this.out, this.context.clock(), status, reason, retryAfterSeconds,
				head != null && head.method() == Method.HEAD);
		if (this.context.events().hasListeners()) {
			String method = (head != null) ? head.method().name() : RequestEvent.UNKNOWN_METHOD;
			this.context.events().publish(
					new RequestEvent(this.context.config().name(), method, route, status.code(), 0, 0, Route.DEFAULT_POOL));
		}
	}

}
