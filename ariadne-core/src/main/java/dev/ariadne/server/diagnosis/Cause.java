package dev.ariadne.server.diagnosis;

/**
 * Why a pool is starved: the primary cause a {@link Diagnosis} names. Each cause needs a
 * different fix, which is why the diagnosis tells them apart.
 */
public enum Cause {

	/**
	 * {@code blocking} model: the workers are pinned by connections that sit idle between
	 * requests. Fix: {@code io-model: event-loop} (or {@code virtual-threads}), a release
	 * threshold, or more threads.
	 */
	IDLE_KEEP_ALIVE("idle-keep-alive"),

	/**
	 * The workers are busy computing, with the CPU near the cores' limit. More threads do not
	 * help: a route pool for the heavy route, or more instances.
	 */
	CPU_BOUND("cpu-bound"),

	/**
	 * The workers wait on something else: a connection pool, an HTTP client, a lock. Fix: size
	 * what they wait on; more threads only if it can take them.
	 */
	BLOCKED_DOWNSTREAM("blocked-downstream"),

	/**
	 * The workers are held writing to or reading from slow clients. Fix: {@code event-loop},
	 * timeouts.
	 */
	SLOW_CLIENTS("slow-clients"),

	/**
	 * One route takes most of the pool's worker time while other routes wait behind it. Fix: a
	 * route pool for that route.
	 */
	HOT_ROUTE("hot-route"),

	/**
	 * {@code max-connections} is reached and clients wait in the kernel's accept queue. Fix:
	 * raise {@code max-connections}, or change the model.
	 */
	CONNECTION_LIMIT("connection-limit"),

	/**
	 * The kernel's accept queue overflows and drops connections. Fix: {@code accept-backlog}
	 * and {@code somaxconn}, or the acceptor.
	 */
	ACCEPT_BACKLOG("accept-backlog");

	private final String value;

	Cause(String value) {
		this.value = value;
	}

	/**
	 * Returns the cause's name as endpoints, meters and alerts spell it.
	 * @return for example {@code idle-keep-alive}
	 */
	public String value() {
		return this.value;
	}

	@Override
	public String toString() {
		return this.value;
	}

}
