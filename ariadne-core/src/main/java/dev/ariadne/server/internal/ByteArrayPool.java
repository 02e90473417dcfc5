package dev.ariadne.server.internal;

/**
 * A thread-safe pool of equal-sized byte arrays, shared by a server's connections: a worker
 * borrows one to collect a response and gives it back when the response has left, so a
 * request costs no fresh output buffer. Keeps at most a bounded number of free arrays; arrays
 * of another size are never taken back. Its arrays are counted in the server's
 * {@link BufferBudget} from allocation until the pool drops them, and always granted: one is
 * borrowed per running exchange, which the thread count bounds.
 */
public final class ByteArrayPool {

	private final int arraySize;

	private final byte[][] free;

	private final BufferBudget budget;

	private int count;

	/**
	 * Creates a pool.
	 * @param arraySize the size of each array
	 * @param maxRetained most free arrays kept for reuse
	 * @param budget the server's budget, which counts the arrays
	 */
	public ByteArrayPool(int arraySize, int maxRetained, BufferBudget budget) {
		this.arraySize = arraySize;
		this.free = new byte[maxRetained][];
		this.budget = budget;
	}

	/**
	 * Returns the size of the pool's arrays.
	 * @return the size in bytes
	 */
	public int arraySize() {
		return this.arraySize;
	}

	/**
	 * Borrows an array of {@link #arraySize()} bytes; its content is undefined.
	 * @return the array
	 */
	public byte[] borrow() {
		synchronized (this) {
			if (this.count > 0) {
				byte[] array = this.free[--this.count];
				this.free[this.count] = null;
				return array;
			}
		}
		this.budget.force(this.arraySize);
		return new byte[this.arraySize];
	}

	/**
	 * Gives an array back; the caller must not touch it afterwards. An array of another size,
	 * or one beyond the retained maximum, is left to the garbage collector.
	 * @param array the array
	 */
	public void release(byte[] array) {
		if (array.length != this.arraySize) {
			return;
		}
		synchronized (this) {
			if (this.count < this.free.length) {
				this.free[this.count++] = array;
				return;
			}
		}
		this.budget.release(this.arraySize);
	}

}
