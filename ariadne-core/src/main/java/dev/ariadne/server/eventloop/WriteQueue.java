package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;

import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.internal.BufferBudget;

/**
 * The bytes of one event-loop connection that its socket has not taken yet, and the
 * back-pressure they put on the threads that write them.
 *
 * <p>Writers: {@link #transmit} is for any thread but the selector (a worker running an
 * exchange, or later any thread completing one): it writes straight to the socket while the
 * socket takes bytes, queues the rest, and waits while more than {@link #HIGH_WATER} bytes are
 * queued, so a slow reader costs bounded memory and stalls only its own writers.
 * {@link #enqueue} is for the selector thread, which must never wait: it queues whatever the
 * socket does not take at once. Bytes leave in the order they were given, whichever thread gave
 * them: every method holds the queue's lock.
 *
 * <p>Queued bytes count in the server's {@link BufferBudget}, from the copy until the socket has
 * taken them. A writer whose bytes do not fit the budget waits for it as for the queue (the
 * selector's own answers are always queued).
 *
 * <p>Draining: when bytes are queued, the selector is asked (once, with a selector task) to
 * watch the socket for writability; on it the selector calls {@link #flush()}, which writes
 * what the socket takes and gives the writable-again signal: it wakes every writer waiting in
 * {@link #transmit}, and tells the selector whether the queue is empty.
 */
final class WriteQueue implements ConnectionOutput.Transmitter {

	/** Most bytes queued for a slow client before a writer waits. */
	static final int HIGH_WATER = 64 * 1024;

	/** Queued bytes below which a non-blocking writer is told it may write again. */
	static final int LOW_WATER = 16 * 1024;

	/** How often a writer waiting for the budget looks whether bytes of it came back. */
	private static final long BUDGET_POLL_MILLIS = 10;

	private final WritableByteChannel channel;

	private final SelectorLoop loop;

	/** The selector task that makes the selector watch for writability. */
	private final Runnable watchWritable;

	private final Duration writeTimeout;

	private final BufferBudget budget;

	private final long writeTimeoutNanos;

	private final Stalls stalls;

	private final Object lock = new Object();

	// ---- guarded by lock

	private final ArrayDeque<ByteBuffer> pending = new ArrayDeque<>();

	private int pendingBytes;

	private boolean watching;

	private boolean closed;

	private long lastWriteNanos;

	/** Told, on the selector, once a non-blocking writer may write again; or {@code null}. */
	private Runnable writableAgain;

	/**
	 * Creates the queue of a connection.
	 * @param channel the connection's socket, non-blocking, or TLS over it
	 * @param loop the loop that owns the socket
	 * @param watchWritable a task for the loop's thread that adds write interest to the key
	 * @param writeTimeout the longest a write may make no progress
	 * @param budget the server's buffer budget, which counts queued bytes
	 */
	WriteQueue(WritableByteChannel channel, SelectorLoop loop, Runnable watchWritable, Duration writeTimeout,
			BufferBudget budget, Stalls stalls) {
		this.channel = channel;
		this.budget = budget;
		this.loop = loop;
		this.watchWritable = watchWritable;
		this.writeTimeout = writeTimeout;
		this.writeTimeoutNanos = writeTimeout.toNanos();
		this.stalls = stalls;
	}

	/**
	 * How long a writer may wait for the client to take bytes: the write timeout, or less while
	 * the pool of the writer's worker is starved (the low-resources mode).
	 */
	interface Stalls {

		/**
		 * Returns the longest a writer may wait now for the client to take a byte.
		 * @return the limit in nanoseconds
		 */
		long writeLimitNanos();

		/**
		 * Returns how often a waiting writer looks at the limit again, which may shorten while
		 * it waits.
		 * @return the interval in nanoseconds
		 */
		long pollNanos();

		/**
		 * Counts a writer that gave up on a client that took nothing.
		 * @param lowResources whether the low-resources limit made it give up
		 */
		void writeCut(boolean lowResources);

	}

