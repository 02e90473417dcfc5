package dev.ariadne.server.transport;

import dev.ariadne.server.connection.AsyncHost;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.protocol.Http1Protocol;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RejectReason;

/**
 * How the socket models run the work of a connection's suspended exchange: every task, the end
 * of the exchange and a non-blocking reader's or writer's callback is queued for the
 * connection's own thread, which waits while the exchange is suspended and runs each one
 * through the model's pool entry (a permit, or the route pool). For a non-blocking reader that
 * thread first reads, waiting, until the body has something ({@link Http1Protocol#fetchBody}):
 * how these models emulate readiness.
 */
final class SocketHost implements AsyncHost {

	private final SocketWire wire;

	/** The connection's thread, which runs what it is handed in order. */
	private final SocketLoop loop;

	private final PoolEntry<InterruptedException> entry;

	/** The entry as the protocol calls it: an interrupt comes out unchecked, for the loop. */
	private final PoolEntry<RuntimeException> protocolEntry = this::enterForProtocol;

	private final SocketWriter writer;

	SocketHost(SocketWire wire, SocketLoop loop, PoolEntry<InterruptedException> entry, SocketWriter writer) {
		this.wire = wire;
		this.loop = loop;
		this.entry = entry;
		this.writer = writer;
	}

	@Override
	public boolean execute(TaskPool routePool, Runnable task) {
		this.loop.hand(() -> {
			if (!enter(routePool, task)) {
				this.wire.protocol().exchange().taskRefused();
			}
		});
		return true;
	}

	@Override
	public void resume(TaskPool routePool) {
		String pool = (routePool != null) ? routePool.name() : Route.DEFAULT_POOL;
		Runnable end = () -> this.wire.protocol().endSuspended(pool);
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
			this.wire.protocol().fetchBody();
			if (!enter(routePool, task)) {
				this.wire.protocol().exchange().taskRefused();
			}
		});
	}

	@Override
	public boolean writable(TaskPool routePool, Runnable task) {
		return this.writer.writable(() -> this.loop.hand(() -> {
			if (!enter(routePool, task)) {
				this.wire.protocol().exchange().taskRefused();
			}
		}));
	}

	/**
	 * Returns the model's pool entry as the protocol calls it, on the connection's thread: an
	 * interrupt while waiting for a turn comes out as an unchecked exception, which ends the
	 * thread's loop.
	 * @return the entry
	 */
	PoolEntry<RuntimeException> protocolEntry() {
		return this.protocolEntry;
	}

	private RejectReason enterForProtocol(TaskPool routePool, Runnable exchange) {
		try {
			return this.entry.enter(routePool, exchange);
		}
		catch (InterruptedException ex) {
			throw new SocketLoop.Interrupted(ex);
		}
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
