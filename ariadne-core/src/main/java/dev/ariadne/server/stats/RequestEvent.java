package dev.ariadne.server.stats;

/**
 * One finished exchange, reported to {@link RequestListener}s.
 *
 * @param listener the name of the listener that served the exchange ({@code app} or
 * {@code management})
 * @param method the request method, or {@code UNKNOWN} when the request line could not be read
 * @param route the matched route template ({@code /api/user/{id}}), never the raw path; one of
 * the fixed values {@link #NOT_FOUND}, {@link #METHOD_NOT_ALLOWED}, {@link #INVALID} or
 * {@link #REJECTED} when no route is known, so the set of values stays bounded; a request
 * refused after its route was found (a full route pool) keeps its route
 * @param status the response status, or 0 when the connection failed before a status was sent
 * @param durationNanos from the request head being read to the response being written
 * @param queueWaitNanos time the request (or, in the blocking model, its connection) waited for a
 * worker
 * @param pool the pool that ran the handler, {@code default} unless the route has its own
 * @param refusal why the request was refused before any handler ran ({@link #INVALID} or
 * {@link #REJECTED}), or {@code null} when a handler answered it
 */
public record RequestEvent(String listener, String method, String route, int status, long durationNanos, long queueWaitNanos,
		String pool, String refusal) {

	/**
	 * Creates the event of an exchange a handler answered.
	 * @param listener the listener's name
	 * @param method the request method
	 * @param route the route
	 * @param status the status
	 * @param durationNanos the exchange's duration
	 * @param queueWaitNanos the wait for a worker
	 * @param pool the pool that ran the handler
	 */
	public RequestEvent(String listener, String method, String route, int status, long durationNanos,
			long queueWaitNanos, String pool) {
		this(listener, method, route, status, durationNanos, queueWaitNanos, pool, null);
	}

	/** Route value of requests no route matched. */
	public static final String NOT_FOUND = "NOT_FOUND";

	/** Route value of requests whose path matched but not their method. */
	public static final String METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED";

	/** Route value of requests that could not be parsed (answered 4xx/5xx, connection closed). */
	public static final String INVALID = "INVALID";

	/** Method value when the request line could not be read. */
	public static final String UNKNOWN_METHOD = "UNKNOWN";

	/** Route value of requests refused before routing (queue full, shutting down). */
	public static final String REJECTED = "REJECTED";

}
