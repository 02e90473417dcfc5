package dev.ariadne.server.transport;

import java.util.function.Predicate;

import dev.ariadne.server.connection.AsyncHost;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.protocol.HostedExchange;
import dev.ariadne.server.routing.Route;

/**
 * How the socket models run the work of a connection's suspended exchange: every task, the end
 * of the exchange and a non-blocking reader's or writer's callback is queued for the
 * connection's own thread, which waits while the exchange is suspended and runs each one
 * through the model's pool entry (a permit, or the route pool). For a non-blocking reader that
 * thread first reads, waiting, until the body has something ({@link HostedExchange#fetchBody}):
 * how these models emulate readiness.
 *
 * <p>Once the exchange switched protocols ({@link SocketTunnel}) that read may last as long as the
 * connection, so only the reader's callbacks, the tasks that thread gives itself and the end stay
 * with it (the end stops the read first): tasks from other threads go to the model's other
 * threads ({@code blocking}: a worker of the pool; {@code virtual-threads}: a virtual thread of
 * their own, with a permit), and writes never wait for the connection's thread.
 */
final class SocketHost implements AsyncHost {

	private final HostedExchange exchange;

	/** The connection's thread, which runs what it is handed in order. */
	private final SocketLoop loop;

	private final PoolEntry<InterruptedException> entry;

	private final SocketWriter writer;

	private final SocketTunnel tunnel;

	/** Runs a task on a thread of the model other than the connection's. */
	private final Predicate<Runnable> fork;

	SocketHost(HostedExchange exchange, SocketLoop loop, PoolEntry<InterruptedException> entry, SocketWriter writer,
			SocketTunnel tunnel, Predicate<Runnable> fork) {
		this.exchange = exchange;
		this.loop = loop;
		this.entry = entry;
		this.writer = writer;
		this.tunnel = tunnel;
		this.fork = fork;
	}

	@Override
	public boolean execute(TaskPool routePool, Runnable task) {
		Runnable run = () -> {
			if (!enter(routePool, task)) {
				this.exchange.taskRefused();
			}
		};
		if (!this.tunnel.on()) {
			this.loop.hand(run);
		}
		else if (this.loop.onThread()) {
			// before the connection's thread reads again
			this.loop.execute(run);
		}
		else {
			return this.fork.test(run);
		}
		return true;
	}

	@Override
	public void resume(TaskPool routePool) {
		String pool = (routePool != null) ? routePool.name() : Route.DEFAULT_POOL;
		Runnable end = () -> this.exchange.endSuspended(pool);
		this.loop.hand(() -> {
			if (!enter(routePool, end)) {
				// the end must run: on this thread, without the permit it could not have
				end.run();
			}
		});
		if (this.tunnel.on()) {
			this.tunnel.stopReading();
		}
	}

	@Override
	public void awaitReadable(TaskPool routePool, Runnable task) {
		this.loop.hand(() -> {
			this.exchange.fetchBody();
			if (!enter(routePool, task)) {
				this.exchange.taskRefused();
			}
		});
	}

	@Override
	public boolean writable(TaskPool routePool, Runnable task) {
		return this.writer.writable(() -> this.loop.hand(() -> {
			if (!enter(routePool, task)) {
				this.exchange.taskRefused();
			}
		}));
	}

	private boolean enter(TaskPool routePool, Runnable task) {
		try {
			return this.entry.enter(routePool, task) == null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
