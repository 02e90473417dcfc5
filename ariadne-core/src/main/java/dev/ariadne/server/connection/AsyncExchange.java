package dev.ariadne.server.connection;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.pool.TaskPool;

/**
 * A suspended exchange, as the application holds it: when its end is asked for (complete or
 * abort) and when its handler returns, whichever is last, the model's {@link AsyncHost} runs
 * the end on a worker. If the end is asked for while the handler still runs, the handler's
 * thread ends the exchange itself, as if it had never been suspended.
 *
 * <p>Thread-safe: any thread but a selector may call it; the state is guarded by this object.
 */
final class AsyncExchange implements AsyncResponse {

	private static final Logger logger = System.getLogger(AsyncExchange.class.getName());

	private final AsyncHost host;

	private final TaskPool routePool;

	private final RequestBody body;

	private final ConnectionOutput out;

	/**
	 * Run when a non-blocking read would return something, guarded against its failure; set by
	 * the reader, once for every wait (the host may keep what it wraps around it).
	 */
	private volatile Runnable readListener;

	/** Run when the stream may be written again, guarded as the read listener; set by the writer. */
	private volatile Runnable writeListener;

	// ---- guarded by this

	private boolean handlerRunning = true;

	private boolean endRequested;

	private boolean ended;

	private Throwable failure;

	private boolean closed;

	private List<Runnable> closeListeners;

	AsyncExchange(AsyncHost host, TaskPool routePool, RequestBody body, ConnectionOutput out) {
		this.host = host;
		this.routePool = routePool;
		this.body = body;
		this.out = out;
	}

	/**
	 * The handler that suspended the exchange returned; on its thread.
	 * @param thrown what it threw, or {@code null}; it ends the exchange as an abort would
	 * @return whether the exchange stays suspended; if not, the calling thread ends it now
	 */
	synchronized boolean handlerReturned(Throwable thrown) {
		this.handlerRunning = false;
		if (thrown != null && !this.endRequested) {
			this.endRequested = true;
			this.failure = thrown;
		}
		if (this.endRequested) {
			this.ended = true;
			return false;
		}
		return true;
	}

	/**
	 * Returns whether the handler that suspended the exchange still runs.
	 * @return whether it has not returned yet
	 */
	synchronized boolean handlerRunning() {
		return this.handlerRunning;
	}

	/**
	 * Returns what the exchange was aborted with.
	 * @return the failure, or {@code null} for a completed exchange
	 */
	synchronized Throwable failure() {
		return this.failure;
	}

	@Override
	public void execute(Runnable task) {
		synchronized (this) {
			if (this.ended) {
				throw new IllegalStateException("The exchange has ended");
			}
		}
		if (!this.host.execute(this.routePool, () -> runTask(task))) {
			throw new IllegalStateException("The exchange's pool refused the task: its queue is full or the "
					+ "server is stopping");
		}
	}

	private void runTask(Runnable task) {
		try {
			task.run();
		}
		catch (Throwable ex) {
			abort(ex);
		}
	}

	@Override
	public void complete() {
		end(null);
	}

	@Override
	public void abort(Throwable failure) {
		end((failure != null) ? failure : new IllegalStateException("Aborted"));
	}

	private void end(Throwable failure) {
		synchronized (this) {
			if (this.endRequested) {
				return;
			}
			this.endRequested = true;
			this.failure = failure;
			if (this.handlerRunning) {
				return;
			}
			this.ended = true;
		}
		this.host.resume(this.routePool);
	}

	@Override
	public synchronized boolean ended() {
		return this.endRequested;
	}

	@Override
	public synchronized boolean closed() {
		return this.closed;
	}

	@Override
	public void onClose(Runnable listener) {
		synchronized (this) {
			if (!this.closed) {
				if (this.closeListeners == null) {
					this.closeListeners = new ArrayList<>(2);
				}
				this.closeListeners.add(listener);
				return;
			}
		}
		tell(listener);
	}

	/**
	 * The connection closed; any thread.
	 * @param here whether to run the close listeners on the calling thread (one that stops the
	 * server, whose pools may refuse them), or on a worker of the pool (a selector's call)
	 */
	void connectionClosed(boolean here) {
		List<Runnable> listeners;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			listeners = this.closeListeners;
			this.closeListeners = null;
		}
		if (listeners == null) {
			return;
		}
		for (Runnable listener : listeners) {
			if (here) {
				runTask(listener);
			}
			else {
				tell(listener);
			}
		}
	}

	private void tell(Runnable listener) {
		if (!this.host.execute(this.routePool, () -> runTask(listener))) {
			logger.log(Level.DEBUG, "A close listener of a suspended exchange was refused by its pool");
		}
	}

	// ---- non-blocking I/O

	@Override
	public int read(byte[] bytes, int offset, int length) throws IOException {
		return this.body.readNow(bytes, offset, length);
	}

	@Override
	public boolean readable() {
		Runnable listener = this.readListener;
		if (listener == null) {
			throw new IllegalStateException("No task to run when the body is readable: call onReadable first");
		}
		if (this.body.readableNow()) {
			return true;
		}
		this.host.awaitReadable(this.routePool, listener);
		return false;
	}

	@Override
	public void onReadable(Runnable task) {
		this.readListener = () -> runTask(task);
	}

	@Override
	public void onWritable(Runnable task) {
		this.writeListener = () -> runTask(task);
		this.out.nonBlocking(true);
	}

	@Override
	public boolean writable() {
		Runnable listener = this.writeListener;
		if (listener == null) {
			throw new IllegalStateException("No task to run when the stream is writable: call onWritable first");
		}
		return this.host.writable(this.routePool, listener);
	}

}
