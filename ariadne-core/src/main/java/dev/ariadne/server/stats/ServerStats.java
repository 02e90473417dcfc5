package dev.ariadne.server.stats;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * Live figures of one listener, read on demand: nothing is sampled or computed on the request
 * path for them beyond plain counters. Every method is cheap (except the accept-queue figures,
 * which read the kernel's tables when called), never blocks and may be called from any thread.
 *
 * <p>Connection figures, in every I/O model: <em>open</em> = connections accepted and not yet
 * closed; <em>idle</em> = open connections between two requests (kept alive, nothing of the next
 * request read yet); the rest are active. Pool figures are defined per model in
 * {@link PoolStats}.
 */
public interface ServerStats {

	/**
	 * Returns the listener's name ({@code app} or {@code management}).
	 * @return the listener name
	 */
	String listener();

	/**
	 * Returns the I/O model's configuration value.
	 * @return for example {@code event-loop}
	 */
	String ioModel();

	/**
	 * Returns the server's worker pool.
	 * @return the pool named {@code default}
	 */
	PoolStats pool();

	/**
	 * Returns every pool: the default one first, then the route pools.
	 * @return the pools
	 */
	List<PoolStats> pools();

	/**
	 * Returns the connections open now.
	 * @return accepted and not yet closed
	 */
	int openConnections();

	/**
	 * Returns the open connections between two requests now.
	 * @return the idle count
	 */
	int idleConnections();

	/**
	 * Returns the connection limit ({@code max-connections}).
	 * @return the limit
	 */
	int maxConnections();

	/**
	 * Returns the connections accepted since start.
	 * @return the accepted count
	 */
	long acceptedConnections();

	/**
	 * Returns the connections or requests refused since start for one reason.
	 * @param reason the reason
	 * @return the count
	 */
	long rejected(RejectReason reason);

	/**
	 * Returns how often {@code accept()} failed on the listening socket since start, for one
	 * cause, in every model. After each failure the acceptor gives back the connection permit
	 * and pauses before it accepts again, 10 ms after the first failure in a row, doubling to
	 * at most 1 s, and less when one of the server's connections closes meanwhile (a descriptor
	 * came free); meanwhile clients wait in the kernel's accept queue.
	 * @param error the cause
	 * @return the count
	 */
	long acceptErrors(AcceptError error);

	/**
	 * Returns how many {@link Error}s (out of memory, stack overflow, ...) the server's own
	 * threads caught since start, in every model: thrown by a handler (answered 500, after which
	 * the connection closes), or by the server's code on an acceptor, selector, worker or
	 * connection thread (the connection concerned is closed). In each case the thread carried
	 * on, so the server keeps serving; a count that grows says the process is short of memory
	 * or a handler recurses without end.
	 * @return the count
	 */
	long fatalErrors();

	/**
	 * Returns the connections waiting in the kernel's accept queue of the listening socket now,
	 * read from {@code /proc/net/tcp} and {@code /proc/net/tcp6}.
	 * @return the depth, or empty where it cannot be read (not Linux, not started)
	 */
	OptionalLong acceptQueueDepth();

	/**
	 * Returns the effective length of the accept queue: the smaller of {@code accept-backlog}
	 * and the kernel's {@code somaxconn}.
	 * @return the capacity, or empty where it cannot be read
	 */
	OptionalLong acceptQueueCapacity();

	/**
	 * Returns how many connections the kernel dropped since boot because an accept queue was
	 * full, for the whole network namespace ({@code ListenOverflows}).
	 * @return the count, or empty where it cannot be read
	 */
	OptionalLong acceptQueueOverflows();

	/**
	 * Returns how often the server cut off a slow client since start, by defence: a head or a
	 * body that did not arrive in time, a response nobody read.
	 * @param defence which defence acted
	 * @param lowResources {@code true} for the clients the low-resources mode cut off while their
	 * pool was starved, {@code false} for those the usual limits did
	 * @return the count
	 */
	default long defences(Defence defence, boolean lowResources) {
		return 0;
	}

	/**
	 * Returns the connections open now that speak a protocol.
	 * @param protocol its name as ALPN spells it: {@code http/1.1}, {@code h2}, or {@code h2c} for
	 * HTTP/2 without TLS; or the protocol an HTTP/1.1 connection switched to after a 101, as its
	 * request named it, in lower case ({@code websocket})
	 * @return the count
	 */
	default int connections(String protocol) {
		return 0;
	}

	/**
	 * Returns the WebSocket sessions open now on the listener, those of its routes and those that
	 * another implementation counts through its exchanges (a Spring MVC application's Jakarta
	 * WebSocket sessions), each from its handshake: in
	 * {@code blocking} each owns its connection's worker for as long as it is open; in
	 * {@code virtual-threads} a parked virtual thread; in {@code event-loop} no thread while it
	 * waits.
	 * @return the count
	 */
	default int webSocketSessions() {
		return 0;
	}

	/**
	 * Returns the WebSocket messages the listener's sessions carried since start, each counted
	 * once whole, however many frames it took.
	 * @param inbound {@code true} for those received from clients, {@code false} for those sent
	 * @return the count
	 */
	default long webSocketMessages(boolean inbound) {
		return 0;
	}

	/**
	 * Returns what the HTTP/2 streams over every connection are doing, in one walk of the
	 * connections: for a scrape or the diagnosis, never on the request path.
	 * @return the streams that run or wait for a thread, those of them that wait, and the
	 * connections at {@code http2.max-concurrent-streams}
	 */
	default StreamCount http2Streams() {
		return StreamCount.NONE;
	}

	/**
	 * Returns the HTTP/2 streams whose exchange runs or waits for a thread, over every
	 * connection.
	 * @return the count
	 */
	default int http2ActiveStreams() {
		return http2Streams().active();
	}

	/**
	 * Returns the HTTP/2 streams whose exchange waits for a thread (a worker, a permit, a turn),
	 * over every connection: the part of the pool's queue that is streams rather than
	 * connections or HTTP/1.1 requests.
	 * @return the count
	 */
	default int http2QueuedStreams() {
		return http2Streams().queued();
	}

	/**
	 * Returns the HTTP/2 connections whose streams are as many as
	 * {@code http2.max-concurrent-streams} allows now: their clients hold further requests back,
	 * where the server does not see them wait.
	 * @return the count
	 */
	default int http2ConnectionsAtStreamLimit() {
		return http2Streams().atLimit();
	}

	/**
	 * Returns the bytes the server holds now in buffers for its connections, over all of them,
	 * as counted against its budget ({@code buffers.budget}): input buffers holding unread
	 * request bodies and pipelined requests, and the free ones the event loop keeps for reuse
	 * ({@code event-loop}); response bytes queued for slow clients ({@code event-loop}) and the
	 * response buffers of running exchanges (every model); bodies read whole for a handler
	 * ({@code Request.bodyBytes()}, every model, until the exchange ends); HTTP/2 request content
	 * not yet read by its handler. Not counted: the
	 * fixed 8 KiB input buffer of each connection in the socket models, part of the connection
	 * as its thread is, which {@code max-connections} bounds. The response buffers of running
	 * exchanges (8 KiB each) are granted even at the budget, so that every exchange can end:
	 * the figure may exceed the budget by that much, which the thread count bounds.
	 * @return the bytes held
	 */
	default long buffersUsed() {
		return 0;
	}

	/**
	 * Returns whether this listener terminates TLS ({@code ssl} is configured): then every
	 * connection starts with a handshake, counted by {@link #tlsHandshakes}.
	 * @return whether the listener speaks TLS
	 */
	default boolean tls() {
		return false;
	}

	/**
	 * Returns how many TLS handshakes ended since start with an outcome, for one protocol
	 * version. Each connection of a TLS listener counts once, when its handshake completes,
	 * fails, times out or is cut short; a connection that completed its handshake is never
	 * counted again (renegotiation is refused).
	 * @param outcome how the handshakes ended
	 * @param protocol the version negotiated, or the highest the client offered when none was
	 * @return the count, 0 on a listener without TLS
	 */
	default long tlsHandshakes(HandshakeOutcome outcome, TlsProtocol protocol) {
		return 0;
	}

	/**
	 * Returns the most bytes the server holds in buffers ({@code buffers.budget}): at it, the
	 * event loop stops reading from connections that need a new buffer, writers wait, and a
	 * handler reading a body whole waits, then gets a 503.
	 * @return the budget in bytes
	 */
	default long buffersBudget() {
		return 0;
	}

	/**
	 * Returns the time the handshakes counted by {@link #tlsHandshakes} took, summed: each from
	 * the connection's accept to the handshake's end (its completion, the failure, the timeout,
	 * the close, or the first plaintext bytes), so a client's round trips and a slow client's
	 * pauses are in it.
	 * @param outcome how the handshakes ended
	 * @param protocol the version negotiated, or the highest the client offered
	 * @return the total in nanoseconds, 0 on a listener without TLS
	 */
	default long tlsHandshakeNanos(HandshakeOutcome outcome, TlsProtocol protocol) {
		return 0;
	}

	/**
	 * Returns how long the connections idle now have been idle, on average. Walks the open
	 * connections, so call it at most about once a second, never on the request path.
	 * @return the average, zero when no connection is idle or the model does not track it
	 * ({@code event-loop}, where an idle connection holds no thread)
	 */
	default Duration averageIdleTime() {
		return Duration.ZERO;
	}

	/**
	 * Returns the worker time spent on each route of a pool since the server started, counted
	 * as each exchange ends: from the worker taking the request to the response being handed
	 * to the connection, without time spent waiting for a route pool. Counted only while the
	 * server's diagnosis is on.
	 * @param pool the pool's name
	 * @return the routes that ran in the pool, empty when nothing is counted
	 */
	default List<RouteWork> routeWork(String pool) {
		return List.of();
	}

	/**
	 * Returns the access-log lines dropped since start rather than holding up a request: those
	 * of exchanges that ended while the log's queue ({@code accesslog.queue-capacity}) was full
	 * because its output could not keep up, or after the log closed, and those lost to a failed
	 * write.
	 * @return the count, 0 without an access log
	 */
	default long accessLogDropped() {
		return 0;
	}

}
