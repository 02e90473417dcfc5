package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.util.concurrent.locks.LockSupport;

import dev.ariadne.server.protocol.HostedExchange;
import dev.ariadne.server.protocol.Wire;

/**
 * How the thread that holds a dispatched event-loop connection reads it: the socket itself, and
 * when it has nothing, through a demand on the selector, which otherwise reads nothing of a
 * connection a worker has. A worker that waits parks until the selector tells it that input
 * arrived or the connection closed, within its own deadline ({@link #read}); a non-blocking
 * reader leaves a callback instead ({@link #demand}), which the selector also runs once the
 * body's limits run out ({@link #checkTimeout}). Either way the reading thread then reads the
 * socket itself.
 *
 * <p>Thread ownership: {@link #read} and {@link #demand} by the thread reading the body, which
 * leaves the demand; the selector reads and clears it. While the selector still watches the
 * socket for the connection (it fired the last demand and input has not come since, as in a
 * WebSocket echo), a demand needs no selector task and no wake-up: the selector finds it at the
 * next readiness. Otherwise a selector task turns read interest on. The demanding thread writes
 * the demand then reads {@link #watching}; the selector clears {@code watching} then reads the
 * demand before it drops read interest, so that one of them always sees the other.
 */
final class InputDemand {

	private final SelectorLoop loop;

	/** The socket, or TLS over it. */
	private final ByteChannel io;

	/**
	 * The connection, called back on the selector thread to turn read interest on, to give back
	 * an idle reader's empty input buffer, and to tell whether it is closed: one reference rather
	 * than a callback object each, for every connection held.
	 */
	private final ChannelWire wire;

	/** Signals the worker waiting for input; created once, handed to the selector per wait. */
	private final Runnable wake = this::wake;

	/** The selector task of a demand the selector does not watch for yet; created once. */
	private final Runnable watchTask = this::watch;

	/** The selector task that parks the input of a reader that waits; created once. */
	private final Runnable parkTask = this::park;

	private volatile Thread waiting;

	private volatile boolean signalled;

	/**
	 * What to tell once input arrives, for a thread waiting for more of a body; or {@code null}.
	 * Set by the demanding thread, cleared by the selector.
	 */
	private volatile Runnable demand;

	/**
	 * Whether the key has read interest for a demand, so that the selector tells a demand left
	 * now at the next readiness. Written by the selector only.
	 */
	private volatile boolean watching;

	// ---- written by the demanding thread before the demand, read by the selector after it

	/** The exchange of a non-blocking reader that demands, or {@code null}. */
	private HostedExchange reader;

	/**
	 * When a non-blocking reader of a body gives up waiting for more, by the body's clock; 0 when
	 * the waiting thread keeps its own time.
	 */
	private long deadline;

	InputDemand(SelectorLoop loop, ByteChannel io, ChannelWire wire) {
		this.loop = loop;
		this.io = io;
		this.wire = wire;
	}

	/**
	 * Reads what the socket has into a buffer, after what it holds, as {@link Wire#read} does:
	 * waiting, if asked, for the selector's signal between reads; a worker's, never the
	 * selector's.
	 * @param in the buffer, in read mode
	 * @param until 0 to read only what is there now; {@link Long#MAX_VALUE} to wait without a
	 * deadline; else the {@link System#nanoTime()} until which to wait for bytes
	 * @return the bytes read; 0 when none came; -1 at the end of the stream
	 * @throws IOException if reading failed, or the thread was interrupted while it waited
	 */
	int read(ByteBuffer in, long until) throws IOException {
		while (true) {
			int read = readHeld(in);
			if (read != 0 || until == 0 || !await(until)) {
				return read;
			}
		}
	}

	/** Reads what the socket has into the buffer, after what is left in it. */
	private int readHeld(ByteBuffer in) throws IOException {
		in.compact();
		try {
			return this.io.read(in);
		}
		finally {
			in.flip();
		}
	}

