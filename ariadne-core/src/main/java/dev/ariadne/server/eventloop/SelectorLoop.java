package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import dev.ariadne.server.RateLimitedLogger;
import dev.ariadne.server.connection.ConnectionRegistry;
import dev.ariadne.server.internal.Backoff;
import dev.ariadne.server.internal.BufferBudget;
import dev.ariadne.server.internal.BufferPool;
import dev.ariadne.server.protocol.Protocol;

/**
 * One selector thread: waits for readiness, runs its connections' I/O callbacks, runs tasks
 * submitted by other threads, and enforces timeouts. Never blocks except in
 * {@link Selector#select}, never runs a handler.
 *
 * <p>Only this thread touches its selection keys. Other threads submit a task with
 * {@link #execute}, which wakes the selector only when it is blocked in {@code select}.
 *
 * <p>Nothing ends the loop but {@link #stop()}: a connection callback that fails, with an
 * exception or an {@link Error} (out of memory), closes that connection; a task that fails is
 * dropped; a failure of the loop's own work (select, the timeouts) is followed by a pause that
 * grows with each failure in a row (10 ms to 1 s), so that the loop does not spin while memory
 * is short. Errors are counted ({@link ConnectionRegistry#fatalError()}) and every failure is
 * logged, rate-limited.
 */
final class SelectorLoop implements Runnable {

	private static final Logger logger = System.getLogger(SelectorLoop.class.getName());

	private static final RateLimitedLogger callbackFailures = RateLimitedLogger.of(logger,
			"Connection callback failed");

	private static final RateLimitedLogger taskFailures = RateLimitedLogger.of(logger, "Selector task failed");

	private static final RateLimitedLogger loopFailures = RateLimitedLogger.of(logger, Level.ERROR,
			"Selector loop failed", RateLimitedLogger.DEFAULT_INTERVAL);

	private static final long TICK_MILLIS = 200;

	private final Selector selector;

	private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();

	/** True while the loop is in, or about to enter, select(). */
	private final AtomicBoolean selecting = new AtomicBoolean();

	private final Set<ChannelWire> connections = new HashSet<>();

	/** Connections whose deadline passed in the current tick (reused, this thread only). */
	private final List<ChannelWire> due = new ArrayList<>();

	private final BufferPool buffers;

	private final BufferBudget budget;

	/** Connections that stopped reading because no input buffer fitted the budget, oldest first. */
	private final ArrayDeque<ChannelWire> starved = new ArrayDeque<>();

	/** Feeds the starved connections on this thread; handed to the budget, created once. */
	private final Runnable feed = () -> execute(this::feedStarved);

	private final ConnectionRegistry registry;

	/** Pauses after failures of the loop's own work in a row; this thread only. */
	private final Backoff backoff = new Backoff(10, 1000);

	private volatile Thread thread;

	private final ByteBuffer scratch = ByteBuffer.allocate(8192);

	/** Created once: a method reference passed per select() would be a new object each time. */
	private final Consumer<SelectionKey> onSelected = this::onSelected;

	/**
	 * {@link System#nanoTime()} when the current pass of the loop (its tasks, or the callbacks
	 * of one select) first asked for the time: the time of every callback and task of that
	 * pass, for their deadlines and for request start times (when the bytes were there to
	 * read). This thread only. A pass takes microseconds to a few milliseconds, and reads the
	 * clock once instead of several times per request.
	 */
	private long now = System.nanoTime();

	/** Whether {@link #now} is to be read again: set at the start of each pass. */
	private boolean clockStale;

	private volatile boolean running = true;

	private volatile boolean closeIdle;

	SelectorLoop(int bufferSize, int maxRetained, BufferBudget budget, ConnectionRegistry registry) throws IOException {
		this.selector = Selector.open();
		this.buffers = new BufferPool(bufferSize, maxRetained, budget);
		this.budget = budget;
		this.registry = registry;
	}

	Selector selector() {
		return this.selector;
	}

	BufferPool buffers() {
		return this.buffers;
	}

