package dev.ariadne.server.internal;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bytes one server may hold in buffers for its connections ({@code buffers.budget}): input
 * buffers (unread bodies and pipelined requests), queued response bytes, and bodies read whole
 * for a handler. Buffers are counted when they are allocated (a pool's retained free buffers
 * stay counted), not per read, so a request that reuses pooled buffers touches no counter.
 *
 * <p>Four ways to take bytes: {@link #tryReserveInput} (never waits: the event loop's input
 * buffers; it stops reading a connection instead), {@link #tryReserve} and
 * {@link #reserve(long, long)} (queued response bytes and bodies read whole, without waiting or
 * waiting for bytes to come back), and {@link #force} (always granted: a per-exchange buffer
 * that the thread count bounds, and an answer the selector must send). Bodies and queued
 * output may take three quarters of the budget at most: the last quarter is kept for input
 * buffers, so that at the budget new requests are still read and the exchanges holding the
 * rest can end. Thread-safe; one atomic add per allocation.
 */
public final class BufferBudget {

	private final long limit;

	/** The part of {@link #limit} that bodies and queued output may take. */
	private final long bulkLimit;

	private final AtomicLong used = new AtomicLong();

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition released = this.lock.newCondition();

	/** Threads waiting in {@link #reserve(long, long)}; a release signals them only then. */
	private volatile int waiters;

	/** Run once after the next release: selector loops with connections waiting for a buffer. */
	private final Queue<Runnable> onRelease = new ConcurrentLinkedQueue<>();

	private volatile boolean armed;

	/**
	 * Creates a budget.
	 * @param limit the most bytes held at once
	 */
	public BufferBudget(long limit) {
		this.limit = limit;
		this.bulkLimit = limit - limit / 4;
	}

	/**
	 * Returns the most bytes held at once.
	 * @return the limit in bytes
	 */
	public long limit() {
		return this.limit;
	}

	/**
	 * Returns the bytes held now.
	 * @return the bytes counted and not yet released
	 */
	public long used() {
		return this.used.get();
	}

	/**
	 * Returns whether the share of output and bodies is spent: no more of them fits.
	 * @return whether the bytes held reach three quarters of the limit
	 */
	public boolean exhausted() {
		return this.used.get() >= this.bulkLimit;
	}

	/**
	 * Takes bytes for an input buffer if they fit the whole budget, without waiting.
	 * @param bytes how many
	 * @return whether they were taken
	 */
	public boolean tryReserveInput(long bytes) {
		return tryReserve(bytes, this.limit);
	}

	/**
	 * Takes bytes for queued output or a body if they fit its share of the budget, without
	 * waiting.
	 * @param bytes how many
	 * @return whether they were taken
	 */
	public boolean tryReserve(long bytes) {
		return tryReserve(bytes, this.bulkLimit);
	}

	private boolean tryReserve(long bytes, long max) {
		while (true) {
			long current = this.used.get();
			if (current + bytes > max) {
				return false;
			}
			if (this.used.compareAndSet(current, current + bytes)) {
				return true;
			}
		}
	}

	/**
	 * Returns the most bytes one reservation of output or body can take: more never fits.
	 * @return three quarters of the limit
	 */
	public long bulkLimit() {
		return this.bulkLimit;
	}

	/**
	 * Takes bytes whether they fit or not, for a buffer whose number something else bounds.
	 * @param bytes how many
	 */
	public void force(long bytes) {
		this.used.addAndGet(bytes);
	}

	/**
	 * Takes bytes for queued output or a body, waiting for other holders to release enough of
	 * theirs.
	 * @param bytes how many; more than {@link #bulkLimit()} never fit
	 * @param timeoutNanos the most time to wait
	 * @return whether they were taken
	 * @throws InterruptedException if interrupted while waiting
	 */
	public boolean reserve(long bytes, long timeoutNanos) throws InterruptedException {
		if (tryReserve(bytes)) {
			return true;
		}
		if (bytes > this.bulkLimit) {
			return false;
		}
		long left = timeoutNanos;
		this.lock.lock();
		try {
			this.waiters++;
			try {
				while (!tryReserve(bytes)) {
					if (left <= 0) {
						return false;
					}
					left = this.released.awaitNanos(left);
				}
				return true;
			}
			finally {
				this.waiters--;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Gives bytes back, and tells whoever waits for them.
	 * @param bytes how many, as taken
	 */
	public void release(long bytes) {
		if (bytes == 0) {
			return;
		}
		this.used.addAndGet(-bytes);
		if (this.waiters > 0) {
			this.lock.lock();
			try {
				this.released.signalAll();
			}
			finally {
				this.lock.unlock();
			}
		}
		if (this.armed) {
			this.armed = false;
			Runnable callback;
			while ((callback = this.onRelease.poll()) != null) {
				callback.run();
			}
		}
	}

	/**
	 * Runs a callback once bytes come back; at once if the bytes asked for fit now. For a
	 * thread that must not wait (a selector), and that retries what did not fit when called.
	 * @param bytes how many bytes the caller needs
	 * @param callback what to run, on the releasing thread or this one; it must not block nor
	 * take a lock, since the releasing thread may hold one
	 */
	public void whenReleased(long bytes, Runnable callback) {
		this.onRelease.add(callback);
		this.armed = true;
		if (this.used.get() + bytes <= this.limit) {
			// a release between the failed reservation and now would have found nothing armed
			this.armed = false;
			Runnable pending;
			while ((pending = this.onRelease.poll()) != null) {
				pending.run();
			}
		}
	}

	/**
	 * Runs a callback once bodies and queued output may take bytes again ({@link #exhausted()}
	 * is over); at once if they may now.
	 * @param callback what to run, on the releasing thread or this one; it must not block nor
	 * take a lock, since the releasing thread may hold one
	 */
	public void whenBulkFree(Runnable callback) {
		// fits the whole budget exactly when the bytes held are below the bulk limit
		whenReleased(this.limit - this.bulkLimit + 1, callback);
	}

	@Override
	public String toString() {
		return used() + " of " + this.limit + " bytes";
	}

}
