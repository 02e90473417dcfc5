package dev.ariadne.server.transport;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;

import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.protocol.Protocol;

/**
 * The transport of the models that serve each connection on a thread of its own, with
 * blocking reads and writes ({@code blocking}, {@code virtual-threads}): their connections are
 * {@link SocketWire}s, a {@link Watchdog} enforces their idle and write timeouts, and a
 * request of a route pool runs there while the connection's thread waits for it (the thread
 * stays with its connection).
 *
 * @param <P> the model's own pool
 */
public abstract class SocketTransport<P extends PoolStats> extends AbstractTransport<SocketWire, P> {

	private final BooleanSupplier releaseConnection = this::releaseConnection;

	private final Protocol.Factory first;

	/**
	 * Creates the shared part of a socket model's transport.
	 * @param context what the server's connections share
	 * @param pool the model's own pool, named {@code default}
	 * @param first makes each connection's first protocol
	 */
	protected SocketTransport(ConnectionContext context, P pool, Protocol.Factory first) {
		super(context, pool);
		this.first = first;
	}

	/**
	 * Returns how the model's requests reach their pool: by default the connection's own thread
	 * runs the exchange, or waits for a worker of the route's pool to run it.
	 * @return the entry, called on the connection's thread
	 */
	protected PoolEntry<InterruptedException> entry() {
		return SocketTransport::runHereOrWait;
	}

	/**
	 * Asked on the connection's thread at each response: whether to close the connection after
	 * it, to free its thread.
	 * @return whether to release the connection; {@code false} unless the model says otherwise
	 */
	protected boolean releaseConnection() {
		return false;
	}

	/**
	 * Returns whether a connection's thread is a worker of the default pool, held from accept to
	 * close ({@code blocking}), rather than a thread of its own that takes a permit per exchange.
	 * @return whether connections pin workers
	 */
	protected boolean pinsWorker() {
		return false;
	}

	/**
	 * Runs a task that dispatches a multiplexed exchange (an HTTP/2 stream) on a thread other
	 * than the connection's, which goes on reading ({@link dev.ariadne.server.protocol.Wire#fork}).
	 * @param task the task
	 * @return whether it was taken
	 */
	protected abstract boolean fork(Runnable task);

	@Override
	protected void startThreads() {
		Watchdog.start(this.config, this.context.registry());
	}

	@Override
	protected final SocketWire connect(SocketChannel channel) throws IOException {
		return new SocketWire(this.context, channel, entry(), this.releaseConnection, pinsWorker(), this::fork,
				this.first);
	}

	/**
	 * Runs an exchange on the calling thread (the connection's), or, for a route pool, on a
	 * worker of that pool while the calling thread waits for it.
	 * @param routePool the route's pool, or {@code null}
	 * @param exchange the exchange
	 * @return {@code null}, or {@link RejectReason#POOL_FULL} when the route's pool is full
	 * @throws InterruptedException if interrupted while waiting
	 */
	protected static RejectReason runHereOrWait(TaskPool routePool, Runnable exchange) throws InterruptedException {
		if (routePool == null) {
			exchange.run();
			return null;
		}
		PoolCall call = new PoolCall(exchange);
		if (!routePool.execute(call)) {
			return RejectReason.POOL_FULL;
		}
		call.await();
		return null;
	}

	/** An exchange run on a route pool while the connection's thread waits for it. */
	private static final class PoolCall implements Runnable {

		private final Runnable exchange;

		private final CountDownLatch done = new CountDownLatch(1);

		private Throwable failure;

		PoolCall(Runnable exchange) {
			this.exchange = exchange;
		}

		@Override
		public void run() {
			try {
				this.exchange.run();
			}
			catch (Throwable ex) {
				this.failure = ex;
			}
			finally {
				this.done.countDown();
			}
		}

		/** Waits for the exchange; rethrows on the connection's thread what escaped it. */
		void await() throws InterruptedException {
			this.done.await();
			if (this.failure instanceof RuntimeException failed) {
				throw failed;
			}
			if (this.failure instanceof Error error) {
				throw error;
			}
		}

	}

}
