package dev.ariadne.autoconfigure.metrics;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import dev.ariadne.server.stats.RequestEvent;
import dev.ariadne.server.stats.RequestListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.http.Outcome;

/**
 * Records every exchange of every Ariadne listener: {@code ariadne.requests} (tags
 * {@code listener}, {@code method}, {@code route}, {@code status}, {@code outcome} and
 * {@code refusal}: {@code none}, or why a request was refused before any handler ran,
 * {@code REJECTED} or {@code INVALID}, its route kept when it was known) and
 * {@code ariadne.pool.queue.wait} (tags {@code listener}, {@code pool}), both as histograms with
 * fixed buckets from 1 ms to 30 s for the dashboards.
 *
 * <p>Runs on the request path, so timers are looked up in a cache keyed by their tag values and
 * built only once. Tag values are bounded: {@code route} is a route template or one of the fixed
 * values of {@link RequestEvent}, and methods outside the standard set count as {@code OTHER}.
 */
public final class AriadneRequestMetrics implements RequestListener, AutoCloseable {

	static final String REQUESTS = "ariadne.requests";

	static final String POOL_QUEUE_WAIT = "ariadne.pool.queue.wait";

	/** The {@code refusal} tag of an exchange a handler answered. */
	static final String NOT_REFUSED = "none";

	/** Bucket boundaries of both histograms. */
	static final Duration[] BUCKETS = { Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
			Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
			Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
			Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30) };

	private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS",
			"TRACE", "CONNECT", RequestEvent.UNKNOWN_METHOD);

	private final MeterRegistry registry;

	private final ConcurrentMap<RequestKey, Timer> requestTimers = new ConcurrentHashMap<>();

	private final ConcurrentMap<WaitKey, Timer> waitTimers = new ConcurrentHashMap<>();

	private record RequestKey(String listener, String method, String route, int status, String refusal) {
	}

	private record WaitKey(String listener, String pool) {
	}

	/**
	 * Creates the listener.
	 * @param registry where the timers go
	 */
	public AriadneRequestMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void onRequest(RequestEvent event) {
		String method = METHODS.contains(event.method()) ? event.method() : "OTHER";
		RequestKey key = new RequestKey(event.listener(), method, event.route(), event.status(),
				(event.refusal() != null) ? event.refusal() : NOT_REFUSED);
		Timer requests = this.requestTimers.get(key);
		if (requests == null) {
			requests = this.requestTimers.computeIfAbsent(key, this::requestTimer);
		}
		requests.record(event.durationNanos(), TimeUnit.NANOSECONDS);
		WaitKey waitKey = new WaitKey(event.listener(), event.pool());
		Timer wait = this.waitTimers.get(waitKey);
		if (wait == null) {
			wait = this.waitTimers.computeIfAbsent(waitKey, this::waitTimer);
		}
		wait.record(event.queueWaitNanos(), TimeUnit.NANOSECONDS);
	}

	private Timer requestTimer(RequestKey key) {
		String status = (key.status() > 0) ? Integer.toString(key.status()) : "UNKNOWN";
		Outcome outcome = (key.status() > 0) ? Outcome.forStatus(key.status()) : Outcome.UNKNOWN;
		return Timer.builder(REQUESTS)
			.description("Exchanges, from the request head read to the response written")
			.tags(Tags.of("listener", key.listener(), "method", key.method(), "route", key.route(), "status", status,
					"outcome", outcome.name(), "refusal", key.refusal()))
			.serviceLevelObjectives(BUCKETS)
			.register(this.registry);
	}

	private Timer waitTimer(WaitKey key) {
		return Timer.builder(POOL_QUEUE_WAIT)
			.description("Time a request (blocking: its connection) waited for a worker of the pool")
			.tags(Tags.of("listener", key.listener(), "pool", key.pool()))
			.serviceLevelObjectives(BUCKETS)
			.register(this.registry);
	}

	/**
	 * Removes every timer this listener registered.
	 */
	@Override
	public void close() {
		this.requestTimers.values().forEach(this.registry::remove);
		this.waitTimers.values().forEach(this.registry::remove);
		this.requestTimers.clear();
		this.waitTimers.clear();
	}

}
