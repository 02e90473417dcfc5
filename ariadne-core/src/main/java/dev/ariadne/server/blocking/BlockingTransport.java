package dev.ariadne.server.blocking;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.ServerContext;
import dev.ariadne.server.connection.SocketConnection;
import dev.ariadne.server.connection.SocketListener;
import dev.ariadne.server.connection.Transport;
import dev.ariadne.server.internal.Threads;
import dev.ariadne.server.pool.WorkerPool;
import dev.ariadne.server.stats.RejectReason;

/**
 * The {@code blocking} model: thread per connection. An acceptor thread takes a connection
 * permit, accepts, and hands the connection to the worker pool; the worker owns it until it
 * closes, idle keep-alive time included. With more kept-alive clients than workers, the rest
 * wait in the pool's queue, unserved, until a connection closes: the starvation this project
 * makes visible. The release threshold answers with {@code Connection: close} while the pool is
 * busier than it, so pinned workers come free.
 */
public final class BlockingTransport implements Transport {

	private final ServerContext context;

	private final ServerConfig config;

	private final SocketListener listener;

	private WorkerPool pool;

	/** Connections told to close to release their worker, whose worker has not yet moved on. */
	private final AtomicInteger releasing = new AtomicInteger();

	/**
	 * Creates the transport.
	 * @param context the server's shared state
	 */
	public BlockingTransport(ServerContext context) {
		this.context = context;
		this.config = context.config();
		this.listener = new SocketListener(context, SocketConnection.Gate.OPEN, this::releaseThresholdExceeded,
				this::handOff);
	}

	@Override
	public void start() throws IOException {
		String name = this.config.name();
		this.pool = new WorkerPool("default", this.config.minThreads(), this.config.maxThreads(),
				this.config.queueCapacity(), Threads.named("ariadne-" + name + "-worker", true));
		this.context.defaultPool(this.pool);
		this.listener.start(Threads.named("ariadne-" + name + "-acceptor", false));
	}

	private void handOff(SocketConnection connection) {
		if (!this.pool.execute(new Serve(connection))) {
			this.context.rejected(RejectReason.QUEUE_FULL);
			connection.reject("All workers are busy and the queue is full", 1);
		}
	}

	/**
	 * Whether the connection answering now should be closed to release its worker: the share
	 * of busy workers is above the release threshold and more connections wait for a worker
	 * than releases are already under way. Releasing only for those waiting keeps connections
	 * alive when enough workers exist, and closes one connection per waiter rather than every
	 * connection while anyone waits.
	 */
	private boolean releaseThresholdExceeded() {
		double threshold = this.config.keepAliveReleaseThreshold();
		if (threshold >= 1 || this.pool.busyWorkers() <= threshold * this.pool.maxWorkers()) {
			return false;
		}
		while (true) {
			int releasing = this.releasing.get();
			if (this.pool.queued() <= releasing) {
				return false;
			}
			if (this.releasing.compareAndSet(releasing, releasing + 1)) {
				return true;
			}
		}
	}

	/** A waiting connection got a worker: one release, if any was under way, is complete. */
	private void releaseCompleted() {
		this.releasing.updateAndGet((releasing) -> Math.max(0, releasing - 1));
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
			if (this.pool == null) {
				return true;
			}
			// connections still queued never got a worker: nothing of theirs was read
			for (Runnable pending : this.pool.shutdownAndDrainQueue()) {
				((Serve) pending).connection.reject("Server is shutting down", 0);
				this.context.rejected(RejectReason.SHUTTING_DOWN);
			}
			boolean drained = this.context.drainConnections(gracePeriod.toMillis());
			this.context.shutdownRoutePools();
			if (!this.pool.awaitTermination(1000)) {
				this.pool.shutdownNow();
			}
			return drained;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.pool.shutdownNow();
			return false;
		}
	}

	@Override
	public void close() {
		this.listener.close();
	}

	/** The pool task of one connection, so a queued connection can be found again. */
	private final class Serve implements WorkerPool.QueueAware {

		private final SocketConnection connection;

		Serve(SocketConnection connection) {
			this.connection = connection;
		}

		@Override
		public void taken(boolean waited) {
			// only a connection counted as waiting can be the one a release was made for; one
			// that a newly started worker takes was never counted
			if (waited) {
				releaseCompleted();
			}
		}

		@Override
		public void run() {
			this.connection.serve();
		}

	}

}
