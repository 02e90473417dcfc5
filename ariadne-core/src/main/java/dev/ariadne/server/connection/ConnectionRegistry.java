package dev.ariadne.server.connection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import dev.ariadne.server.stats.AcceptError;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.stats.StreamCount;

/**
 * The open connections of one server and what is counted about them: the connection permits
 * ({@code max-connections}), the open, idle, accepted and refused counts, the accept failures,
 * the errors its threads survived, and the shutdown state that every exchange consults. Graceful shutdown and the watchdog of
 * the socket models walk the connections through it; the waiting they do is theirs.
 *
 * <p>Thread-safe. The counts are plain counters read on demand by the statistics.
 */
public final class ConnectionRegistry {

	private final Semaphore permits;

	private final Set<TrackedConnection> connections = ConcurrentHashMap.newKeySet();

	private final AtomicInteger open = new AtomicInteger();

	private final AtomicInteger idle = new AtomicInteger();

	private final LongAdder accepted = new LongAdder();

	private final LongAdder[] rejected = counters(RejectReason.values().length);

	private final LongAdder[] acceptErrors = counters(AcceptError.values().length);

	private final LongAdder fatalErrors = new LongAdder();

	/** By defence, then by whether the low-resources mode acted: normal, low. */
	private final LongAdder[] defences = counters(Defence.values().length * 2);

	/** Told after each close; the acceptor's, to end a pause taken for want of descriptors. */
	private volatile Runnable closeListener;

	private volatile boolean shuttingDown;

	private volatile boolean forced;

	/**
	 * Creates an empty registry.
	 * @param maxConnections the connection permits ({@code max-connections})
	 */
	public ConnectionRegistry(int maxConnections) {
		this.permits = new Semaphore(maxConnections);
	}

	private static LongAdder[] counters(int count) {
		LongAdder[] counters = new LongAdder[count];
		for (int i = 0; i < count; i++) {
			counters[i] = new LongAdder();
		}
		return counters;
	}

	// ---- permits and the open connections

	/**
	 * Takes a connection permit before accepting, waiting at most the given time. While no
	 * permit is free the acceptor does not accept, so clients wait in the kernel's queue.
	 * @param millis the most time to wait
	 * @return whether a permit was taken
	 * @throws InterruptedException if interrupted while waiting
	 */
	public boolean acquirePermit(long millis) throws InterruptedException {
		return this.permits.tryAcquire(millis, TimeUnit.MILLISECONDS);
	}

	/**
	 * Gives back a permit whose accept produced no connection.
	 */
	public void releasePermit() {
		this.permits.release();
	}

	/**
	 * Records a newly accepted connection, which now owns a permit.
	 * @param connection the connection
	 */
	public void opened(TrackedConnection connection) {
		this.accepted.increment();
		this.open.incrementAndGet();
		this.connections.add(connection);
	}

	/**
	 * Records that a connection closed, releasing its permit. Safe to call more than once per
	 * connection: only the first call counts.
	 * @param connection the connection
	 */
	public void closed(TrackedConnection connection) {
		if (this.connections.remove(connection)) {
			this.open.decrementAndGet();
			this.permits.release();
			Runnable listener = this.closeListener;
			if (listener != null) {
				listener.run();
			}
		}
	}

	/**
	 * Sets what is told each time a connection closes (and a descriptor comes free). It runs on
	 * the thread that closed the connection, so it must be quick and never block.
	 * @param listener the listener, or {@code null} for none
	 */
	public void onClose(Runnable listener) {
		this.closeListener = listener;
	}

	/**
	 * Adjusts the number of idle connections.
	 * @param delta +1 when a connection goes idle, -1 when it stops being idle
	 */
	public void idle(int delta) {
		this.idle.addAndGet(delta);
	}

	/**
	 * Returns whether any connection is still open.
	 * @return whether connections remain
	 */
	public boolean hasConnections() {
		return !this.connections.isEmpty();
	}

	// ---- what is counted

	/**
	 * Counts a refused connection or request.
	 * @param reason why
	 */
	public void rejected(RejectReason reason) {
		this.rejected[reason.ordinal()].increment();
	}

	/**
	 * Counts a failed {@code accept()}.
	 * @param error what ran out
	 */
	public void acceptFailed(AcceptError error) {
		this.acceptErrors[error.ordinal()].increment();
	}

	/**
	 * Counts a defence the server used against a slow client.
	 * @param defence which
	 * @param lowResources whether the low-resources mode cut the client off (its pool was
	 * starved), rather than the usual limit
	 */
	public void defended(Defence defence, boolean lowResources) {
		this.defences[defence.ordinal() * 2 + (lowResources ? 1 : 0)].increment();
	}

	/**
	 * Returns how often a defence acted since start.
	 * @param defence which
	 * @param lowResources whether those the low-resources mode made, or those of the usual limits
	 * @return the count
	 */
	public long defences(Defence defence, boolean lowResources) {
		return this.defences[defence.ordinal() * 2 + (lowResources ? 1 : 0)].sum();
	}

	/**
	 * Counts an {@link Error} (out of memory, stack overflow) that one of the server's threads
	 * caught and survived, after closing the connection concerned.
	 */
	public void fatalError() {
		this.fatalErrors.increment();
	}

