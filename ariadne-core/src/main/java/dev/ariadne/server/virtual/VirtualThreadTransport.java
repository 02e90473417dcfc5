package dev.ariadne.server.virtual;

import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionRegistry;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.internal.VirtualThreads;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.transport.SocketTransport;
import dev.ariadne.server.transport.SocketWire;
import dev.ariadne.server.protocol.Protocol;

/**
 * The {@code virtual-threads} model: one virtual thread per connection, from accept to close,
 * with at most {@code threads.max} requests in flight. A request beyond that waits for a permit
 * and counts as queued; beyond {@code threads.queue-capacity} waiting requests it is answered
 * 503. Needs Java 21; the project compiles for 17, so virtual threads come from the one
 * reflective factory, {@link VirtualThreads}.
 */
public final class VirtualThreadTransport extends SocketTransport<VirtualThreadTransport.Permits> {

	private final ThreadFactory virtualThreads;

	private final PoolEntry<InterruptedException> entry = this::enter;

	private final StreamThreads streams;

	/**
	 * Creates the transport.
	 * @param context what the server's connections share
	 * @param first makes each connection's first protocol
	 * @throws IllegalStateException if this JVM has no virtual threads (before Java 21)
	 */
	public VirtualThreadTransport(ConnectionContext context, Protocol.Factory first) {
		super(context,
				new Permits(context.config().maxThreads(), context.config().queueCapacity(), context.registry()), first);
		this.virtualThreads = VirtualThreads.factory("ariadne-" + this.config.name() + "-vthread-",
				"ariadne.server.io-model=virtual-threads", "ariadne.server.io-model=event-loop (or blocking)");
		this.streams = new StreamThreads(this.virtualThreads, this.pool);
	}

	@Override
	protected PoolEntry<InterruptedException> entry() {
		return this.entry;
	}

	/** A request runs once it has a permit; the permit is held while its route pool runs it. */
	private RejectReason enter(TaskPool routePool, Runnable exchange) throws InterruptedException {
		if (!this.pool.enter()) {
			return RejectReason.QUEUE_FULL;
		}
		try {
			return runHereOrWait(routePool, exchange);
		}
		finally {
			this.pool.exit();
		}
	}

	/**
	 * A virtual thread per multiplexed stream, which takes a permit for its exchange; no more of
	 * them at once than permits, the rest waiting as tasks ({@link StreamThreads}).
	 */
	@Override
	protected boolean fork(Runnable task) {
		return this.streams.submit(task);
	}

	@Override
	protected void serve(SocketWire connection) {
		this.virtualThreads.newThread(connection::serve).start();
	}

	/** The in-flight limit: permits are the "workers" of this model. */
	static final class Permits implements PoolStats {

		private final int max;

		private final int queueCapacity;

		private final Semaphore semaphore;

		private final AtomicInteger waiting = new AtomicInteger();

		private final AtomicLong dequeued = new AtomicLong();

		private final ConnectionRegistry connections;

		Permits(int max, int queueCapacity, ConnectionRegistry connections) {
			this.max = max;
			this.queueCapacity = queueCapacity;
			this.connections = connections;
			this.semaphore = new Semaphore(max, true);
		}

		/** Waits for a permit; {@code false} when too many requests wait already. */
		boolean enter() throws InterruptedException {
			if (this.semaphore.tryAcquire()) {
				return true;
			}
			if (!queue()) {
				return false;
			}
			try {
				this.semaphore.acquire();
			}
			catch (InterruptedException ex) {
				this.waiting.decrementAndGet();
				throw ex;
			}
			unqueue();
			return true;
		}

		void exit() {
			this.semaphore.release();
		}

		/** Counts a request or stream that waits; {@code false} when too many wait already. */
		boolean queue() {
			if (this.waiting.incrementAndGet() > this.queueCapacity) {
				this.waiting.decrementAndGet();
				return false;
			}
			return true;
		}

		/** One that waited got its permit or thread. */
		void unqueue() {
			this.waiting.decrementAndGet();
			this.dequeued.incrementAndGet();
		}

		int max() {
			return this.max;
		}

		@Override
		public String name() {
			return "default";
		}

		@Override
		public int busyWorkers() {
			return this.max - this.semaphore.availablePermits();
		}

		@Override
		public int maxWorkers() {
			return this.max;
		}

		@Override
		public int queued() {
			return this.waiting.get();
		}

		@Override
		public long dequeued() {
			return this.dequeued.get();
		}

		@Override
		public int queueCapacity() {
			return this.queueCapacity;
		}

		@Override
		public List<Thread> workerThreads() {
			// the connections' own threads: those waiting for a permit or reading a request
			// are among them, and a diagnosis tells them apart by where they wait
			return this.connections.activeConnectionThreads();
		}

	}

}
