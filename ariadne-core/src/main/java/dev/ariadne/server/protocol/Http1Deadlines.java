package dev.ariadne.server.protocol;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.BodyClock;
import dev.ariadne.server.routing.Route;

/**
 * What an HTTP/1.1 connection waits for while it reads, and until when: the next request, idle
 * (the header timeout before the first, then the keep-alive timeout); the rest of a head (the
 * header timeout from its first byte, and while the wire's thread is a worker of a starved pool,
 * the stall timeout); or the rest of a body read before its dispatch (its {@link BodyClock}).
 * It counts the connection as idle for the wire, and tells the protocol what a passed deadline
 * asks for. The wire's own thread only.
 */
final class Http1Deadlines {

	/** What a passed deadline asks for. */
	enum Due {

		/** Nothing yet. */
		NONE(null, false),

		/** A close: the connection stayed idle too long, or its first request never began. */
		CLOSE(null, false),

		/** 408: the head did not arrive within the header timeout. */
		HEAD_TIMEOUT(Answers.HEAD_TIMEOUT, false),

		/** 408: the head kept a worker of a starved pool waiting longer than the stall timeout. */
		HEAD_STALLED(Answers.STALLED, true);

		private final String reason;

		private final boolean lowResources;

		Due(String reason, boolean lowResources) {
			this.reason = reason;
			this.lowResources = lowResources;
		}

		/**
		 * Returns the reason of the 408.
		 * @return the reason, for a head cut off
		 */
		String reason() {
			return this.reason;
		}

		/**
		 * Returns whether the low-resources mode cut the head off.
		 * @return whether the stall timeout ended it
		 */
		boolean lowResources() {
			return this.lowResources;
		}

	}

	private final Wire wire;

	private final BodyClock clock;

	private final long headerTimeoutNanos;

	private final long keepAliveTimeoutNanos;

	private boolean idle;

	private long deadline;

	/**
	 * Whether the request whose head was read waits for the rest of its body on the wire's
	 * thread, before it is dispatched.
	 */
	private boolean bodyAhead;

	Http1Deadlines(Wire wire, ServerConfig config, BodyClock clock) {
		this.wire = wire;
		this.clock = clock;
		this.headerTimeoutNanos = config.headerTimeout().toNanos();
		this.keepAliveTimeoutNanos = config.keepAliveTimeout().toNanos();
	}

	/**
	 * The connection is registered: idle until its first bytes, within a deadline.
	 * @param deadline the {@link System#nanoTime()} by which the first request must begin
	 */
	void start(long deadline) {
		idle(true);
		this.deadline = deadline;
	}

	/** A head is to arrive within the header timeout from now. */
	void awaitHead() {
		this.deadline = this.wire.now() + this.headerTimeoutNanos;
	}

	/** The connection waits for its next request, idle, within the keep-alive timeout. */
	void awaitRequest() {
		idle(true);
		this.deadline = this.wire.now() + this.keepAliveTimeoutNanos;
	}

	/**
	 * Bytes arrived while the connection reads: an idle connection's request has begun, or a
	 * body read before its dispatch has more.
	 * @param read how many
	 */
	void input(int read) {
		if (this.idle) {
			idle(false);
			awaitHead();
		}
		else if (this.bodyAhead) {
			this.clock.endWait(this.wire.now(), read);
		}
	}

	/** The connection is no longer idle: it is answered, or closed. */
	void active() {
		idle(false);
	}

	private void idle(boolean idle) {
		if (this.idle != idle) {
			this.idle = idle;
			this.wire.idle(idle);
		}
	}

	/**
	 * Returns whether the connection is between two requests.
	 * @return whether idle
	 */
	boolean isIdle() {
		return this.idle;
	}

	// ---- a body read before its dispatch

	/**
	 * Returns whether the request whose head was read waits for the rest of its body.
	 * @return whether a body is read before its dispatch
	 */
	boolean bodyAhead() {
		return this.bodyAhead;
	}

	/** The rest of the body is awaited before the request is dispatched: a wait begins. */
	void awaitBody() {
		this.bodyAhead = true;
		this.clock.startWait(this.wire.now());
	}

	/** The body read before its dispatch is there: the request goes to its pool now. */
	void bodyRead() {
		if (this.bodyAhead) {
			this.bodyAhead = false;
			this.clock.endWait(this.wire.now(), 0);
		}
	}

	/**
	 * The wire waits for a buffer of the budget: a body's clock stops meanwhile, since the
	 * server does not ask for its bytes.
	 */
	void awaitingBuffer() {
		if (this.bodyAhead) {
			this.clock.endWait(this.wire.now(), 0);
		}
	}

	/** The wire has a buffer again: a body's clock runs again. */
	void bufferBorrowed() {
		if (this.bodyAhead) {
			this.clock.startWait(this.wire.now());
		}
	}

	/**
	 * Returns whether the body read before its dispatch kept the server waiting too long; it
	 * holds a worker only where the wire's thread is one.
	 * @param now the time
	 * @return what ended it, or {@link BodyClock.Expiry#NONE}
	 */
	BodyClock.Expiry bodyExpiry(long now) {
		long stall = this.wire.pinsWorker() ? this.wire.stallNanos(Route.DEFAULT_POOL, false) : Long.MAX_VALUE;
		return this.clock.expiry(now, stall);
	}

	// ---- deadlines

	/**
	 * Returns when the reading of the current head, or of a body read before its dispatch, must
	 * end.
	 * @return the {@link System#nanoTime()} of the deadline
	 */
	long readDeadline() {
		return this.bodyAhead ? this.clock.deadline() : this.deadline;
	}

	/**
	 * Returns whether a deadline passed: a cheap test, without side effects.
	 * @param now the time
	 * @return whether {@link #due} or {@link #bodyExpiry} may have something to say
	 */
	boolean isDue(long now) {
		return this.bodyAhead ? this.clock.waiting() && now - this.clock.deadline() >= 0 : now - this.deadline >= 0;
	}

	/**
	 * Returns what the deadline of an idle connection or a head asks for now.
	 * @param now the time
	 * @param nothingRead whether nothing of a request has been read
	 * @return what to do
	 */
	Due due(long now, boolean nothingRead) {
		if (now - this.deadline >= 0) {
			return (this.idle || nothingRead) ? Due.CLOSE : Due.HEAD_TIMEOUT;
		}
		if (!this.idle && !nothingRead && this.wire.pinsWorker()) {
			long begun = this.deadline - this.headerTimeoutNanos;
			if (now - begun >= this.wire.stallNanos(Route.DEFAULT_POOL, false)) {
				return Due.HEAD_STALLED;
			}
		}
		return Due.NONE;
	}

}
