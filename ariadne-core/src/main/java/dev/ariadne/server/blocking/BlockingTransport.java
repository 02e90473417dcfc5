package dev.ariadne.server.blocking;

import java.util.concurrent.atomic.AtomicInteger;

import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.pool.WorkerPool;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.transport.SocketTransport;
import dev.ariadne.server.transport.SocketWire;
import dev.ariadne.server.protocol.Protocol;

/**
 * The {@code blocking} model: thread per connection. The acceptor hands each connection to the
 * worker pool; the worker owns it until it closes, idle keep-alive time included. With more
 * kept-alive clients than workers, the rest wait in the pool's queue, unserved, until a
 * connection closes: the starvation this project makes visible. The release threshold answers
 * with {@code Connection: close} while the pool is busier than it, so pinned workers come free.
 */
public final class BlockingTransport extends SocketTransport<WorkerPool> {

	/** Connections told to close to release their worker, whose worker has not yet moved on. */
	private final AtomicInteger releasing = new AtomicInteger();

	/**
	 * Creates the transport.
	 * @param context what the server's connections share
	 * @param first makes each connection's first protocol
	 */
	public BlockingTransport(ConnectionContext context, Protocol.Factory first) {
		super(context, workerPool(context.config()), first);
	}

	@Override
	protected void serve(SocketWire connection) {
		if (!this.pool.execute(new Serve(connection))) {
			this.context.registry().rejected(RejectReason.QUEUE_FULL);
			connection.reject(Answers.QUEUE_FULL, 1);
		}
	}

	/**
	 * A multiplexed stream waits in the default pool's queue like a connection does: the
	 * connection's own worker goes on reading its frames.
	 */
	@Override
	protected boolean fork(Runnable task) {
		return this.pool.execute(task);
	}

	/**
	 * Whether the connection answering now should be closed to release its worker: the share
	 * of busy workers is above the release threshold and more connections wait for a worker
	 * than releases are already under way. Releasing only for those waiting keeps connections
	 * alive when enough workers exist, and closes one connection per waiter rather than every
	 * connection while anyone waits.
	 */
	@Override
	protected boolean pinsWorker() {
		return true;
	}

	@Override
	protected boolean releaseConnection() {
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

	/**
	 * Connections still queued never got a worker, and nothing of theirs was read: 503. A queued
	 * HTTP/2 stream is dropped: its connection, which has a worker, is closed with the others, and
	 * its protocol resets the streams that never ran.
	 */
	@Override
	protected void stopTaking() {
		for (Runnable pending : this.pool.shutdownAndDrainQueue()) {
			if (pending instanceof Serve serve) {
				serve.connection.reject(Answers.SHUTTING_DOWN, 0);
				this.context.registry().rejected(RejectReason.SHUTTING_DOWN);
			}
		}
	}

	/** The pool task of one connection, so a queued connection can be found again. */
	private final class Serve implements WorkerPool.QueueAware {

		private final SocketWire connection;

		Serve(SocketWire connection) {
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
