package dev.ariadne.server.virtual;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.ServerContext;
import dev.ariadne.server.connection.SocketConnection;
import dev.ariadne.server.connection.SocketListener;
import dev.ariadne.server.connection.Transport;
import dev.ariadne.server.internal.Threads;
import dev.ariadne.server.internal.VirtualThreads;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.RejectReason;

/**
 * The {@code virtual-threads} model: one virtual thread per connection, from accept to close,
 * with at most {@code threads.max} requests in flight. A request beyond that waits for a permit
 * and counts as queued; beyond {@code threads.queue-capacity} waiting requests it is answered
 * 503. Needs Java 21; the project compiles for 17, so virtual threads come from the one
 * reflective factory, {@link VirtualThreads}.
 */
public final class VirtualThreadTransport implements Transport {

	private final ServerContext context;

	private final ServerConfig config;

	private final Permits permits;

	private final ThreadFactory virtualThreads;

	private final SocketListener listener;

	/**
	 * Creates the transport.
	 * @param context the server's shared state
	 * @throws IllegalStateException if this JVM has no virtual threads (before Java 21)
	 */
	public VirtualThreadTransport(ServerContext context) {
		this.context = context;
		this.config = context.config();
		this.virtualThreads = VirtualThreads.factory("ariadne-" + this.config.name() + "-vthread-",
				"ariadne.server.io-model=virtual-threads");
		this.permits = new Permits(this.config.maxThreads(), this.config.queueCapacity());
		this.listener = new SocketListener(context, this.permits, () -> false, this::handOff);
	}

	@Override
	public void start() throws IOException {
		this.context.defaultPool(this.permits);
		this.listener.start(Threads.named("ariadne-" + this.config.name() + "-acceptor", false));
	}

	private void handOff(SocketConnection connection) {
		this.virtualThreads.newThread(connection::serve).start();
	}

	@Override
	public InetSocketAddress localAddress() {
		return this.listener.localAddress();
	}

	@Override
	public boolean shutdown(Duration gracePeriod) {
		this.context.beginShutdown();
		try {
			this.listener.stop();
			boolean drained = this.context.drainConnections(gracePeriod.toMillis());
			this.context.shutdownRoutePools();
			return drained;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public void close() {
		this.listener.close();
	}

	/** The in-flight limit: permits are the "workers" of this model. */
	private final class Permits implements SocketConnection.Gate, PoolStats {

		private final int max;

		private final int queueCapacity;

		private final Semaphore semaphore;

		private final AtomicInteger waiting = new AtomicInteger();

		Permits(int max, int queueCapacity) {
			this.max = max;
			this.queueCapacity = queueCapacity;
			this.semaphore = new Semaphore(max, true);
		}

		@Override
		public long enter() throws InterruptedException {
			if (this.semaphore.tryAcquire()) {
				return 0;
			}
			if (this.waiting.incrementAndGet() > this.queueCapacity) {
				this.waiting.decrementAndGet();
				VirtualThreadTransport.this.context.rejected(RejectReason.QUEUE_FULL);
				return -1;
			}
			long start = System.nanoTime();
			try {
				this.semaphore.acquire();
			}
			finally {
				this.waiting.decrementAndGet();
			}
			return System.nanoTime() - start;
		}

		@Override
		public void exit() {
			this.semaphore.release();
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
		public int queueCapacity() {
			return this.queueCapacity;
		}

		@Override
		public List<Thread> workerThreads() {
			// the connections' own threads: those waiting for a permit or reading a request
			// are among them, and a diagnosis tells them apart by where they wait
			return VirtualThreadTransport.this.context.activeConnectionThreads();
		}

	}

}
