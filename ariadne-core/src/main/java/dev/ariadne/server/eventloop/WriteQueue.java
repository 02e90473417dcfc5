package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;

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
 * <p>Draining: when bytes are queued, the selector is asked (once, with a selector task) to
 * watch the socket for writability; on it the selector calls {@link #flush()}, which writes
 * what the socket takes and gives the writable-again signal: it wakes every writer waiting in
 * {@link #transmit}, and tells the selector whether the queue is empty.
 */
final class WriteQueue {

	/** Most bytes queued for a slow client before a writer waits. */
	static final int HIGH_WATER = 64 * 1024;

	private final WritableByteChannel channel;

	private final SelectorLoop loop;

	/** The selector task that makes the selector watch for writability. */
	private final Runnable watchWritable;

	private final Duration writeTimeout;

	private final long writeTimeoutNanos;

	private final Object lock = new Object();

	// ---- guarded by lock

	private final ArrayDeque<ByteBuffer> pending = new ArrayDeque<>();

	private int pendingBytes;

	private boolean watching;

	private boolean closed;

	private long lastWriteNanos;

	/**
	 * Creates the queue of a connection.
	 * @param channel the connection's socket, non-blocking, or TLS over it
	 * @param loop the loop that owns the socket
	 * @param watchWritable a task for the loop's thread that adds write interest to the key
	 * @param writeTimeout the longest a write may make no progress
	 */
	WriteQueue(WritableByteChannel channel, SelectorLoop loop, Runnable watchWritable, Duration writeTimeout) {
		this.channel = channel;
		this.loop = loop;
		this.watchWritable = watchWritable;
		this.writeTimeout = writeTimeout;
		this.writeTimeoutNanos = writeTimeout.toNanos();
	}

	/**
	 * Sends bytes from any thread but the selector: writes directly while the socket takes them,
	 * queues the rest, and waits while more than {@link #HIGH_WATER} bytes are queued.
	 * @param bytes the array, copied if queued
	 * @param offset where the bytes start
	 * @param length how many bytes
	 * @throws IOException if the connection closed, or no byte could be written for the write
	 * timeout ({@code keep-alive.timeout})
	 */
	void transmit(byte[] bytes, int offset, int length) throws IOException {
		int position = offset;
		int end = offset + length;
		while (position < end) {
			int slice = Math.min(end - position, HIGH_WATER);
			synchronized (this.lock) {
				writeOrQueue(bytes, position, slice);
				awaitBelowHighWater();
			}
			position += slice;
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
			writeOrQueue(bytes, offset, length);
		}
	}

	private void writeOrQueue(byte[] bytes, int offset, int length) throws IOException {
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
		if (written < length) {
			this.pending.addLast(ByteBuffer.wrap(Arrays.copyOfRange(bytes, offset + written, offset + length)));
			this.pendingBytes += length - written;
			this.lastWriteNanos = System.nanoTime();
			if (!this.watching) {
				this.watching = true;
				this.loop.execute(this.watchWritable);
			}
		}
	}

	private void awaitBelowHighWater() throws IOException {
		// caller holds lock
		while (this.pendingBytes > HIGH_WATER && !this.closed) {
			long waited = System.nanoTime() - this.lastWriteNanos;
			if (waited >= this.writeTimeoutNanos) {
				throw new IOException("Write timed out: the client read nothing for " + this.writeTimeout);
			}
			try {
				long millis = Math.max(1, (this.writeTimeoutNanos - waited) / 1_000_000);
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

	/**
	 * Writes what the socket takes of the queue, on the selector thread when the socket is
	 * writable, and gives the writable-again signal to waiting writers. A failed write closes
	 * the queue.
	 * @return whether the queue is empty (the selector stops watching for writability); when
	 * {@code false}, {@link #isClosed()} tells a failure from a socket that is full again
	 */
	boolean flush() {
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
				}
			}
			catch (IOException ex) {
				clear();
			}
			if (this.pending.isEmpty()) {
				this.watching = false;
			}
			this.lock.notifyAll();
			return this.pending.isEmpty() && !this.closed;
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
		synchronized (this.lock) {
			clear();
		}
	}

	private void clear() {
		// caller holds lock
		this.closed = true;
		this.pending.clear();
		this.pendingBytes = 0;
		this.lock.notifyAll();
	}

}