	/**
	 * Waits for the selector's signal that input arrived (or the connection closed), at most
	 * until a deadline.
	 * @return whether signalled; {@code false} at the deadline
	 */
	private boolean await(long until) throws IOException {
		this.signalled = false;
		this.waiting = Thread.currentThread();
		// the worker keeps its own time: the selector only tells it when input arrives
		demand(this.wake, 0, null);
		try {
			while (!this.signalled) {
				if (until == Long.MAX_VALUE) {
					// no deadline: a connection that switched protocols keeps its own time
					LockSupport.park(this);
				}
				else {
					long left = until - System.nanoTime();
					if (left <= 0) {
						return false;
					}
					LockSupport.parkNanos(this, left);
				}
				if (Thread.currentThread().isInterrupted()) {
					throw new IOException("Interrupted while waiting for the request body");
				}
			}
			return true;
		}
		finally {
			this.waiting = null;
		}
	}

	/** The selector saw input, or the connection closed; any thread. */
	private void wake() {
		this.signalled = true;
		Thread thread = this.waiting;
		if (thread != null) {
			LockSupport.unpark(thread);
		}
	}

	/**
	 * Asks the selector to tell the thread reading the body once input arrives (or the
	 * connection closes). Any thread but the selector, while the exchange holds the connection,
	 * one demand at a time: the next only after the last was told.
	 * @param wake what to run on the selector thread; it must not block
	 * @param deadline when to give up, by the body's clock, for a non-blocking reader; 0 for a
	 * thread that waits and keeps its own time
	 * @param reader the exchange of a non-blocking reader, told when its deadline passes; or
	 * {@code null} for a thread that waits
	 */
	void demand(Runnable wake, long deadline, HostedExchange reader) {
		this.deadline = deadline;
		this.reader = reader;
		this.demand = wake;
		if (this.watching) {
			// the selector finds the demand at the next readiness; the idle input buffer goes
			// back at its next pass, which input or the tick brings, without a wake-up
			this.loop.later(this.parkTask);
			return;
		}
		this.loop.execute(this.watchTask);
	}

	/** Turns read interest on for a demand left while the selector did not watch; selector thread. */
	private void watch() {
		if (this.wire.isClosed()) {
			fire();
			return;
		}
		this.wire.watchReadable();
		this.watching = true;
		park();
	}

	/** Gives back the input buffer of a reader that still waits; selector thread. */
	private void park() {
		if (this.demand != null) {
			this.wire.protocol().parkIdleInput();
		}
	}

	/**
	 * The socket is readable while nobody demands: unless a demand came meanwhile, the selector
	 * is to stop watching. Selector thread.
	 * @return whether to drop read interest; {@code false} when a demand is there to tell
	 */
	boolean unwatched() {
		this.watching = false;
		if (this.demand == null) {
			return true;
		}
		this.watching = true;
		return false;
	}

	/**
	 * The key's read interest went off, or the connection leaves the phase in which a worker
	 * reads it: the next demand turns it on again. Selector thread.
	 */
	void unwatch() {
		this.watching = false;
	}

	/**
	 * Returns whether a thread waits to be told of input; selector thread.
	 * @return whether a demand is pending
	 */
	boolean pending() {
		return this.demand != null;
	}

	/**
	 * Input arrived, or the connection closed: tells the thread that asked, if one did; selector
	 * thread.
	 * @return whether a demand was told
	 */
	boolean fire() {
		Runnable demand = this.demand;
		if (demand == null) {
			return false;
		}
		this.demand = null;
		this.reader = null;
		demand.run();
		return true;
	}

	/**
	 * Input arrived: tells the thread that asked, and the key keeps its read interest, so that
	 * its next demand needs no wake-up; selector thread.
	 */
	void fireWatched() {
		this.watching = true;
		fire();
	}

	/** The connection closed: tells the thread that asked, and any demand from now on at once. */
	void closed() {
		this.watching = false;
		fire();
	}

	/**
	 * Returns whether a non-blocking reader's deadline passed: a cheap test, without side
	 * effects.
	 * @param now the time
	 * @return whether {@link #checkTimeout} has something to do
	 */
	boolean isDue(long now) {
		return this.demand != null && this.deadline != 0 && now - this.deadline >= 0;
	}

	/**
	 * Tells a non-blocking reader of a body that waited for more past its deadline, unless bytes
	 * came meanwhile and it waits again; selector thread.
	 * @param now the time
	 */
	void checkTimeout(long now) {
		if (!isDue(now)) {
			return;
		}
		if (!this.reader.nonBlockingReadExpired(now)) {
			// bytes came in the meantime and the reader waits again: its new deadline holds
			this.deadline = this.reader.nonBlockingReadDeadline();
			return;
		}
		fire();
	}

}
