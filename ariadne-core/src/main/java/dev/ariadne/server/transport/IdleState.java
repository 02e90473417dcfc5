package dev.ariadne.server.transport;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether a connection served by one thread waits, idle, for its next request, and since when.
 * Its thread enters the state before the read that waits and leaves it after; the
 * {@link Watchdog} (past the idle deadline) and a shutdown close an idle connection from their
 * own threads, and an abort closes it whatever it does. One atomic state orders them: a
 * connection that has left the idle state is not closed as an idle one, and one closed stays
 * closed.
 */
final class IdleState {

	private static final int ACTIVE = 0;

	private static final int IDLE = 1;

	private static final int CLOSED = 2;

	private final AtomicInteger state = new AtomicInteger(ACTIVE);

	/** When the connection, idle now or next, is closed for its idle time ({@link System#nanoTime()}). */
	private volatile long deadline;

	/** The idle time that {@link #deadline} allows; written just before it. */
	private long timeout;

	/**
	 * Whether the connection's own thread ends its idle time (for a protocol that says goodbye
	 * first): the watchdog then closes it only {@link #BACKSTOP_NANOS} after its deadline, and a
	 * shutdown leaves it to its thread.
	 */
	private volatile boolean ownTimer;

	/** How long after its deadline the watchdog closes a connection whose thread did not. */
	static final long BACKSTOP_NANOS = 2_000_000_000L;

	/**
	 * Sets how long the connection may be idle next; the connection's thread, before
	 * {@link #enter()}.
	 * @param timeoutNanos the idle time allowed from now
	 * @param ownTimer whether the connection's thread ends the idle time itself
	 */
	void allow(long timeoutNanos, boolean ownTimer) {
		this.timeout = timeoutNanos;
		this.ownTimer = ownTimer;
		this.deadline = System.nanoTime() + timeoutNanos;
	}

	/**
	 * Returns when the connection, idle now or next, is closed for its idle time.
	 * @return the {@link System#nanoTime()} of the deadline
	 */
	long deadline() {
		return this.deadline;
	}

	/**
	 * Returns whether the connection's own thread ends its idle time.
	 * @return whether it does
	 */
	boolean ownTimer() {
		return this.ownTimer;
	}

	/**
	 * Enters the idle state; the connection's thread.
	 * @return whether it did; {@code false} when the connection was closed
	 */
	boolean enter() {
		return this.state.compareAndSet(ACTIVE, IDLE);
	}

	/** Leaves the idle state, unless the connection was closed meanwhile; the connection's thread. */
	void leave() {
		this.state.compareAndSet(IDLE, ACTIVE);
	}

	/**
	 * Returns whether the connection was closed.
	 * @return whether closed
	 */
	boolean closed() {
		return this.state.get() == CLOSED;
	}

	/**
	 * Returns whether the connection is idle past its deadline.
	 * @param now the time
	 * @return whether it may be closed for its idle time
	 */
	boolean expired(long now) {
		long backstop = this.ownTimer ? BACKSTOP_NANOS : 0;
		return this.state.get() == IDLE && now - this.deadline - backstop >= 0;
	}

	/**
	 * Returns since when the connection has been idle.
	 * @return the {@link System#nanoTime()} it went idle (never 0), or 0 when it is not idle
	 */
	long since() {
		if (this.state.get() != IDLE) {
			return 0;
		}
		// the deadline is read first: the timeout written before it is then the one it used
		long since = this.deadline - this.timeout;
		return (since != 0) ? since : 1;
	}

	/**
	 * Marks an idle connection closed; any thread.
	 * @return whether it was idle, and is closed now
	 */
	boolean closeIfIdle() {
		return this.state.compareAndSet(IDLE, CLOSED);
	}

	/** Marks the connection closed, whatever it does; any thread. */
	void close() {
		this.state.set(CLOSED);
	}

}
