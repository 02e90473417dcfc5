package dev.ariadne.server.connection;

import dev.ariadne.server.ServerConfig;

/**
 * The time limits of one request body, counted over the time in which the server waits for it
 * (a handler blocked in a read, a non-blocking reader waiting for a callback, or the event loop
 * reading a body before it dispatches the request), never over time the server spends on
 * anything else, such as a handler busy with the bytes it read or a connection waiting for a
 * buffer of the budget.
 *
 * <ul>
 * <li>A pause: one wait longer than {@code request.header-timeout}.</li>
 * <li>The rate: from {@code request.min-data-rate-grace} of waiting on, every further such period
 * of waiting must bring at least {@code request.min-data-rate} times its length in bytes; bytes
 * beyond that do not count for the next period, so a burst buys no time for a trickle after
 * it.</li>
 * <li>A stall: while the wait holds a worker of a starved pool, one wait longer than
 * {@code low-resources.stall-timeout} ({@link LowResources}).</li>
 * </ul>
 *
 * <p>Used by the thread that reads the body; the selector may read {@link #deadline()} of a wait
 * a worker began, so the wait's figures are volatile.
 */
public final class BodyClock {

	/** What ended a body that kept the server waiting. */
	public enum Expiry {

		/** Nothing: the body may keep the server waiting. */
		NONE,

		/** One wait was longer than the pause allowed. */
		PAUSE,

		/** The periods of waiting brought fewer bytes than the minimum rate asks. */
		RATE,

		/** A wait that held a worker of a starved pool was longer than the stall timeout. */
		STALL

	}

	private final long pauseNanos;

	private final long graceNanos;

	/** Bytes each period of {@link #graceNanos} must bring; 0 for no rate. */
	private final long periodBytes;

	/** Waiting time of the current period before the current wait. */
	private long periodWaited;

	/** Bytes read in the current period. */
	private long periodBytesRead;

	/** Whether a wait is going on. */
	private volatile boolean waiting;

	/** When the current wait began ({@link System#nanoTime()}); valid while one is going on. */
	private volatile long waitStart;

	/** When the current wait ends by the pause or the rate; valid while one is going on. */
	private volatile long deadline;

	/**
	 * Creates the clock of a connection's bodies.
	 * @param config the server's limits
	 */
	public BodyClock(ServerConfig config) {
		this.pauseNanos = config.headerTimeout().toNanos();
		this.graceNanos = config.minDataRateGrace().toNanos();
		long rate = config.minDataRate();
		this.periodBytes = (rate == 0) ? 0
				: Math.max(1, (long) Math.min(Long.MAX_VALUE, (double) rate * this.graceNanos / 1e9));
	}

	/** Starts the clock for a new body. */
	public void reset() {
		this.periodWaited = 0;
		this.periodBytesRead = 0;
		this.waiting = false;
	}

	/**
	 * Starts a wait for bytes of the body, unless one is going on.
	 * @param now the time ({@link System#nanoTime()})
	 * @return when the wait ends by the pause or the rate: {@link #deadline()}
	 */
	public long startWait(long now) {
		if (!this.waiting) {
			long end = now + this.pauseNanos;
			if (this.periodBytes > 0) {
				end = Math.min(end, now + Math.max(0, this.graceNanos - this.periodWaited));
			}
			this.deadline = end;
			this.waitStart = now;
			this.waiting = true;
		}
		return this.deadline;
	}

	/**
	 * Returns whether a wait is going on.
	 * @return whether {@link #startWait} was called since the last {@link #endWait}
	 */
	public boolean waiting() {
		return this.waiting;
	}

	/**
	 * Returns when the current wait ends by the pause or the rate.
	 * @return the {@link System#nanoTime()} of the end; meaningful while {@link #waiting()}
	 */
	public long deadline() {
		return this.deadline;
	}

	/**
	 * Ends the wait going on, if any, and counts bytes that it brought.
	 * @param now the time
	 * @param bytes the bytes read, 0 or more
	 */
	public void endWait(long now, long bytes) {
		if (this.waiting) {
			this.waiting = false;
			this.periodWaited += Math.max(0, now - this.waitStart);
		}
		read(bytes);
	}

	/**
	 * Counts bytes read without waiting.
	 * @param bytes the bytes read, 0 or more
	 */
	public void read(long bytes) {
		if (bytes <= 0 || this.periodBytes == 0) {
			return;
		}
		this.periodBytesRead += bytes;
		if (this.periodBytesRead >= this.periodBytes) {
			// the period has what the rate asks: the next one starts now, with nothing in hand
			this.periodWaited = 0;
			this.periodBytesRead = 0;
		}
	}

	/**
	 * Decides whether the wait going on has lasted too long.
	 * @param now the time
	 * @param stallNanos the stall timeout of the pool whose worker waits, or
	 * {@link Long#MAX_VALUE} when none applies ({@link LowResources#stallNanos})
	 * @return what ended the body, or {@link Expiry#NONE}
	 */
	public Expiry expiry(long now, long stallNanos) {
		if (!this.waiting) {
			return Expiry.NONE;
		}
		long waited = now - this.waitStart;
		if (waited >= this.pauseNanos) {
			return Expiry.PAUSE;
		}
		if (this.periodBytes > 0 && this.periodWaited + waited >= this.graceNanos) {
			return Expiry.RATE;
		}
		if (waited >= stallNanos) {
			return Expiry.STALL;
		}
		return Expiry.NONE;
	}

}