	/**
	 * Gives an input buffer back to the pool, where a connection waiting for one finds it;
	 * selector thread.
	 * @param buffer the buffer
	 */
	void releaseBuffer(ByteBuffer buffer) {
		this.buffers.release(buffer);
		if (!this.starved.isEmpty()) {
			execute(this::feedStarved);
		}
	}

	/**
	 * Parks a connection that found no input buffer within the budget, until one is released
	 * here or elsewhere; selector thread. The connection has stopped reading: its client waits
	 * in its TCP window.
	 * @param connection the connection
	 */
	void awaitBuffer(ChannelWire connection) {
		boolean first = this.starved.isEmpty();
		this.starved.addLast(connection);
		if (first) {
			this.budget.whenReleased(this.buffers.bufferSize(), this.feed);
		}
	}

	/** Gives released buffers to the connections waiting for one, oldest first. */
	private void feedStarved() {
		ChannelWire connection;
		while ((connection = this.starved.peekFirst()) != null) {
			if (!connection.resumeReading()) {
				this.budget.whenReleased(this.buffers.bufferSize(), this.feed);
				return;
			}
			this.starved.pollFirst();
		}
	}

	/**
	 * Reads and drops what a socket has to read, into this loop's scratch buffer; selector
	 * thread.
	 * @param channel the socket
	 * @return {@code false} at the end of the stream
	 * @throws IOException if the read failed
	 */
	boolean discardInput(SocketChannel channel) throws IOException {
		while (true) {
			this.scratch.clear();
			int read = channel.read(this.scratch);
			if (read <= 0) {
				return read == 0;
			}
		}
	}

	/**
	 * Returns the loop's clock: {@link System#nanoTime()} as read once in the current pass of
	 * the loop. Selector thread only.
	 * @return the time in nanoseconds
	 */
	long now() {
		if (this.clockStale) {
			this.clockStale = false;
			this.now = System.nanoTime();
		}
		return this.now;
	}

	/**
	 * Runs a task on this loop's thread, soon. Any thread.
	 * @param task the task; it must not block
	 */
	void execute(Runnable task) {
		this.tasks.add(task);
		if (this.selecting.compareAndSet(true, false)) {
			this.selector.wakeup();
		}
	}

	/**
	 * Runs a task on this loop's thread at its next pass, without waking it: for work that may
	 * wait for the next readiness or the next tick ({@value #TICK_MILLIS} ms). Any thread.
	 * @param task the task; it must not block
	 */
	void later(Runnable task) {
		this.tasks.add(task);
	}

	/** Adopts a newly accepted connection. Any thread. */
	void adopt(ChannelWire connection) {
		execute(() -> {
			if (!this.running) {
				connection.close();
				return;
			}
			this.connections.add(connection);
			connection.register();
		});
	}

	void forget(ChannelWire connection) {
		this.connections.remove(connection);
		if (!this.starved.isEmpty()) {
			this.starved.remove(connection);
		}
	}

	/** From now on, idle connections are closed (graceful shutdown). Any thread. */
	void closeIdleConnections() {
		this.closeIdle = true;
		execute(this::closeIdleNow);
	}

	private void closeIdleNow() {
		for (ChannelWire connection : new ArrayList<>(this.connections)) {
			Protocol protocol = connection.protocol();
			if (protocol.isIdle()) {
				protocol.goAway();
				connection.close();
			}
			else if (protocol.saysGoodbye()) {
				// HTTP/2: the streams under way finish, and the client opens no more
				protocol.goAway();
			}
		}
	}

	/** Stops the loop after closing whatever connection is left. Any thread. */
	void stop() {
		this.running = false;
		this.selector.wakeup();
		Thread thread = this.thread;
		if (thread != null) {
			// it may be pausing after a failure
			LockSupport.unpark(thread);
		}
	}

