package dev.ariadne.server.connection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.Method;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Status;
import dev.ariadne.server.Handler;
import dev.ariadne.server.Response;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.routing.RouteMatch;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.stats.RequestEvent;

/**
 * The request-to-response step every I/O model shares: route the request, run the handler
 * chain, turn a failure into a response, end the response's framing, decide whether the
 * connection carries another request, and report the exchange to the listeners. Also the one
 * place where refused requests (bad syntax, limits, overload) are answered.
 *
 * <p>Every error response the server writes itself (a refused request, a failed handler's 500,
 * a malformed path's 400, {@code CONNECT}'s 501, a full route pool's 503) carries {@code Date}
 * and {@code Connection: close}, and the connection closes after it. Statuses a handler chooses,
 * and the router's 404 and 405, keep the connection.
 *
 * <p>One instance per connection, used by one thread at a time: the thread running the
 * connection's current exchange.
 */
public final class HttpExchange {

	private static final Logger logger = System.getLogger(HttpExchange.class.getName());

	/** Most bytes of an unread request body discarded to keep the connection; more closes it. */
	static final long MAX_DRAIN = 64 * 1024;

	private static final String ASTERISK_ROUTE = "*";

	private final ServerContext context;

	private final ConnectionOutput out;

	private final InetSocketAddress remote;

	private final InetSocketAddress local;

	private final BooleanSupplier releaseConnection;

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
	public HttpExchange(ServerContext context, ConnectionOutput out, InetSocketAddress remote,
			InetSocketAddress local, BooleanSupplier releaseConnection) {
		this.context = context;
		this.out = out;
		this.remote = remote;
		this.local = local;
		this.releaseConnection = releaseConnection;
	}

	ServerContext context() {
		return this.context;
	}

	/**
	 * Runs one request on the calling thread, routing it first; a route of a route pool runs
	 * its handler on that pool while this thread waits (the socket models' rule: the
	 * connection's thread stays with its connection).
	 * @see #run(RequestHead, RequestBody, long, long, RouteMatch)
	 */
	public boolean run(RequestHead head, RequestBody body, long startNanos, long queueWaitNanos) {
		return run(head, body, startNanos, queueWaitNanos, null);
	}

	/**
	 * Runs one request and leaves its response in the connection's output (not necessarily
	 * flushed).
	 * @param head the parsed head
	 * @param body the body, positioned at its start
	 * @param startNanos when the head was read ({@link System#nanoTime()})
	 * @param queueWaitNanos how long the request waited for a worker
	 * @param routed the route already found with {@link #route(RequestHead)} by a transport that
	 * dispatched the request to the route's pool itself, or {@code null} to route here
	 * @return whether the connection may carry another request; when {@code false} the caller
	 * flushes and closes it
	 */
	public boolean run(RequestHead head, RequestBody body, long startNanos, long queueWaitNanos, RouteMatch routed) {
		long begin = this.context.countsRouteWork() ? System.nanoTime() : 0;
		this.requests++;
		this.head = head;
		this.body = body;
		ServerResponse response = new ServerResponse(this, this.out, head.method() == Method.HEAD, head.version());
		ServerRequest request = new ServerRequest(head, body, this.remote, this.local,
				this.context.config().limits().maxBodySize());
		String route = RequestEvent.INVALID;
		String pool = Route.DEFAULT_POOL;
		long waited = queueWaitNanos;
		boolean complete;
		try {
			RouteMatch match = (routed != null) ? routed : route(head);
			route = match.route();
			pool = match.pool();
			request.match(match);
			if (routed == null && !Route.DEFAULT_POOL.equals(pool)) {
				waited += runInRoutePool(match, request, response);
			}
			else {
				match.handler().handle(request, response);
			}
			complete = response.finish();
		}
		catch (Throwable failure) {
			complete = fail(request, response, failure);
		}
		boolean keep = complete && response.keepAlive();
		if (keep && !body.finished()) {
			keep = drain(body);
		}
		boolean listeners = this.context.hasListeners();
		long end = (begin != 0 || listeners) ? System.nanoTime() : 0;
		if (begin != 0) {
			// a route pool's handler ran on that pool while this thread waited for it
			this.context.routeWorked(pool, route, end - begin - (waited - queueWaitNanos));
		}
		if (listeners) {
			this.context.publish(new RequestEvent(this.context.config().name(), head.method().name(), route,
					complete ? response.status() : 0, end - startNanos, waited, pool));
		}
		return keep;
	}

