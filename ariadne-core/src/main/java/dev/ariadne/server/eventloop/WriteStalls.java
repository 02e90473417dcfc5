package dev.ariadne.server.eventloop;

import java.util.function.Supplier;

import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.stats.Defence;

/**
 * How long a writer of one event-loop connection may wait for its client to take bytes: the
 * write timeout ({@code keep-alive.timeout}), or the low-resources stall timeout while the pool
 * of the connection's exchange is starved. A client cut off for it is counted as a slow reader.
 */
final class WriteStalls implements WriteQueue.Stalls {

	private final ConnectionContext context;

	private final long writeTimeoutNanos;

	/** The pool whose worker runs, or last ran, the connection's exchange. */
	private final Supplier<String> pool;

	WriteStalls(ConnectionContext context, Supplier<String> pool) {
		this.context = context;
		this.writeTimeoutNanos = context.config().keepAliveTimeout().toNanos();
		this.pool = pool;
	}

	@Override
	public long writeLimitNanos() {
		return Math.min(this.writeTimeoutNanos, this.context.lowResources().stallNanos(this.pool.get()));
	}

	@Override
	public long pollNanos() {
		return this.context.lowResources().pollNanos();
	}

	@Override
	public void writeCut(boolean lowResources) {
		this.context.registry().defended(Defence.SLOW_READER, lowResources);
	}

}
