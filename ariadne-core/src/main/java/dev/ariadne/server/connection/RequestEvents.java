package dev.ariadne.server.connection;

import java.lang.System.Logger;
import java.util.List;

import dev.ariadne.server.RateLimitedLogger;
import dev.ariadne.server.stats.RequestEvent;
import dev.ariadne.server.stats.RequestListener;
import dev.ariadne.server.stats.RouteWork;

/**
 * The request listeners of one server, told about every answered request on the thread that
 * answered it. Immutable; any thread.
 */
public final class RequestEvents {

	private static final Logger logger = System.getLogger(RequestEvents.class.getName());

	private static final RateLimitedLogger listenerFailures = RateLimitedLogger.of(logger, "Request listener failed");

	private final RequestListener[] listeners;

	/** Worker time per route, for the diagnosis; {@code null} when it is off. */
	private final RouteWorkCounter routeWork;

	/**
	 * Creates the listeners' door, counting no worker time per route.
	 * @param listeners the request listeners, in order
	 */
	public RequestEvents(List<RequestListener> listeners) {
		this(listeners, null);
	}

	/**
	 * Creates the listeners' door.
	 * @param listeners the request listeners, in order
	 * @param routeWorkPools the pools whose worker time per route is counted for the
	 * diagnosis ({@code default} and every route pool), or {@code null} to count none
	 */
	public RequestEvents(List<RequestListener> listeners, Iterable<String> routeWorkPools) {
		this.listeners = listeners.toArray(new RequestListener[0]);
		this.routeWork = (routeWorkPools != null) ? new RouteWorkCounter(routeWorkPools) : null;
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
