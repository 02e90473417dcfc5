package dev.ariadne.server.internal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * A pool of equal-sized heap buffers for one thread (a selector loop): connections borrow a
 * buffer only while bytes are in it, so idle connections hold none. A buffer is counted in the
 * server's {@link BufferBudget} from its allocation until the pool drops it (retained free
 * buffers stay counted), and none is allocated beyond the budget. Not thread-safe, except
 * {@link #borrowed()}.
 */
public final class BufferPool {

	private final int bufferSize;

	private final int maxRetained;

	private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();

	private final BufferBudget budget;

	/** Written by the owning thread only; volatile so that a leak check may read it. */
	private volatile int borrowed;

	/**
	 * Creates a pool.
	 * @param bufferSize the size of each buffer
	 * @param maxRetained most free buffers kept for reuse
	 * @param budget the server's budget, which counts the buffers
	 */
	public BufferPool(int bufferSize, int maxRetained, BufferBudget budget) {
		this.bufferSize = bufferSize;
		this.maxRetained = maxRetained;
		this.budget = budget;
	}

	/**
	 * Returns the size of each buffer.
	 * @return the size in bytes
	 */
	public int bufferSize() {
		return this.bufferSize;
	}

	/**
	 * Borrows an empty buffer in read mode (position = limit = 0).
	 * @return the buffer, or {@code null} when none is free and a new one does not fit the
	 * budget
	 */
	public ByteBuffer borrow() {
		ByteBuffer buffer = this.free.pollFirst();
		if (buffer == null) {
			if (!this.budget.tryReserveInput(this.bufferSize)) {
				return null;
			}
			buffer = ByteBuffer.allocate(this.bufferSize);
		}
		this.borrowed++;
		return buffer.position(0).limit(0);
	}

	/**
	 * Gives a buffer back; the caller must not touch it afterwards.
	 * @param buffer the buffer
	 */
	public void release(ByteBuffer buffer) {
		this.borrowed--;
		if (this.free.size() < this.maxRetained) {
			this.free.addFirst(buffer);
		}
		else {
			this.budget.release(this.bufferSize);
		}
	}

	/**
	 * Returns the buffers borrowed and not yet given back. Any thread.
	 * @return the count
	 */
	public int borrowed() {
		return this.borrowed;
	}

	/**
	 * Drops the free buffers and gives their bytes back to the budget; the owning thread, when
	 * it stops.
	 */
	public void clear() {
		this.budget.release((long) this.free.size() * this.bufferSize);
		this.free.clear();
	}

}
