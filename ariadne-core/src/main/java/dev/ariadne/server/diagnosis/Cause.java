package dev.ariadne.server.diagnosis;

/**
 * Why a pool is starved: the primary cause a {@link Diagnosis} names. Each cause needs a
 * different fix, which is why the diagnosis tells them apart. They are declared from the
 * structural causes (a limit, a downstream, the model) to the symptoms they produce (slow
 * clients, a hot route, busy cores): when the evidence of two is equal, the first declared
 * wins.
 */
public enum Cause {

	/**
	 * {@code max-connections} is reached and clients wait in the kernel's accept queue. Fix:
	 * raise {@code max-connections}, or change the model.
	 */
	CONNECTION_LIMIT("connection-limit"),

	/**
	 * The kernel's accept queue overflows and drops connections. Fix: {@code accept-backlog}
	 * and {@code somaxconn}, or the acceptor.
	 */
	ACCEPT_BACKLOG("accept-backlog"),

	/**
	 * HTTP/2 connections have as many streams as {@code http2.max-concurrent-streams} allows
	 * while workers are free: their clients hold further requests back, where the server does
	 * not see them wait (streams held by long-polls or event streams, or slow handlers). Fix:
	 * raise {@code http2.max-concurrent-streams}.
	 */
	STREAM_LIMIT("stream-limit"),

	/**
	 * The workers wait on something else: a connection pool, an HTTP client, a lock. Fix: size
	 * what they wait on, in the handler named by its route; more threads only if it can take
	 * them. Ariadne's own hand-off to a route pool is never this cause.
	 */
	BLOCKED_DOWNSTREAM("blocked-downstream"),

	/**
	 * {@code blocking} model: WebSocket sessions own most of the workers, each its connection's
	 * for as long as the session is open, talking or quiet, so that as many sessions as workers
	 * leave every other client waiting. Fix: {@code io-model: event-loop} (a quiet session then
	 * holds no thread), one thread per session and per concurrent request, or
	 * {@code websocket.max-sessions} below the workers.
	 */
	WEBSOCKET_SESSIONS("websocket-sessions"),

	/**
	 * {@code blocking} model: each connection owns a worker until it closes, so connections
	 * beyond the workers wait whatever the owned ones do (sit idle between requests, compute,
	 * write). Fix: {@code io-model: event-loop} (or {@code virtual-threads}), as many threads
	 * as connections, or a release threshold.
	 */
	THREAD_PER_CONNECTION("thread-per-connection"),

	/**
	 * The workers are held writing to or reading from slow clients. Fix: timeouts, the low
	 * resources mode.
	 */
	SLOW_CLIENTS("slow-clients"),

	/**
	 * One route takes most of the pool's worker time while other routes wait behind it. Fix: a
	 * route pool for that route.
	 */
	HOT_ROUTE("hot-route"),

	/**
	 * The workers are busy computing and requests wait long for one. More threads do not help
	 * once the cores are busy: a route pool for the heavy route, or more instances.
	 */
	CPU_BOUND("cpu-bound");

	private final String value;

	Cause(String value) {
		this.value = value;
	}

	/**
	 * Returns the cause's name as endpoints, meters and alerts spell it.
	 * @return for example {@code thread-per-connection}
	 */
	public String value() {
		return this.value;
	}

	@Override
	public String toString() {
		return this.value;
	}

}
