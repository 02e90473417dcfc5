package dev.ariadne.server.connection;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;

import javax.net.ssl.SSLSession;

import dev.ariadne.http.Method;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Status;
import dev.ariadne.server.ForwardedConfig;
import dev.ariadne.server.WebSocketTally;
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
 * <p>A handler may suspend its exchange ({@link #suspend}): {@link #run} then returns with
 * {@link #suspended()} true, and the exchange ends later, on a worker of its pool, through the
 * model's {@link AsyncHost} ({@link #endSuspended()}).
 *
 * <p>One instance per connection, used by one thread at a time: the thread running the
 * connection's current exchange (while suspended, the thread the application hands it to).
 */
public final class HttpExchange {

	/** Most bytes of an unread request body discarded to keep the connection; more closes it. */
	static final long MAX_DRAIN = 64 * 1024;

	private final ConnectionContext context;

	private final ConnectionOutput out;

	private final InetSocketAddress remote;

	private final InetSocketAddress local;

	private final BooleanSupplier releaseConnection;

	private final AsyncHost host;

	private final ResponseEncoder encoder;

	/** The protocol id and stream of the one request of a multiplexed stream's exchange; else 0. */
	private String streamProtocol;

	private int streamId;

	/** The connection's TLS session once its handshake completed; before its first exchange. */
	private SSLSession tlsSession;

	private int requests;

	private RequestHead head;

	private RequestBody body;

	// ---- the current exchange, for its end when it was suspended

	private ServerRequest request;

	private ServerResponse response;

	private RouteMatch match;

	private long startNanos;

	private long queueWaitNanos;

	/** The suspension of the current exchange; read by a selector when the connection closes. */
	private volatile AsyncExchange async;

	/** The current exchange's switch to another protocol ({@link #upgrade}), or {@code null}. */
	private Upgrade upgrade;

	/**
	 * Creates the exchange logic of one connection.
	 * @param context the server's shared state
	 * @param out the connection's output
	 * @param remote the client's address
	 * @param local the server's address
	 * @param releaseConnection asked at each response whether the model wants this connection
	 * released ({@code Connection: close}) to free its worker; the blocking model's release
	 * threshold
	 * @param host how the model runs the work of a suspended exchange
	 */
	public HttpExchange(ConnectionContext context, ConnectionOutput out, InetSocketAddress remote,
			InetSocketAddress local, BooleanSupplier releaseConnection, AsyncHost host) {
		this(context, out, new Http1Encoder(out, context.clock()), remote, local, releaseConnection, host);
	}

	/**
	 * Creates the exchange logic of one connection, or of one stream of a protocol that
	 * multiplexes them, whose responses a protocol of its own encodes.
	 * @param context the server's shared state
	 * @param out the output of the connection (or the stream), which a suspended exchange's
	 * non-blocking writes go through
	 * @param encoder how responses are put on the wire
	 * @param remote the client's address
	 * @param local the server's address
	 * @param releaseConnection asked at each response whether the model wants this connection
	 * released
	 * @param host how the model runs the work of a suspended exchange
	 */
	public HttpExchange(ConnectionContext context, ConnectionOutput out, ResponseEncoder encoder,
			InetSocketAddress remote, InetSocketAddress local, BooleanSupplier releaseConnection, AsyncHost host) {
		this.context = context;
		this.out = out;
		this.encoder = encoder;
		this.remote = remote;
		this.local = local;
		this.releaseConnection = releaseConnection;
		this.host = host;
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
	 * Says that the exchange is the one of a stream a protocol multiplexes, which its request
	 * reports ({@link dev.ariadne.server.Request#protocol()}, {@code protocolRequestId()}).
	 * @param protocol the protocol id ({@code h2}, {@code h2c})
	 * @param streamId the stream
	 */
	public void stream(String protocol, int streamId) {
		this.streamProtocol = protocol;
		this.streamId = streamId;
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
				RequestEvent.REJECTED, match.matched() ? match.route() : RequestEvent.REJECTED);
		return false;
	}

	/**
	 * Runs one request on the calling thread, a worker of the request's pool, and leaves its
	 * response in the connection's output (not necessarily flushed). If the handler suspended
	 * the exchange, returns with {@link #suspended()} true and the response still open.
	 * @param head the parsed head
	 * @param body the body, positioned at its start
	 * @param startNanos when the head was read ({@link System#nanoTime()})
	 * @param queueWaitNanos how long the request waited for a worker
	 * @param match the request's route, found once with {@link #route(RequestHead)}
	 * @return whether the connection may carry another request; when {@code false} the caller
	 * flushes and closes it, unless the exchange is suspended
	 */
	public boolean run(RequestHead head, RequestBody body, long startNanos, long queueWaitNanos, RouteMatch match) {
		RequestEvents events = this.context.events();
		long begin = events.countsRouteWork() ? System.nanoTime() : 0;
		this.requests++;
		this.head = head;
		this.body = body;
		this.match = match;
		this.startNanos = startNanos;
		this.queueWaitNanos = queueWaitNanos;
		this.upgrade = null;
		this.response = new ServerResponse(this, this.encoder, head.method() == Method.HEAD, head.version());
		this.request = new ServerRequest(head, body, this.remote, this.local, this.context.budget(),
				this.context.config().headerTimeout().toNanos());
		this.request.match(match);
		this.request.tlsSession(this.tlsSession);
		ForwardedConfig forwarded = this.context.config().forwarded();
		if (forwarded.enabled()) {
			Forwarding.apply(forwarded, this.request, head.headers());
		}
		if (this.streamId > 0) {
			this.request.stream(this.streamProtocol, this.streamId);
		}
		Throwable failure = null;
		try {
			match.handler().handle(this.request, this.response);
		}
		catch (Throwable ex) {
			failure = ex;
		}
		AsyncExchange async = this.async;
		if (async != null) {
			if (this.upgrade != null && failure == null && !async.ended()) {
				failure = switchProtocols();
			}
			if (async.handlerReturned(failure)) {
				// suspended: the worker's part ends here, the rest when the exchange ends
				routeWorked(begin, System.nanoTime());
				return false;
			}
			failure = async.failure();
			this.async = null;
		}
		return end(failure, begin);
	}

	/**
	 * Ends a suspended exchange, on a worker of its pool: as {@link #run} ends one that was not,
	 * with the response completed or, after an abort, failed.
	 * @return whether the connection may carry another request
	 */
	public boolean endSuspended() {
		long begin = this.context.events().countsRouteWork() ? System.nanoTime() : 0;
		Throwable failure = this.async.failure();
		this.async = null;
		return end(failure, begin);
	}

	/**
	 * Returns whether the exchange that {@link #run} ran last is suspended: its handler
	 * returned, and it ends later through the model's {@link AsyncHost}.
	 * @return whether suspended
	 */
	public boolean suspended() {
		return this.async != null;
	}

	/**
	 * Tells a suspended exchange that its connection closed; any thread.
	 * @param here whether its close listeners run on the calling thread (one that aborts the
	 * connection to stop the server) rather than on a worker of its pool (a selector's call)
	 */
	public void connectionClosed(boolean here) {
		AsyncExchange async = this.async;
		if (async != null) {
			async.connectionClosed(here);
		}
	}

	/**
	 * Aborts a suspended exchange because its pool refused one of its tasks (its queue is
	 * full): the task never ran. Any thread.
	 */
	public void taskRefused() {
		AsyncExchange async = this.async;
		if (async != null) {
			async.abort(new RejectedExecutionException("The exchange's pool refused a task: its queue is full"));
		}
	}

	/**
	 * Gives up a suspended exchange whose end cannot run (its pool refused it, the server is
	 * stopping): gives back what its body held of the budget and reports it unanswered,
	 * without touching the output. Any thread.
	 */
	public void abandonSuspended() {
		if (this.async == null) {
			return;
		}
		this.async = null;
		this.request.releaseBodies();
		this.response.endWebSocket();
		if (this.context.events().reports() && !switched()) {
			this.context.events().ended(this.head, this.request, this.response, 0, this.startNanos, System.nanoTime(),
					this.queueWaitNanos, this.match.pool());
		}
	}

	/**
	 * Suspends the current exchange, for its response; on the handler's thread. What the
	 * response buffered leaves first, and the output gives its buffer back while it waits.
	 */
	AsyncExchange suspend(ServerResponse response) {
		if (response != this.response) {
			throw new IllegalStateException("The exchange of this response has ended");
		}
		AsyncExchange async = this.async;
		if (async != null) {
			return async;
		}
		try {
			this.out.flush();
			this.out.release();
		}
		catch (IOException ex) {
			// the connection failed: the next write says so
			this.out.discard();
		}
		async = new AsyncExchange(this.host, this.context.routePools().get(this.match.pool()), this.body, this.out);
		this.async = async;
		return async;
	}

	/**
	 * Switches the current exchange to another protocol, for its response, on the handler's
	 * thread ({@link dev.ariadne.server.Response#upgrade()}), and suspends it.
	 */
	AsyncExchange upgrade(ServerResponse response) {
		if (response != this.response) {
			throw new IllegalStateException("The exchange of this response has ended");
		}
		if (this.upgrade == null) {
			AsyncExchange async = this.async;
			if (async != null && !async.handlerRunning()) {
				throw new IllegalStateException("An exchange can switch protocols only while its handler runs");
			}
			this.upgrade = Upgrade.begin(this.head, this.streamId > 0, this.body, response);
		}
		return suspend(response);
	}

	/** Counts a WebSocket session of another implementation on the current exchange, for its response. */
	WebSocketTally countWebSocket(ServerResponse response) {
		if (response != this.response) {
			throw new IllegalStateException("The exchange of this response has ended");
		}
		return this.context.countWebSocket();
	}

	/**
	 * The handler of an exchange that switched protocols returned: its 101 goes out, and so does
	 * its request event, which covers the handshake rather than the life of the connection.
	 * @return what failed, or {@code null}
	 */
	private Throwable switchProtocols() {
		Throwable failure = this.upgrade.switchProtocols(this.response, this.out);
		if (failure == null && this.context.events().reports()) {
			this.context.events().ended(this.head, this.request, this.response, this.response.status(), this.startNanos,
					System.nanoTime(), this.queueWaitNanos, this.match.pool());
		}
		return failure;
	}

	private boolean switched() {
		return this.upgrade != null && this.upgrade.switched();
	}

	/**
	 * Ends the exchange: ends the response (or answers the failure), gives back what its body
	 * held of the budget, drains an unread body, and reports the exchange.
	 */
	private boolean end(Throwable failure, long begin) {
		// the end writes as any exchange does, waiting for a slow client
		this.out.nonBlocking(false);
		ServerRequest request = this.request;
		ServerResponse response = this.response;
		boolean complete;
		if (failure == null) {
			try {
				complete = response.finish();
			}
			catch (Throwable ex) {
				complete = Failures.answer(this.context, request, response, ex);
			}
		}
		else {
			complete = Failures.answer(this.context, request, response, failure);
		}
		request.releaseBodies();
		response.endWebSocket();
		boolean keep = complete && response.keepAlive();
		if (keep && !this.body.finished()) {
			keep = drain(this.body);
		}
		RequestEvents events = this.context.events();
		boolean reports = events.reports();
		long end = (begin != 0 || reports) ? System.nanoTime() : 0;
		routeWorked(begin, end);
		if (reports && !switched()) {
			// a fallback handler (a servlet container) may have reported the route it served
			events.ended(this.head, request, response, complete ? response.status() : 0, this.startNanos, end,
					this.queueWaitNanos, this.match.pool());
		}
		this.request = null;
		this.response = null;
		return keep;
	}

	private void routeWorked(long begin, long end) {
		if (begin != 0) {
			this.context.events().routeWorked(this.match.pool(), this.request.route(), end - begin);
		}
	}

	/**
	 * Finds what to run for a request: a route, or one of the fixed answers (404, 405,
	 * {@code OPTIONS *}, 501 for {@code CONNECT}, 400 for a malformed path).
	 * @param head the request's head
	 * @return the match
	 */
	public RouteMatch route(RequestHead head) {
		return Routing.match(this.context.router(), head);
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
	 * @param refusal why, as reported ({@link RequestEvent#INVALID} or {@link RequestEvent#REJECTED}),
	 * which is also the route reported
	 */
	public void refuse(Status status, String reason, int retryAfterSeconds, RequestHead head, String refusal) {
		refuse(status, reason, retryAfterSeconds, head, refusal, refusal);
	}

	/**
	 * Writes the response to a request that is refused before any handler runs, with
	 * {@code Connection: close}, reporting its route when it is known.
	 * @param status the status
	 * @param reason the body, plain text, safe to echo
	 * @param retryAfterSeconds a {@code Retry-After} value, or 0 for none
	 * @param head the request's head when it was read, or {@code null}
	 * @param refusal why, as reported ({@link RequestEvent#INVALID} or {@link RequestEvent#REJECTED})
	 * @param route the request's route template, or the refusal when no route is known
	 */
	public void refuse(Status status, String reason, int retryAfterSeconds, RequestHead head, String refusal,
			String route) {
		boolean headRequest = head != null && head.method() == Method.HEAD;
		this.encoder.answer(status, reason, retryAfterSeconds, headRequest);
		if (this.context.events().reports()) {
			this.context.events().refused(head, this.remote, this.local, status.code(),
					Answers.contentLength(reason, headRequest), route, refusal);
		}
	}

}