	/**
	 * Runs the handler on its route pool and waits for it.
	 * @return how long the handler waited for a worker of that pool
	 */
	private long runInRoutePool(RouteMatch match, ServerRequest request, ServerResponse response) throws Exception {
		PoolCall call = new PoolCall(match.handler(), request, response);
		if (!this.context.routePool(match.pool()).execute(call)) {
			this.context.rejected(RejectReason.POOL_FULL);
			response.header(HeaderName.RETRY_AFTER, "1");
			sendAndClose(response, 503, "Pool '" + match.pool() + "' is full");
			return 0;
		}
		return call.await();
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
			Handler tunnel = (req, res) -> sendAndClose(res, 501, "CONNECT is not supported");
			return new RouteMatch(RequestEvent.INVALID, tunnel, Collections.emptyMap(), Route.DEFAULT_POOL, false);
		}
		try {
			return this.context.router().match(head.method(), ServerRequest.rawPath(head));
		}
		catch (IllegalArgumentException ex) {
			Handler bad = (req, res) -> sendAndClose(res, 400, "Malformed percent-encoding in the request path");
			return new RouteMatch(RequestEvent.INVALID, bad, Collections.emptyMap(), Route.DEFAULT_POOL, false);
		}
	}

	/** Sends an answer the server chose itself; the connection closes after it. */
	private static void sendAndClose(Response response, int status, String body) {
		response.status(status);
		response.header(HeaderName.CONNECTION, "close");
		response.send(body);
	}

	/** A handler run on a route pool while the connection's thread waits for it. */
	private static final class PoolCall implements Runnable {

		private final Handler handler;

		private final ServerRequest request;

		private final ServerResponse response;

		private final CountDownLatch done = new CountDownLatch(1);

		private final long submitted = System.nanoTime();

		private long started;

		private Throwable failure;

		PoolCall(Handler handler, ServerRequest request, ServerResponse response) {
			this.handler = handler;
			this.request = request;
			this.response = response;
		}

		@Override
		public void run() {
			this.started = System.nanoTime();
			try {
				this.handler.handle(this.request, this.response);
			}
			catch (Throwable ex) {
				this.failure = ex;
			}
			finally {
				this.done.countDown();
			}
		}

		/** Waits for the handler; rethrows what it threw; returns its wait for a worker. */
		long await() throws Exception {
			this.done.await();
			if (this.failure instanceof Exception exception) {
				throw exception;
			}
			if (this.failure instanceof Error error) {
				throw error;
			}
			return this.started - this.submitted;
		}

	}

	private boolean fail(ServerRequest request, ServerResponse response, Throwable failure) {
		Throwable cause = (failure instanceof UncheckedIOException) ? failure.getCause() : failure;
		if (cause instanceof BodyException bad && !response.committed()) {
			HttpParseException parse = bad.parseException();
			try {
				response.reset(parse.status().code());
				response.header(HeaderName.CONNECTION, "close");
				response.send(parse.reason());
				return response.finish();
			}
			catch (IOException | RuntimeException ex) {
				return false;
			}
		}
		if (cause instanceof IOException) {
			// mostly the connection failing; but a handler's own I/O error (a missing file) is an
			// IOException too, and is answered like any other failure: if the connection is gone,
			// the 500 below fails to go out, which changes nothing
			logger.log(Level.DEBUG, () -> "I/O failed during " + request, failure);
		}
		else {
			logger.log(Level.WARNING, () -> "Handler failed for " + request, failure);
		}
		if (response.committed()) {
			// the head is on its way: the only honest signal left is an incomplete body
			return false;
		}
		try {
			response.reset(500);
			response.header(HeaderName.CONNECTION, "close");
			response.send("Internal Server Error");
			return response.finish();
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
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
		if (!this.context.config().keepAliveEnabled() || !this.head.keepAlive() || this.context.shuttingDown()) {
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
		byte[] body = (reason + "\n").getBytes(StandardCharsets.UTF_8);
		ConnectionOutput out = this.out;
		out.append(StatusLines.of(status));
		out.append(this.context.clock().headerLine());
		out.append("Content-Type: text/plain; charset=utf-8\r\n");
		if (retryAfterSeconds > 0) {
			out.append("Retry-After: ");
			out.appendDecimal(retryAfterSeconds);
			out.appendCrlf();
		}
		out.append("Content-Length: ");
		out.appendDecimal(body.length);
		out.append("\r\nConnection: close\r\n\r\n");
		if (head == null || head.method() != Method.HEAD) {
			out.append(body);
		}
		if (this.context.hasListeners()) {
			String method = (head != null) ? head.method().name() : RequestEvent.UNKNOWN_METHOD;
			this.context.publish(
					new RequestEvent(this.context.config().name(), method, route, status.code(), 0, 0, Route.DEFAULT_POOL));
		}
	}

}
