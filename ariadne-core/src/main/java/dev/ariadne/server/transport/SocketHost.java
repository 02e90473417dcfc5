package dev.ariadne.server.transport;

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
 */
final class SocketHost implements AsyncHost {

	private final HostedExchange exchange;

	/** The connection's thread, which runs what it is handed in order. */
	private final SocketLoop loop;

	private final PoolEntry<InterruptedException> entry;

	private final SocketWriter writer;

	SocketHost(HostedExchange exchange, SocketLoop loop, PoolEntry<InterruptedException> entry, SocketWriter writer) {
		this.exchange = exchange;
		this.loop = loop;
		this.entry = entry;
		this.writer = writer;
	}

	@Override
	public boolean execute(TaskPool routePool, Runnable task) {
		this.loop.hand(() -> {
			if (!enter(routePool, task)) {
				this.exchange.taskRefused();
			}
		});
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