	/**
	 * Sends bytes from any thread but the selector: writes directly while the socket takes them,
	 * queues the rest, and waits while more than {@link #HIGH_WATER} bytes are queued.
	 * @param bytes the array, copied if queued
	 * @param offset where the bytes start
	 * @param length how many bytes
	 * @throws IOException if the connection closed, or no byte could be written (or queued
	 * within the budget) for the write timeout ({@code keep-alive.timeout})
	 */
	@Override
	public void transmit(byte[] bytes, int offset, int length) throws IOException {
		int position = offset;
		int end = offset + length;
		long stalledSince = 0;
		while (position < end) {
			int slice = Math.min(end - position, HIGH_WATER);
			synchronized (this.lock) {
				int taken = writeOrQueue(bytes, position, slice, false);
				position += taken;
				if (taken == slice) {
					awaitBelowHighWater();
					stalledSince = 0;
					continue;
				}
				// the rest does not fit the budget: wait until the socket takes more or bytes of
				// the budget come back, whichever first
				long now = System.nanoTime();
				if (taken > 0 || stalledSince == 0) {
					stalledSince = now;
				}
				else if (now - stalledSince >= this.writeTimeoutNanos) {
					throw new IOException("Write timed out: neither the client nor the buffer budget "
							+ "(ariadne.server.buffers.budget) took a byte for " + this.writeTimeout);
				}
				awaitWritableOrBudget();
			}
		}
	}

	/**
	 * Sends bytes from a non-blocking writer of a suspended exchange: writes what the socket
	 * takes and queues the rest whatever the budget says; never waits. The writer asks
	 * {@link #writable} before each write.
	 * @param bytes the array, copied if queued
	 * @param offset where the bytes start
	 * @param length how many bytes
	 * @throws IOException if the connection closed or the write failed
	 */
	@Override
	public void offer(byte[] bytes, int offset, int length) throws IOException {
		synchronized (this.lock) {
			writeOrQueue(bytes, offset, length, true);
		}
	}

	/**
	 * Returns whether a non-blocking writer may write now: fewer than {@link #HIGH_WATER} bytes
	 * queued and the budget not spent. When not, the callback runs once the queue has drained
	 * below {@link #LOW_WATER} (or, with nothing queued, once the budget has room again).
	 * @param callback what to run then, on the selector or a releasing thread; it must not block
	 * @return whether to write now; {@code true} once the connection closed (the write fails)
	 */
	boolean writable(Runnable callback) {
		synchronized (this.lock) {
			if (this.closed || (this.pendingBytes < HIGH_WATER && !this.budget.exhausted())) {
				return true;
			}
			this.writableAgain = callback;
			if (this.pendingBytes > 0) {
				// flush() tells it as the queue drains
				return false;
			}
		}
		// on the selector: a release runs this on the releasing thread, which may hold another
		// queue's lock
		this.budget.whenBulkFree(() -> this.loop.execute(this::tellWritable));
		return false;
	}

	private void tellWritable() {
		Runnable callback;
		synchronized (this.lock) {
			callback = this.writableAgain;
			this.writableAgain = null;
		}
		if (callback != null) {
			callback.run();
		}
	}

	/**
	 * Queues bytes from the selector thread (an answer it chose itself); never waits.
	 * @param bytes the array, copied if queued
	 * @param offset where the bytes start
	 * @param length how many bytes
	 * @throws IOException if the connection closed or the write failed
	 */
	void enqueue(byte[] bytes, int offset, int length) throws IOException {
		synchronized (this.lock) {
			writeOrQueue(bytes, offset, length, true);
		}
	}

	/**
	 * Writes what the socket takes and queues the rest, if it fits the budget.
	 * @param force whether to queue the rest whatever the budget says (the selector's answers)
	 * @return the bytes written or queued: fewer than {@code length} when the rest does not fit
	 */
	private int writeOrQueue(byte[] bytes, int offset, int length, boolean force) throws IOException {
		// caller holds lock
		if (this.closed) {
			throw new ClosedChannelException();
		}
		int written = 0;
		if (this.pending.isEmpty()) {
			ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
			while (buffer.hasRemaining() && this.channel.write(buffer) > 0) {
				// keep writing while the socket takes bytes
			}
			written = buffer.position() - offset;
		}
		int rest = length - written;
		if (rest == 0) {
			return length;
		}
		if (force) {
			this.budget.force(rest);
		}
		else if (!this.budget.tryReserve(rest)) {
			return written;
		}
		this.pending.addLast(ByteBuffer.wrap(Arrays.copyOfRange(bytes, offset + written, offset + length)));
		this.pendingBytes += rest;
		this.lastWriteNanos = System.nanoTime();
		watch();
		return length;
	}

	private void watch() {
		// caller holds lock
		if (!this.watching) {
			this.watching = true;
			this.loop.execute(this.watchWritable);
		}
	}