	/**
	 * Returns the connections open now.
	 * @return accepted and not yet closed
	 */
	public int openConnections() {
		return this.open.get();
	}

	/**
	 * Returns the open connections between two requests now.
	 * @return the idle count
	 */
	public int idleConnections() {
		return this.idle.get();
	}

	/**
	 * Returns the connections accepted since start.
	 * @return the count
	 */
	public long acceptedConnections() {
		return this.accepted.sum();
	}

	/**
	 * Returns the connections or requests refused for one reason since start.
	 * @param reason the reason
	 * @return the count
	 */
	public long rejections(RejectReason reason) {
		return this.rejected[reason.ordinal()].sum();
	}

	/**
	 * Returns the failed accepts for one cause since start.
	 * @param error the cause
	 * @return the count
	 */
	public long acceptErrors(AcceptError error) {
		return this.acceptErrors[error.ordinal()].sum();
	}

	/**
	 * Returns the errors the server's threads survived since start.
	 * @return the count
	 */
	public long fatalErrors() {
		return this.fatalErrors.sum();
	}

	// ---- shutdown

	/**
	 * Returns whether a shutdown has begun: exchanges then answer with
	 * {@code Connection: close}.
	 * @return whether shutting down
	 */
	public boolean shuttingDown() {
		return this.shuttingDown;
	}

	/**
	 * Marks the start of a shutdown.
	 */
	public void beginShutdown() {
		this.shuttingDown = true;
	}

	/**
	 * Cuts a graceful shutdown short: the drain stops waiting and aborts what is left.
	 */
	public void forceClose() {
		this.shuttingDown = true;
		this.forced = true;
	}

	/**
	 * Returns whether a graceful shutdown was cut short.
	 * @return whether {@link #forceClose()} was called
	 */
	public boolean forced() {
		return this.forced;
	}

	/**
	 * Closes every connection that is between requests. Any thread.
	 * @return whether no connection is left open
	 */
	public boolean closeIdle() {
		for (TrackedConnection connection : this.connections) {
			connection.closeIfIdle();
		}
		return this.connections.isEmpty();
	}

	/**
	 * Aborts every connection still open and stops counting them as open, even if a handler
	 * never returns, since a thread cannot be stopped.
	 * @return how many were aborted
	 */
	public int abortAll() {
		List<TrackedConnection> left = new ArrayList<>(this.connections);
		for (TrackedConnection connection : left) {
			connection.abort();
			// aborted (its socket closed, or about to be on its selector): no longer open
			closed(connection);
		}
		return left.size();
	}

	/**
	 * Returns the threads of the open connections that are not idle: for the models that run
	 * each connection on a thread of its own. Walks the connections: for the diagnosis, at most
	 * about once a second, never on the request path.
	 * @return the threads, in no order
	 */
	public List<Thread> activeConnectionThreads() {
		List<Thread> threads = new ArrayList<>();
		for (TrackedConnection connection : this.connections) {
			Thread thread = connection.thread();
			if (thread != null && connection.idleSinceNanos() == 0) {
				threads.add(thread);
			}
		}
		return threads;
	}

	/**
	 * Returns the connections open now that speak a protocol. Walks the connections: for a
	 * scrape, never on the request path.
	 * @param protocol the protocol's name ({@code http/1.1}, {@code h2}, {@code h2c})
	 * @return the count
	 */
	public int connections(String protocol) {
		int count = 0;
		for (TrackedConnection connection : this.connections) {
			if (protocol.equals(connection.protocolName())) {
				count++;
			}
		}
		return count;
	}

	/**
	 * Returns what the HTTP/2 streams over every connection are doing. Walks the connections:
	 * for a scrape or the diagnosis, never on the request path.
	 * @return the sum over the connections
	 */
	public StreamCount streams() {
		StreamCount count = StreamCount.NONE;
		for (TrackedConnection connection : this.connections) {
			StreamCount streams = connection.streams();
			if (streams != StreamCount.NONE) {
				count = count.plus(streams);
			}
		}
		return count;
	}

	/**
	 * Returns how long the connections idle now have been idle, on average. Walks the
	 * connections: for the diagnosis, at most about once a second.
	 * @return the average, zero when none is idle or the model does not track it
	 */
	public Duration averageIdleTime() {
		long now = System.nanoTime();
		long total = 0;
		int idle = 0;
		for (TrackedConnection connection : this.connections) {
			long since = connection.idleSinceNanos();
			if (since != 0) {
				total += Math.max(0, now - since);
				idle++;
			}
		}
		return (idle > 0) ? Duration.ofNanos(total / idle) : Duration.ZERO;
	}

	/**
	 * Closes connections idle past their deadline and those whose writes have stalled for
	 * longer than the write timeout.
	 * @param nowNanos the current {@link System#nanoTime()}
	 * @param writeTimeoutNanos the longest a write may make no progress
	 */
	public void closeExpired(long nowNanos, long writeTimeoutNanos) {
		for (TrackedConnection connection : this.connections) {
			connection.closeIfExpired(nowNanos, writeTimeoutNanos);
		}
	}

}
