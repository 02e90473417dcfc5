package dev.ariadne.autoconfigure.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import dev.ariadne.server.diagnosis.Cause;
import dev.ariadne.server.diagnosis.Diagnosis;
import dev.ariadne.server.stats.AcceptError;
import dev.ariadne.server.stats.HandshakeOutcome;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.stats.ServerStats;
import dev.ariadne.server.stats.TlsProtocol;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Binds one Ariadne listener's {@link ServerStats} to a {@link MeterRegistry}: the pool,
 * connection and accept-queue meters of {@code DESIGN.md}. Every gauge reads the live figure
 * when the registry is scraped; nothing is sampled on the request path. Count meters carry no
 * base unit, so their Prometheus names stay exactly as documented ({@code ariadne_pool_threads_busy},
 * not {@code ..._threads}).
 *
 * <p>{@code ariadne.buffers.used} is the one meter with a base unit (bytes), exported as
 * {@code ariadne_buffers_used_bytes}.
 *
 * <p>Every meter is tagged {@code listener}; pool meters also {@code pool}. Accept-queue depth
 * and capacity read the kernel's tables and report NaN where those cannot be read; the overflow
 * counter is registered only where it can be read. With the listener's {@link Diagnosis},
 * {@code ariadne.pool.starvation} is 1 for the cause it names for a pool now and 0 for the
 * other causes (all 0 while the pool is ok). {@link #close()} removes every meter this binder
 * registered.
 */
public final class AriadneServerMetrics implements MeterBinder, AutoCloseable {

	static final String POOL_THREADS_BUSY = "ariadne.pool.threads.busy";

	static final String POOL_THREADS_MAX = "ariadne.pool.threads.max";

	static final String POOL_SATURATION = "ariadne.pool.saturation";

	static final String POOL_QUEUE_SIZE = "ariadne.pool.queue.size";

	static final String POOL_QUEUE_CAPACITY = "ariadne.pool.queue.capacity";

	static final String POOL_STARVATION = "ariadne.pool.starvation";

	static final String ACCEPT_QUEUE_DEPTH = "ariadne.accept.queue.depth";

	static final String ACCEPT_QUEUE_CAPACITY = "ariadne.accept.queue.capacity";

	static final String ACCEPT_QUEUE_OVERFLOWS = "ariadne.accept.queue.overflows";

	static final String ACCEPT_ERRORS = "ariadne.accept.errors";

	static final String CONNECTIONS_ACTIVE = "ariadne.connections.active";

	static final String CONNECTIONS_IDLE = "ariadne.connections.idle";

	static final String CONNECTIONS_MAX = "ariadne.connections.max";

	static final String CONNECTIONS_ACCEPTED = "ariadne.connections.accepted";

	static final String CONNECTIONS_REJECTED = "ariadne.connections.rejected";

	static final String SERVER_INFO = "ariadne.server.info";

	static final String BUFFERS_USED = "ariadne.buffers.used";

	static final String TLS_HANDSHAKES = "ariadne.tls.handshakes";

	static final String DEFENCES = "ariadne.defences";

	static final String HTTP2_DEFENCES = "ariadne.http2.defences";

	static final String CONNECTIONS_PROTOCOL = "ariadne.connections.protocol";

	static final String HTTP2_STREAMS_ACTIVE = "ariadne.http2.streams.active";

	static final String HTTP2_STREAMS_QUEUED = "ariadne.http2.streams.queued";

	static final String HTTP2_CONNECTIONS_AT_LIMIT = "ariadne.http2.connections.at.limit";

	static final String ACCESS_LOG_DROPPED = "ariadne.accesslog.dropped";

	static final String WEBSOCKET_SESSIONS_ACTIVE = "ariadne.websocket.sessions.active";

	static final String WEBSOCKET_MESSAGES = "ariadne.websocket.messages";

	private static final String DEFENCES_DESCRIPTION = "Clients cut off (408 or closed) because they kept the "
			+ "server waiting: slow-head, slow-body, slow-reader; low_resources=true for those the low-resources mode "
			+ "cut while their pool was starved";

	private static final String HTTP2_DEFENCES_DESCRIPTION = "HTTP/2 clients refused or cut off because they made "
			+ "the server work for nothing: http2-streams (a stream over max-concurrent-streams refused), or a "
			+ "connection ended with ENHANCE_YOUR_CALM for http2-rapid-reset, http2-provoked-resets, "
			+ "http2-control-frames or http2-header-block; low_resources=true for streams refused while their pool "
			+ "was starved";

	/** The protocols a connection may speak, as the {@code protocol} tag spells them. */
	static final List<String> PROTOCOLS = List.of("http/1.1", "h2", "h2c", "websocket");

	private final ServerStats stats;

	private final Diagnosis diagnosis;

	private final String version;

	private final Tags tags;

	private final List<Meter.Id> registered = new ArrayList<>();

	private MeterRegistry registry;

	/**
	 * Creates a binder for one listener.
	 * @param stats the listener's statistics
	 * @param version the Ariadne version, for {@code ariadne.server.info}
	 * @param extraTags tags added to every meter, after {@code listener}
	 */
	public AriadneServerMetrics(ServerStats stats, String version, Iterable<Tag> extraTags) {
		this(stats, null, version, extraTags);
	}

	/**
	 * Creates a binder for one listener and its diagnosis.
	 * @param stats the listener's statistics
	 * @param diagnosis the listener's diagnosis, for {@code ariadne.pool.starvation}, or
	 * {@code null} when it is off
	 * @param version the Ariadne version, for {@code ariadne.server.info}
	 * @param extraTags tags added to every meter, after {@code listener}
	 */
	public AriadneServerMetrics(ServerStats stats, Diagnosis diagnosis, String version, Iterable<Tag> extraTags) {
		this.stats = stats;
		this.diagnosis = diagnosis;
		this.version = version;
		this.tags = Tags.of("listener", stats.listener()).and(extraTags);
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
		for (PoolStats pool : this.stats.pools()) {
			bindPool(registry, pool.name());
		}
		gauge(registry, CONNECTIONS_ACTIVE, "Open connections inside a request (read, handled or written)",
				(stats) -> stats.openConnections() - stats.idleConnections(), this.tags);
		gauge(registry, CONNECTIONS_IDLE, "Open connections between two requests (kept alive)",
				ServerStats::idleConnections, this.tags);
		gauge(registry, CONNECTIONS_MAX, "Connection limit; at it the server stops accepting (max-connections)",
				ServerStats::maxConnections, this.tags);
		for (String protocol : PROTOCOLS) {
			gauge(registry, CONNECTIONS_PROTOCOL, "Open connections by the protocol they speak: http/1.1, h2 (HTTP/2 "
					+ "over TLS), h2c (HTTP/2 without TLS), websocket (switched to after a 101)", (stats) -> stats.connections(protocol),
					this.tags.and("protocol", protocol));
		}
		gauge(registry, HTTP2_STREAMS_ACTIVE, "HTTP/2 streams whose exchange runs or waits for a worker, over "
				+ "every connection", ServerStats::http2ActiveStreams, this.tags);
		gauge(registry, HTTP2_STREAMS_QUEUED, "HTTP/2 streams waiting for a worker (a permit, in virtual-threads): "
				+ "the part of ariadne_pool_queue_size that is streams rather than connections or HTTP/1.1 requests",
				ServerStats::http2QueuedStreams, this.tags);
		gauge(registry, HTTP2_CONNECTIONS_AT_LIMIT, "HTTP/2 connections with as many streams as "
				+ "http2.max-concurrent-streams allows: their clients hold further requests back, unseen by the "
				+ "server", ServerStats::http2ConnectionsAtStreamLimit, this.tags);
		gauge(registry, WEBSOCKET_SESSIONS_ACTIVE, "WebSocket sessions open now (in blocking, each owns its worker "
				+ "while open)", ServerStats::webSocketSessions, this.tags);
		for (boolean inbound : new boolean[] { true, false }) {
			register(FunctionCounter
				.builder(WEBSOCKET_MESSAGES, this.stats, (stats) -> stats.webSocketMessages(inbound))
				.description("WebSocket messages received (in) and sent (out), each counted once whole")
				.tags(this.tags.and("direction", inbound ? "in" : "out"))
				.register(registry));
		}
		register(FunctionCounter.builder(CONNECTIONS_ACCEPTED, this.stats, ServerStats::acceptedConnections)
			.description("Connections accepted")
			.tags(this.tags)
			.register(registry));
		for (RejectReason reason : RejectReason.values()) {
			register(FunctionCounter.builder(CONNECTIONS_REJECTED, this.stats, (stats) -> stats.rejected(reason))
				.description("Connections or requests refused, by reason")
				.tags(this.tags.and("reason", reason.tag()))
				.register(registry));
		}
		for (Defence defence : Defence.values()) {
			for (boolean lowResources : new boolean[] { false, true }) {
				register(FunctionCounter
					.builder(defence.http2() ? HTTP2_DEFENCES : DEFENCES, this.stats,
							(stats) -> stats.defences(defence, lowResources))
					.description(defence.http2() ? HTTP2_DEFENCES_DESCRIPTION : DEFENCES_DESCRIPTION)
					.tags(this.tags.and("reason", defence.tag()).and("low_resources", Boolean.toString(lowResources)))
					.register(registry));
			}
		}
		gauge(registry, ACCEPT_QUEUE_DEPTH,
				"Connections waiting in the kernel's accept queue of the listening socket (Linux; NaN elsewhere)",
				(stats) -> valueOrNaN(stats.acceptQueueDepth()), this.tags);
		gauge(registry, ACCEPT_QUEUE_CAPACITY,
				"Effective accept-queue length: the smaller of accept-backlog and the kernel's somaxconn",
				(stats) -> valueOrNaN(stats.acceptQueueCapacity()), this.tags);
		for (AcceptError error : AcceptError.values()) {
			register(FunctionCounter.builder(ACCEPT_ERRORS, this.stats, (stats) -> stats.acceptErrors(error))
				.description("Failed accepts on the listening socket, by what ran out (descriptors, buffers, memory); "
						+ "the listener pauses up to 1 s after each")
				.tags(this.tags.and("reason", error.tag()))
				.register(registry));
		}
		if (this.stats.acceptQueueOverflows().isPresent()
				&& registry.find(ACCEPT_QUEUE_OVERFLOWS).functionCounter() == null) {
			// the kernel counts these for the whole network namespace, not per socket: one series
			// per process, without a listener tag, so that a sum over listeners does not multiply it
			register(FunctionCounter
				.builder(ACCEPT_QUEUE_OVERFLOWS, this.stats, (stats) -> valueOrNaN(stats.acceptQueueOverflows()))
				.description("Connections the kernel dropped on a full accept queue: the network namespace's "
						+ "ListenOverflows, every listener of every process in it; ariadne_accept_queue_depth tells "
						+ "whether one of this process's queues was the full one")
				.register(registry));
		}
		register(FunctionCounter.builder(ACCESS_LOG_DROPPED, this.stats, ServerStats::accessLogDropped)
			.description("Access-log lines dropped rather than holding up a request: the log's queue "
					+ "(accesslog.queue-capacity) was full because its output could not keep up, or a write failed")
			.tags(this.tags)
			.register(registry));
		register(Gauge.builder(BUFFERS_USED, this.stats, ServerStats::buffersUsed)
			.description("Bytes held in buffers for request bodies and unsent or unread data, within buffers.budget")
			.baseUnit(BaseUnits.BYTES)
			.tags(this.tags)
			.register(registry));
		if (this.stats.tls()) {
			bindTls(registry);
		}
		register(Gauge.builder(SERVER_INFO, () -> 1)
			.description("Ariadne listener information: I/O model and version")
			.tags(this.tags.and("io_model", this.stats.ioModel()).and("version", this.version))
			.strongReference(true)
			.register(registry));
	}

	/** The handshakes of a TLS listener, by how they ended and the protocol version offered or agreed. */
	private void bindTls(MeterRegistry registry) {
		for (HandshakeOutcome outcome : HandshakeOutcome.values()) {
			for (TlsProtocol protocol : TlsProtocol.values()) {
				register(FunctionTimer
					.builder(TLS_HANDSHAKES, this.stats, (stats) -> stats.tlsHandshakes(outcome, protocol),
							(stats) -> stats.tlsHandshakeNanos(outcome, protocol), TimeUnit.NANOSECONDS)
					.description("TLS handshakes from accept to their end, by outcome (success, failed, timeout, "
							+ "closed, plaintext) and protocol version")
					.tags(this.tags.and("outcome", outcome.tag()).and("protocol", protocol.tag()))
					.register(registry));
			}
		}
	}

	private void bindPool(MeterRegistry registry, String name) {
		Tags tags = this.tags.and("pool", name);
		gauge(registry, POOL_THREADS_BUSY, "Workers busy: blocking = owning a connection, event-loop = running a "
				+ "handler, virtual-threads = requests in flight", (stats) -> pool(stats, name).busyWorkers(), tags);
		gauge(registry, POOL_THREADS_MAX, "Most workers of the pool (threads.max)",
				(stats) -> pool(stats, name).maxWorkers(), tags);
		gauge(registry, POOL_SATURATION, "Busy workers over the maximum, 0 to 1",
				(stats) -> pool(stats, name).saturation(), tags);
		gauge(registry, POOL_QUEUE_SIZE, "Waiting for a worker: blocking = accepted connections, "
				+ "event-loop = parsed requests, virtual-threads = requests waiting for a permit",
				(stats) -> pool(stats, name).queued(), tags);
		gauge(registry, POOL_QUEUE_CAPACITY, "Most items that may wait for a worker; beyond it requests get 503",
				(stats) -> pool(stats, name).queueCapacity(), tags);
		Diagnosis diagnosis = this.diagnosis;
		if (diagnosis != null) {
			for (Cause cause : Cause.values()) {
				register(Gauge
					.builder(POOL_STARVATION, diagnosis,
							(d) -> d.verdict(name).filter((verdict) -> verdict.cause() == cause).isPresent() ? 1 : 0)
					.description("1 for the cause the diagnosis names for the starved pool now, 0 for the others")
					.tags(tags.and("cause", cause.value()))
					.register(registry));
			}
		}
	}

	/** Finds a pool by name when read, so meters bound before start follow the live pool. */
	private static PoolStats pool(ServerStats stats, String name) {
		for (PoolStats pool : stats.pools()) {
			if (pool.name().equals(name)) {
				return pool;
			}
		}
		return stats.pool();
	}

	private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<ServerStats> value,
			Tags tags) {
		register(Gauge.builder(name, this.stats, value).description(description).tags(tags).register(registry));
	}

	private void register(Meter meter) {
		this.registered.add(meter.getId());
	}

	private static double valueOrNaN(OptionalLong value) {
		return value.isPresent() ? value.getAsLong() : Double.NaN;
	}

	/**
	 * Removes every meter this binder registered.
	 */
	@Override
	public void close() {
		MeterRegistry registry = this.registry;
		if (registry != null) {
			for (Meter.Id id : this.registered) {
				registry.remove(id);
			}
			this.registered.clear();
		}
	}

}
