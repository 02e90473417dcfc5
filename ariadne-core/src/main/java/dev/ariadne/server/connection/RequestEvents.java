package dev.ariadne.server.connection;

import java.lang.System.Logger;
import java.net.InetSocketAddress;
import java.util.List;

import dev.ariadne.http.RequestHead;
import dev.ariadne.server.RateLimitedLogger;
import dev.ariadne.server.accesslog.AccessLog;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RequestEvent;
import dev.ariadne.server.stats.RequestListener;
import dev.ariadne.server.stats.RouteWork;

/**
 * Where one server reports its ended exchanges, on the thread that ended each: its request
 * listeners, and its access log when it keeps one. Immutable; any thread.
 */
public final class RequestEvents {

	private static final Logger logger = System.getLogger(RequestEvents.class.getName());

	private static final RateLimitedLogger listenerFailures = RateLimitedLogger.of(logger, "Request listener failed");

	private final String listener;

	private final RequestListener[] listeners;

	/** Worker time per route, for the diagnosis; {@code null} when it is off. */
	private final RouteWorkCounter routeWork;

	/** The access log; {@code null} when the server keeps none. */
	private final AccessLog accessLog;

	/**
	 * Creates the listeners' door.
	 * @param listener the server's listener name, which its events carry
	 * @param listeners the request listeners, in order
	 * @param routeWorkPools the pools whose worker time per route is counted for the
	 * diagnosis ({@code default} and every route pool), or {@code null} to count none
	 * @param accessLog the access log, or {@code null} for none
	 */
	public RequestEvents(String listener, List<RequestListener> listeners, Iterable<String> routeWorkPools,
			AccessLog accessLog) {
		this.listener = listener;
		this.listeners = listeners.toArray(new RequestListener[0]);
		this.routeWork = (routeWorkPools != null) ? new RouteWorkCounter(routeWorkPools) : null;
		this.accessLog = accessLog;
	}

	/**
	 * Returns whether worker time per route is counted, so that callers can skip reading the
	 * clock.
	 * @return whether the diagnosis counts it
	 */
	boolean countsRouteWork() {
		return this.routeWork != null;
	}

	/**
	 * Counts the worker time of one exchange, when counted; on the request path, so one lookup
	 * and two adds.
	 * @param pool the pool that ran the handler
	 * @param route the route value, as reported in the request event
	 * @param nanos the worker time
	 */
	void routeWorked(String pool, String route, long nanos) {
		this.routeWork.add(pool, route, nanos);
	}

	/**
	 * Returns the worker time spent on each route of a pool since the server started.
	 * @param pool the pool's name
	 * @return the routes that ran in the pool, empty when nothing is counted
	 */
	public List<RouteWork> routeWork(String pool) {
		return (this.routeWork != null) ? this.routeWork.snapshot(pool) : List.of();
	}

	/**
	 * Returns whether anyone listens for request events, so that callers can skip building
	 * them.
	 * @return whether there are listeners
	 */
	public boolean hasListeners() {
		return this.listeners.length > 0;
	}

	/**
	 * Returns whether an ended exchange is reported at all, to listeners or to the access log,
	 * so that callers can skip reading the clock.
	 * @return whether anything is reported
	 */
	boolean reports() {
		return this.listeners.length > 0 || this.accessLog != null;
	}

	/**
	 * Returns the lines the access log dropped.
	 * @return the count, 0 without an access log
	 */
	public long accessLogDropped() {
		return (this.accessLog != null) ? this.accessLog.dropped() : 0;
	}

	/**
	 * Reports an exchange that ran, to the listeners and the access log.
	 * @param head the request's head
	 * @param request the request (its route and its client, after forwarded headers)
	 * @param response the response (what it sent)
	 * @param status the status sent, or 0 when none was
	 * @param startNanos when the head was read
	 * @param endNanos when the exchange ended
	 * @param queueWaitNanos how long it waited for a worker
	 * @param pool the pool that ran it
	 */
	void ended(RequestHead head, ServerRequest request, ServerResponse response, int status, long startNanos,
			long endNanos, long queueWaitNanos, String pool) {
		String route = request.route();
		if (this.listeners.length > 0) {
			publish(new RequestEvent(this.listener, head.method().name(), route, status, endNanos - startNanos,
					queueWaitNanos, pool));
		}
		if (this.accessLog != null) {
			this.accessLog.record(head, request.remoteAddress(), request.localAddress(), status, response.bytesSent(),
					response.headers(), startNanos, endNanos, queueWaitNanos, pool, route);
		}
	}

	/**
	 * Reports a request the server refused before any handler ran.
	 * @param head the request's head, or {@code null} when it could not be read
	 * @param remote the client
	 * @param local the server's address
	 * @param status the status of the answer
	 * @param bytes the content bytes of the answer
	 * @param route the request's route, or the refusal when none is known
	 * @param refusal why ({@link RequestEvent#INVALID} or {@link RequestEvent#REJECTED})
	 */
	void refused(RequestHead head, InetSocketAddress remote, InetSocketAddress local, int status, long bytes,
			String route, String refusal) {
		if (this.listeners.length > 0) {
			String method = (head != null) ? head.method().name() : RequestEvent.UNKNOWN_METHOD;
			publish(new RequestEvent(this.listener, method, route, status, 0, 0, Route.DEFAULT_POOL, refusal));
		}
		if (this.accessLog != null) {
			long now = System.nanoTime();
			this.accessLog.record(head, remote, local, status, bytes, null, now, now, 0, Route.DEFAULT_POOL, route);
		}
	}

	/**
	 * Tells every listener about an answered request; a failing listener is logged (rate-limited,
	 * since it may fail for every request) and the others are still told.
	 * @param event the exchange
	 */
	public void publish(RequestEvent event) {
		for (RequestListener listener : this.listeners) {
			try {
				listener.onRequest(event);
			}
			catch (RuntimeException ex) {
				listenerFailures.log(() -> "Request listener " + listener + " failed", ex);
			}
		}
	}

}
