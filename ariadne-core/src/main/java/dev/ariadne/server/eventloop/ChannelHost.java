package dev.ariadne.server.eventloop;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

import dev.ariadne.server.connection.AsyncHost;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.protocol.HostedExchange;
import dev.ariadne.server.routing.Route;

/**
 * How the event loop runs the work of a connection's suspended exchange: a task goes to its pool
 * at once, from whichever thread gives it; the end of the exchange takes a turn through the
 * selector first, which hands the connection on; a non-blocking reader's callback waits for the
 * selector to see input ({@link InputDemand}), a non-blocking writer's for the
 * {@link WriteQueue} to drain.
 */
final class ChannelHost implements AsyncHost {

	private static final Logger logger = System.getLogger(ChannelHost.class.getName());

	private final ChannelWire wire;

	private final SelectorLoop loop;

	private final PoolEntry<RuntimeException> entry;

	private final WriteQueue writes;

	private final HostedExchange exchange;

	/** The reader's callback and its entry into the pool, kept while the reader keeps it. */
	private Entered reading;

	/** The writer's likewise; writers of any thread may replace it. */
	private volatile Entered writing;

	ChannelHost(ChannelWire wire, SelectorLoop loop, PoolEntry<RuntimeException> entry, WriteQueue writes,
			HostedExchange exchange) {
		this.wire = wire;
		this.loop = loop;
		this.entry = entry;
		this.writes = writes;
		this.exchange = exchange;
	}

	@Override
	public boolean execute(TaskPool routePool, Runnable task) {
		return this.entry.enter(routePool, task) == null;
	}

	@Override
	public void resume(TaskPool routePool) {
		String pool = (routePool != null) ? routePool.name() : Route.DEFAULT_POOL;
		this.loop.execute(() -> {
			if (this.entry.enter(routePool, () -> this.exchange.endSuspended(pool)) != null) {
				abandonSuspended();
			}
		});
	}

	@Override
	public void awaitReadable(TaskPool routePool, Runnable task) {
		// a non-blocking reader holds no worker while it waits: the body's own limits apply
		long deadline = this.exchange.nonBlockingReadWait();
		Entered reading = entered(this.reading, routePool, task);
		this.reading = reading;
		this.wire.demand().demand(reading.entry, deadline, this.exchange);
	}

	@Override
	public boolean writable(TaskPool routePool, Runnable task) {
		Entered kept = this.writing;
		Entered writing = entered(kept, routePool, task);
		if (writing != kept) {
			this.writing = writing;
		}
		return this.writes.writable(writing.entry);
	}

	/** The entry kept for a callback if it is the same callback on the same pool, else a new one. */
	private Entered entered(Entered kept, TaskPool routePool, Runnable task) {
		if (kept != null && kept.task == task && kept.pool == routePool) {
			return kept;
		}
		return new Entered(task, routePool, () -> enter(routePool, task));
	}

	/** Queues a reader's or writer's callback on the exchange's pool. */
	private void enter(TaskPool routePool, Runnable task) {
		if (this.entry.enter(routePool, task) != null) {
			this.exchange.taskRefused();
		}
	}

	/**
	 * A callback and what queues it on the exchange's pool, made once per callback rather than
	 * once per wait (a WebSocket session waits for every message).
	 */
	private record Entered(Runnable task, TaskPool pool, Runnable entry) {
	}

	/** The pool refused the end of a suspended exchange (it is stopping): close; selector thread. */
	private void abandonSuspended() {
		logger.log(Level.WARNING, "The pool refused to end a suspended exchange; closing its connection");
		this.wire.close();
		this.exchange.abandonSuspended();
	}

}
