package dev.ariadne.server.internal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * A pool of equal-sized heap buffers for one thread (a selector loop): connections borrow a
 * buffer only while bytes are in it, so idle connections hold none. Not thread-safe, except
 * {@link #borrowed()}.
 */
public final class BufferPool {

	private final int bufferSize;

	private final int maxRetained;

	private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();

	/** Written by the owning thread only; volatile so that a leak check may read it. */
	private volatile int borrowed;

	/**
	 * Creates a pool.
	 * @param bufferSize the size of each buffer
	 * @param maxRetained most free buffers kept for reuse
	 */
	public BufferPool(int bufferSize, int maxRetained) {
		this.bufferSize = bufferSize;
		this.maxRetained = maxRetained;
	}

	/**
	 * Borrows an empty buffer in read mode (position = limit = 0).
	 * @return the buffer
	 */
	public ByteBuffer borrow() {
		ByteBuffer buffer = this.free.pollFirst();
		if (buffer == null) {
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
	}

	/**
	 * Returns the buffers borrowed and not yet given back. Any thread.
	 * @return the count
	 */
	public int borrowed() {
		return this.borrowed;
	}

}