	private void awaitBelowHighWater() throws IOException {
		// caller holds lock
		while (this.pendingBytes > HIGH_WATER && !this.closed) {
			long waited = System.nanoTime() - this.lastWriteNanos;
			long limit = this.stalls.writeLimitNanos();
			if (waited >= limit) {
				boolean lowResources = limit < this.writeTimeoutNanos;
				this.stalls.writeCut(lowResources);
				// the client gets nothing more: later writes fail at once, and count no more cuts
				clear();
				throw new IOException("Write timed out: the client read nothing for "
						+ ((lowResources) ? Duration.ofNanos(limit) + " while the server was short of workers "
								+ "(ariadne.server.low-resources.stall-timeout)" : this.writeTimeout));
			}
			try {
				long millis = Math.max(1, Math.min(limit - waited, this.stalls.pollNanos()) / 1_000_000);
				this.lock.wait(millis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException("Interrupted while waiting to write", ex);
			}
		}
		if (this.closed) {
			throw new ClosedChannelException();
		}
	}

	private void awaitWritableOrBudget() throws IOException {
		// caller holds lock; the selector's flush() wakes this once the socket is writable, and a
		// short wait lets it see bytes of the budget come back
		watch();
		try {
			this.lock.wait(BUDGET_POLL_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while waiting to write", ex);
		}
		if (this.closed) {
			throw new ClosedChannelException();
		}
	}

	/**
	 * Writes what the socket takes of the queue, on the selector thread when the socket is
	 * writable, and gives the writable-again signal to waiting writers. A failed write closes
	 * the queue.
	 * @return whether the queue is empty (the selector stops watching for writability); when
	 * {@code false}, {@link #isClosed()} tells a failure from a socket that is full again
	 */
	boolean flush() {
		Runnable again = null;
		boolean drained;
		synchronized (this.lock) {
			try {
				while (!this.pending.isEmpty()) {
					ByteBuffer head = this.pending.peekFirst();
					int written = this.channel.write(head);
					if (written > 0) {
						this.pendingBytes -= written;
						this.lastWriteNanos = System.nanoTime();
					}
					if (head.hasRemaining()) {
						break;
					}
					this.pending.pollFirst();
					this.budget.release(head.capacity());
				}
			}
			catch (IOException ex) {
				clear();
			}
			if (this.pending.isEmpty()) {
				this.watching = false;
			}
			this.lock.notifyAll();
			if (this.writableAgain != null && (this.pendingBytes <= LOW_WATER || this.closed)) {
				again = this.writableAgain;
				this.writableAgain = null;
			}
			drained = this.pending.isEmpty() && !this.closed;
		}
		if (again != null) {
			again.run();
		}
		return drained;
	}

	/**
	 * Returns whether at least {@link #HIGH_WATER} bytes wait for the socket: as much as a writer
	 * may queue before it waits.
	 * @return whether the queue is that full
	 */
	boolean backlogged() {
		synchronized (this.lock) {
			return this.pendingBytes >= HIGH_WATER;
		}
	}

	/**
	 * Returns whether bytes wait for the socket.
	 * @return whether the queue holds any
	 */
	boolean hasPending() {
		synchronized (this.lock) {
			return this.pendingBytes > 0;
		}
	}

	/**
	 * Returns whether queued bytes have made no progress for the write timeout.
	 * @param nowNanos the current {@link System#nanoTime()}
	 * @return whether the connection's writes have stalled
	 */
	boolean stalled(long nowNanos) {
		synchronized (this.lock) {
			return this.pendingBytes > 0 && nowNanos - this.lastWriteNanos >= this.writeTimeoutNanos;
		}
	}

	/**
	 * Returns whether the queue is closed: the connection closed or a write failed.
	 * @return whether closed
	 */
	boolean isClosed() {
		synchronized (this.lock) {
			return this.closed;
		}
	}

	/**
	 * Drops what is queued and fails every writer, waiting or to come: the connection closed.
	 */
	void close() {
		Runnable again;
		synchronized (this.lock) {
			clear();
			again = this.writableAgain;
			this.writableAgain = null;
		}
		if (again != null) {
			// the writer finds the connection closed
			again.run();
		}
	}

	private void clear() {
		// caller holds lock
		this.closed = true;
		long held = 0;
		for (ByteBuffer buffer : this.pending) {
			held += buffer.capacity();
		}
		this.budget.release(held);
		this.pending.clear();
		this.pendingBytes = 0;
		this.lock.notifyAll();
	}

}
