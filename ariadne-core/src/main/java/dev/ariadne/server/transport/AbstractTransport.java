package dev.ariadne.server.transport;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.time.Duration;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionRegistry;
import dev.ariadne.server.connection.TrackedConnection;
import dev.ariadne.server.internal.Threads;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.pool.WorkerPool;
import dev.ariadne.server.stats.AcceptQueueProbe;
import dev.ariadne.server.stats.PoolStats;

/**
 * What the transports of every I/O model share: the acceptor and the shutdown sequence. A
 * model supplies how an accepted socket becomes one of its connections ({@link #connect}), how
 * that connection reaches a thread ({@link #serve}), its own threads, and the shutdown steps
 * that differ.
 *
 * <p>Start: bind the listening socket, start the model's threads, start accepting. Shutdown,
 * in every model:
 * <ol>
 * <li>mark the shutdown, so that every response from now on carries {@code Connection: close}
 * and connections close when they go idle;</li>
 * <li>stop accepting: close the listening socket and wait for the acceptor;</li>
 * <li>let the model refuse what waits for a thread, and close what is idle
 * ({@link #stopTaking()});</li>
 * <li>drain: close connections as they go idle until none is left or the grace period is over,
 * then abort the rest;</li>
 * <li>stop the route pools, then the model's threads ({@link #stopThreads()}).</li>
 * </ol>
 * An interrupt of the thread that shuts down cuts this short and interrupts the model's
 * threads ({@link #stopThreadsNow()}).
 *
 * @param <C> the model's connection
 * @param <P> the model's own pool: its workers, or what stands for them
 */
public abstract class AbstractTransport<C extends TrackedConnection, P extends PoolStats> implements Transport {

	private static final Logger logger = System.getLogger(AbstractTransport.class.getName());

	/** How often the drain looks for connections gone idle. */
	private static final long DRAIN_POLL_MILLIS = 10;

	/** How long a stopping pool's running tasks get to finish before they are interrupted. */
	private static final long TERMINATION_MILLIS = 1000;

	/** What the server's connections share. */
	protected final ConnectionContext context;

	/** The configuration. */
	protected final ServerConfig config;

	/** The model's own pool, named {@code default}. */
	protected final P pool;

	private final Acceptor<C> acceptor;

	/**
	 * Creates the shared part of a transport.
	 * @param context what the server's connections share
	 * @param pool the model's own pool, named {@code default}
	 */
	protected AbstractTransport(ConnectionContext context, P pool) {
		this.context = context;
		this.config = context.config();
		this.pool = pool;
		context.lowResources().defaultPool(pool);
		this.acceptor = new Acceptor<>(this.config, context.registry(), this);
	}

	/**
	 * Creates a model's worker pool, named {@code default}, from {@code threads.*}; its platform
	 * threads start on demand.
	 * @param config the configuration
	 * @return the pool
	 */
	protected static WorkerPool workerPool(ServerConfig config) {
		return new WorkerPool("default", config.minThreads(), config.maxThreads(), config.queueCapacity(),
				Threads.named("ariadne-" + config.name() + "-worker", true));
	}

	@Override
	public final PoolStats pool() {
		return this.pool;
	}

	@Override
	public final void start() throws IOException {
		this.acceptor.bind();
		startThreads();
		this.acceptor.start();
	}

	/**
	 * Starts the model's own threads, before the first connection is accepted.
	 * @throws IOException if they need a resource that cannot be had
	 */
	protected void startThreads() throws IOException {
	}

	/**
	 * Makes an accepted socket one of the model's connections, on the acceptor thread, after the
	 * setup every model shares (such as {@code TCP_NODELAY}). The acceptor then registers it, so
	 * it owns its permit from then on.
	 * @param channel the accepted socket, in blocking mode
	 * @return the connection, not yet registered
	 * @throws IOException if the socket cannot be set up; the acceptor closes it and gives the
	 * permit back
	 */
	protected abstract C connect(SocketChannel channel) throws IOException;

	/**
	 * Hands a registered connection to the thread that serves it. Runs on the acceptor thread and
	 * must not block; a connection that cannot be served is answered and closed here.
	 * @param connection the connection
	 */
	protected abstract void serve(C connection);

	@Override
	public final InetSocketAddress localAddress() {
		return this.acceptor.localAddress();
	}

	@Override
	public final AcceptQueueProbe acceptQueue() {
		return this.acceptor.acceptQueue();
	}

	@Override
	public final boolean shutdown(Duration gracePeriod) {
		ConnectionRegistry registry = this.context.registry();
		registry.beginShutdown();
		try {
			this.acceptor.stop();
			stopTaking();
			boolean drained = drain(registry, gracePeriod);
			this.context.routePools().shutdown();
			stopThreads();
			return drained;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			stopThreadsNow();
			return false;
		}
	}

	/**
	 * First step of a shutdown, once nothing is accepted any more: refuses what waits for a
	 * thread and closes idle connections the drain cannot close itself.
	 */
	protected void stopTaking() {
	}

	/**
	 * Last step of a shutdown, once the connections are gone or aborted: stops the model's
	 * threads, waiting briefly for them. By default, stops the model's pool if it runs tasks:
	 * its queued tasks never run, its running ones get a moment to finish and are interrupted
	 * after it.
	 * @throws InterruptedException if interrupted while waiting
	 */
	protected void stopThreads() throws InterruptedException {
		if (this.pool instanceof TaskPool tasks) {
			tasks.shutdownAndDrainQueue();
			if (!tasks.awaitTermination(TERMINATION_MILLIS)) {
				tasks.shutdownNow();
			}
		}
	}

	/**
	 * Stops the model's threads at once, interrupting them: the shutdown was interrupted. By
	 * default, stops the model's pool now if it runs tasks.
	 */
	protected void stopThreadsNow() {
		if (this.pool instanceof TaskPool tasks) {
			tasks.shutdownNow();
		}
	}

	/**
	 * Closes connections as they go idle until none is left or the grace period (or a forced
	 * close) ends, then aborts the rest. Connections that finish their exchange close
	 * themselves, since a shutdown makes every response carry {@code Connection: close}.
	 */
	private boolean drain(ConnectionRegistry registry, Duration gracePeriod) throws InterruptedException {
		long deadline = System.nanoTime() + gracePeriod.toNanos();
		while (!registry.closeIdle()) {
			if (registry.forced() || System.nanoTime() - deadline >= 0) {
				int aborted = registry.abortAll();
				if (aborted > 0) {
					logger.log(Level.WARNING, () -> "Grace period over; closing " + aborted + " connection(s) of '"
							+ this.config.name() + "' with exchanges still in progress");
				}
				return aborted == 0;
			}
			Thread.sleep(DRAIN_POLL_MILLIS);
		}
		return true;
	}

	@Override
	public void close() {
		this.acceptor.close();
	}

}
