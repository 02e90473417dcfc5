package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.ServerContext;
import dev.ariadne.server.connection.Transport;
import dev.ariadne.server.internal.Threads;
import dev.ariadne.server.pool.WorkerPool;
import dev.ariadne.server.stats.AcceptQueueProbe;

/**
 * The {@code event-loop} model: selector threads own every socket and hand only complete
 * requests to the worker pool, so an idle keep-alive connection costs no thread and no buffer.
 * An acceptor thread takes a connection permit before each accept and spreads connections over
 * the selector loops in turn.
 */
public final class EventLoopTransport implements Transport {

	private static final Logger logger = System.getLogger(EventLoopTransport.class.getName());

	private static final int INPUT_BUFFER = 16 * 1024;

	private final ServerContext context;

	private final ServerConfig config;

	private ServerSocketChannel serverChannel;

	private WorkerPool pool;

	private SelectorLoop[] loops = new SelectorLoop[0];

	private Thread[] loopThreads = new Thread[0];

	private Thread acceptor;

	private volatile boolean running;

	/**
	 * Creates the transport.
	 * @param context the server's shared state
	 */
	public EventLoopTransport(ServerContext context) {
		this.context = context;
		this.config = context.config();
	}

	@Override
	public void start() throws IOException {
		this.serverChannel = ServerSocketChannel.open();
		this.serverChannel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
		this.serverChannel.bind(new InetSocketAddress(this.config.address(), this.config.port()),
				this.config.acceptBacklog());
		String name = this.config.name();
		this.pool = new WorkerPool("default", this.config.minThreads(), this.config.maxThreads(),
				this.config.queueCapacity(), Threads.named("ariadne-" + name + "-worker", true));
		this.context.defaultPool(this.pool);
		this.context.acceptQueue(new AcceptQueueProbe(localAddress(), this.config.acceptBacklog()));
		int count = this.config.selectors();
		this.loops = new SelectorLoop[count];
		this.loopThreads = new Thread[count];
		for (int i = 0; i < count; i++) {
			this.loops[i] = new SelectorLoop(INPUT_BUFFER);
			this.loopThreads[i] = Threads.named("ariadne-" + name + "-selector-" + i, true).newThread(this.loops[i]);
			this.loopThreads[i].start();
		}
		this.running = true;
		this.acceptor = Threads.named("ariadne-" + name + "-acceptor", false).newThread(this::acceptLoop);
		this.acceptor.start();
	}

	private void acceptLoop() {
		int next = 0;
		while (this.running) {
			try {
				if (!this.context.acquirePermit(100)) {
					continue;
				}
			}
			catch (InterruptedException ex) {
				break;
			}
			SocketChannel channel;
			try {
				channel = this.serverChannel.accept();
			}
			catch (IOException ex) {
				this.context.releasePermit();
				if (this.running) {
					logger.log(Level.WARNING, "Accept failed", ex);
				}
				continue;
			}
			SelectorLoop loop = this.loops[next];
			next = (next + 1) % this.loops.length;
			try {
				channel.configureBlocking(false);
				channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
				EventLoopConnection connection = new EventLoopConnection(loop, channel, this.context, this.pool);
				this.context.opened(connection);
				loop.adopt(connection);
			}
			catch (IOException ex) {
				this.context.releasePermit();
				try {
					channel.close();
				}
				catch (IOException ignored) {
					// already failing
				}
			}
		}
	}

	@Override
	public InetSocketAddress localAddress() {
		try {
			ServerSocketChannel channel = this.serverChannel;
			return (channel != null && channel.isOpen()) ? (InetSocketAddress) channel.getLocalAddress() : null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	@Override
	public boolean shutdown(Duration gracePeriod) {
		this.context.beginShutdown();
		this.running = false;
		close();
		try {
			this.acceptor.join(1000);
			for (SelectorLoop loop : this.loops) {
				loop.closeIdleConnections();
			}
			boolean drained = this.context.drainConnections(gracePeriod.toMillis());
			this.context.shutdownRoutePools();
			for (SelectorLoop loop : this.loops) {
				loop.stop();
			}
			for (Thread thread : this.loopThreads) {
				thread.join(1000);
			}
			this.pool.shutdownAndDrainQueue();
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
	public int borrowedBuffers() {
		int borrowed = 0;
		for (SelectorLoop loop : this.loops) {
			borrowed += loop.buffers().borrowed();
		}
		return borrowed;
	}

	@Override
	public void close() {
		try {
			if (this.serverChannel != null) {
				this.serverChannel.close();
			}
		}
		catch (IOException ex) {
			logger.log(Level.DEBUG, "Closing the listening socket failed", ex);
		}
	}

}
