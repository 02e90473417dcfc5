package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.nio.channels.SocketChannel;

import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.internal.Threads;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.pool.WorkerPool;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.transport.AbstractTransport;
import dev.ariadne.server.protocol.Protocol;

/**
 * The {@code event-loop} model: selector threads own every socket and hand only complete
 * requests to the worker pool, so an idle keep-alive connection costs no thread and no buffer.
 * The acceptor spreads connections over the selector loops in turn.
 */
public final class EventLoopTransport extends AbstractTransport<ChannelWire, WorkerPool> {

	private static final int INPUT_BUFFER = 16 * 1024;

	/** Most free input buffers a loop keeps for reuse, whatever the budget. */
	private static final int MAX_RETAINED = 256;

	/** The selector queues each request on its route's pool or on the workers, and goes on. */
	private final PoolEntry<RuntimeException> entry = this::enter;

	private final Protocol.Factory first;

	private SelectorLoop[] loops = new SelectorLoop[0];

	private Thread[] loopThreads = new Thread[0];

	/** The loop the next connection goes to; acceptor thread only. */
	private int next;

	/**
	 * Creates the transport.
	 * @param context what the server's connections share
	 * @param first makes each connection's first protocol
	 */
	public EventLoopTransport(ConnectionContext context, Protocol.Factory first) {
		super(context, workerPool(context.config()));
		this.first = first;
	}

	@Override
	protected void startThreads() throws IOException {
		int count = this.config.selectors();
		// the free buffers the loops keep stay counted in the budget: a quarter of it at most,
		// so that one loop's spare buffers never starve another loop's connections
		long share = this.config.bufferBudget() / 4 / count / INPUT_BUFFER;
		int retained = (int) Math.max(2, Math.min(MAX_RETAINED, share));
		this.loops = new SelectorLoop[count];
		this.loopThreads = new Thread[count];
		for (int i = 0; i < count; i++) {
			this.loops[i] = new SelectorLoop(INPUT_BUFFER, retained, this.context.budget(), this.context.registry());
			this.loopThreads[i] = Threads.named("ariadne-" + this.config.name() + "-selector-" + i, true)
				.newThread(this.loops[i]);
			this.loopThreads[i].start();
		}
	}

	@Override
	protected ChannelWire connect(SocketChannel channel) throws IOException {
		SelectorLoop loop = this.loops[this.next];
		this.next = (this.next + 1) % this.loops.length;
		channel.configureBlocking(false);
		return new ChannelWire(loop, channel, this.context, this.entry, this.first);
	}

	private RejectReason enter(TaskPool routePool, Runnable exchange) {
		if (routePool != null) {
			return routePool.execute(exchange) ? null : RejectReason.POOL_FULL;
		}
		return this.pool.execute(exchange) ? null : RejectReason.QUEUE_FULL;
	}

	@Override
	protected void serve(ChannelWire connection) {
		connection.loop().adopt(connection);
	}

	/** The loops close idle connections themselves: the drain cannot tell them from outside. */
	@Override
	protected void stopTaking() {
		for (SelectorLoop loop : this.loops) {
			loop.closeIdleConnections();
		}
	}

	@Override
	protected void stopThreads() throws InterruptedException {
		for (SelectorLoop loop : this.loops) {
			loop.stop();
		}
		for (Thread thread : this.loopThreads) {
			thread.join(1000);
		}
		super.stopThreads();
	}

	@Override
	public int borrowedBuffers() {
		int borrowed = 0;
		for (SelectorLoop loop : this.loops) {
			borrowed += loop.buffers().borrowed();
		}
		return borrowed;
	}

	@Override
	public void close() {
		super.close();
		for (SelectorLoop loop : this.loops) {
			if (loop != null) {
				loop.stop();
			}
		}
	}

}