	@Override
	public void run() {
		this.thread = Thread.currentThread();
		long nextTick = System.nanoTime() + TICK_MILLIS * 1_000_000;
		try {
			while (this.running) {
				try {
					nextTick = runOnce(nextTick);
					this.backoff.reset();
				}
				catch (Throwable ex) {
					survive(ex);
				}
			}
		}
		finally {
			runTasks();
			for (ChannelWire connection : new ArrayList<>(this.connections)) {
				connection.close();
			}
			try {
				this.selector.close();
			}
			catch (IOException ex) {
				logger.log(Level.DEBUG, "Closing the selector failed", ex);
			}
			this.buffers.clear();
		}
	}

	/**
	 * One pass of the loop: the submitted tasks, one select and its callbacks, and the timeouts
	 * when they are due.
	 * @return when the timeouts are due next
	 */
	private long runOnce(long nextTick) throws IOException {
		this.clockStale = true;
		runTasks();
		this.selecting.set(true);
		if (!this.tasks.isEmpty()) {
			this.selecting.set(false);
			return nextTick;
		}
		this.clockStale = true;
		this.selector.select(this.onSelected, TICK_MILLIS);
		this.selecting.set(false);
		long now = now();
		if (now - nextTick >= 0) {
			tick(now);
			return now + TICK_MILLIS * 1_000_000;
		}
		return nextTick;
	}

	/**
	 * The loop's own work failed: counts an {@link Error}, pauses (which needs no memory), then
	 * logs, and the loop carries on.
	 */
	private void survive(Throwable failure) {
		this.selecting.set(false);
		if (failure instanceof Error) {
			this.registry.fatalError();
		}
		long deadline = System.nanoTime() + this.backoff.next();
		long left;
		while (this.running && (left = deadline - System.nanoTime()) > 0) {
			LockSupport.parkNanos(this, left);
		}
		try {
			loopFailures.log("Selector loop failed; carrying on", failure);
		}
		catch (Throwable ex) {
			// still short of memory: the count says it happened
		}
	}

	private void onSelected(SelectionKey key) {
		ChannelWire connection = (ChannelWire) key.attachment();
		try {
			connection.onSelected(key);
		}
		catch (Throwable ex) {
			failed(key, connection, ex);
		}
	}

	/** A connection's callback failed: the connection is closed, and the loop goes on. */
	private void failed(SelectionKey key, ChannelWire connection, Throwable failure) {
		if (failure instanceof Error) {
			this.registry.fatalError();
		}
		try {
			connection.close();
		}
		catch (Throwable ex) {
			// closing failed too (out of memory): at least stop selecting it
			key.cancel();
		}
		callbackFailures.log("Connection callback failed; closed the connection", failure);
	}

	/**
	 * A worker failed with one of this loop's connections outside any handler (the exchange
	 * handles the handler's failures): counts an {@link Error}, logs, and runs the connection's
	 * clean-up on this loop. Any thread.
	 * @param failure what the worker caught
	 * @param cleanUp closes the connection; runs on this loop
	 */
	void workerFailed(Throwable failure, Runnable cleanUp) {
		if (failure instanceof Error) {
			this.registry.fatalError();
		}
		execute(cleanUp);
		callbackFailures.log("Exchange failed on a worker; closed the connection", failure);
	}

	private void runTasks() {
		Runnable task;
		while ((task = this.tasks.poll()) != null) {
			try {
				task.run();
			}
			catch (Throwable ex) {
				if (ex instanceof Error) {
					this.registry.fatalError();
				}
				taskFailures.log("Selector task failed", ex);
			}
		}
	}

	/**
	 * Enforces deadlines. Runs every {@value #TICK_MILLIS} ms on this thread over every
	 * connection, so the pass itself must stay cheap with ten thousand idle ones: a test per
	 * connection, and work only for the few that are due.
	 */
	private void tick(long now) {
		if (this.closeIdle) {
			closeIdleNow();
		}
		for (ChannelWire connection : this.connections) {
			if (connection.isDue(now)) {
				this.due.add(connection);
			}
		}
		for (ChannelWire connection : this.due) {
			connection.checkTimeout(now);
		}
		this.due.clear();
	}

}
