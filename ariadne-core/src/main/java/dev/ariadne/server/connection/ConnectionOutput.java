package dev.ariadne.server.connection;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import dev.ariadne.server.internal.ByteArrayPool;

/**
 * The bytes a connection is about to send: a buffer that collects response heads and small
 * bodies, so that a response (or a batch of pipelined responses) leaves in one write, and that
 * hands large writes straight to the network.
 *
 * <p>Owned by the thread running the connection's exchange; not thread-safe.
 */
public final class ConnectionOutput {

	/**
	 * Sends bytes to the client. {@link #transmit} blocks the calling worker until the bytes
	 * are taken (by the kernel or, in the event-loop model, by the selector's write queue within
	 * its bound); {@link #offer} never waits. Never called on a selector thread.
	 */
	@FunctionalInterface
	public interface Transmitter {

		/**
		 * Sends bytes, waiting while the client is slower than the writer.
		 * @param bytes the array
		 * @param offset where the bytes start
		 * @param length how many bytes
		 * @throws IOException if the connection failed or a write timed out
		 */
		void transmit(byte[] bytes, int offset, int length) throws IOException;

		/**
		 * Sends bytes without waiting: what the client does not take at once is queued (and
		 * counted in the buffer budget, even beyond it), for a writer that asks before each
		 * write whether to go on. By default the same as {@link #transmit}.
		 * @param bytes the array, copied if queued
		 * @param offset where the bytes start
		 * @param length how many bytes
		 * @throws IOException if the connection failed
		 */
		default void offer(byte[] bytes, int offset, int length) throws IOException {
			transmit(bytes, offset, length);
		}

	}

	private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

	private final Transmitter transmitter;

	private final ByteArrayPool buffers;

	private byte[] buffer;

	private int count;

	/** Whether writes go through {@link Transmitter#offer}, never waiting. */
	private boolean nonBlocking;

	/**
	 * Creates an output.
	 * @param transmitter where full buffers and large writes go
	 * @param buffers where its buffer comes from and goes back to when released; its array
	 * size is the buffer size (a response head larger than that still fits)
	 */
	public ConnectionOutput(Transmitter transmitter, ByteArrayPool buffers) {
		this.transmitter = transmitter;
		this.buffers = buffers;
	}

	/**
	 * Sets whether sending never waits ({@link Transmitter#offer}), for a suspended exchange
	 * whose writer asks before each write, or waits as usual.
	 * @param nonBlocking whether to send without waiting
	 */
	public void nonBlocking(boolean nonBlocking) {
		this.nonBlocking = nonBlocking;
	}

	/**
	 * Returns the bytes buffered and not yet sent.
	 * @return the count
	 */
	public int buffered() {
		return this.count;
	}

	/**
	 * Appends bytes, sending the buffer first when they do not fit; writes at least as large as
	 * the buffer bypass it.
	 * @param bytes the array
	 * @param offset where to start
	 * @param length how many
	 * @throws IOException if sending failed
	 */
	public void write(byte[] bytes, int offset, int length) throws IOException {
		int capacity = this.buffers.arraySize();
		if (length >= capacity) {
			flush();
			send(bytes, offset, length);
			return;
		}
		if (this.count + length > capacity) {
			flush();
		}
		ensure(length);
		System.arraycopy(bytes, offset, this.buffer, this.count, length);
		this.count += length;
	}

	/**
	 * Appends bytes to the buffer whatever their size, without sending (for response heads).
	 * @param bytes the bytes
	 */
	public void append(byte[] bytes) {
		ensure(bytes.length);
		System.arraycopy(bytes, 0, this.buffer, this.count, bytes.length);
		this.count += bytes.length;
	}

	/**
	 * Appends what a buffer holds, from its position to its limit, whatever its size, without
	 * sending; the buffer is advanced to its limit.
	 * @param bytes the bytes
	 */
	public void append(ByteBuffer bytes) {
		int length = bytes.remaining();
		ensure(length);
		bytes.get(this.buffer, this.count, length);
		this.count += length;
	}

	/**
	 * Appends a Latin-1 string to the buffer, without sending.
	 * @param text the text, characters up to U+00FF
	 */
	public void append(String text) {
		int length = text.length();
		ensure(length);
		text.getBytes(0, length, this.buffer, this.count);
		this.count += length;
	}

	/**
	 * Appends a non-negative decimal number.
	 * @param value the number
	 */
	public void appendDecimal(long value) {
		ensure(20);
		if (value == 0) {
			this.buffer[this.count++] = '0';
			return;
		}
		int digits = 0;
		for (long v = value; v > 0; v /= 10) {
			digits++;
		}
		int end = this.count + digits;
		for (int i = end - 1; i >= this.count; i--) {
			this.buffer[i] = DIGITS[(int) (value % 10)];
			value /= 10;
		}
		this.count = end;
	}

	/**
	 * Appends a non-negative number in hexadecimal (chunk sizes).
	 * @param value the number
	 */
	public void appendHex(long value) {
		ensure(16);
		int digits = Math.max(1, (64 - Long.numberOfLeadingZeros(value) + 3) / 4);
		for (int i = digits - 1; i >= 0; i--) {
			this.buffer[this.count++] = DIGITS[(int) ((value >>> (i * 4)) & 0xF)];
		}
	}

	/**
	 * Appends CRLF.
	 */
	public void appendCrlf() {
		ensure(2);
		this.buffer[this.count++] = '\r';
		this.buffer[this.count++] = '\n';
	}

	/**
	 * Sends everything buffered.
	 * @throws IOException if sending failed
	 */
	public void flush() throws IOException {
		if (this.count > 0) {
			int length = this.count;
			this.count = 0;
			send(this.buffer, 0, length);
		}
	}

	private void send(byte[] bytes, int offset, int length) throws IOException {
		if (this.nonBlocking) {
			this.transmitter.offer(bytes, offset, length);
		}
		else {
			this.transmitter.transmit(bytes, offset, length);
		}
	}

	/**
	 * Sends everything buffered through another transmitter (one that never blocks, for a
	 * selector thread).
	 * @param other the transmitter to use
	 * @throws IOException if sending failed
	 */
	public void flushTo(Transmitter other) throws IOException {
		if (this.count > 0) {
			int length = this.count;
			this.count = 0;
			other.transmit(this.buffer, 0, length);
		}
	}

	/**
	 * Drops everything buffered (after a failure, when the connection closes anyway).
	 */
	public void discard() {
		this.count = 0;
	}

	private void ensure(int extra) {
		if (this.buffer == null) {
			this.buffer = (extra <= this.buffers.arraySize()) ? this.buffers.borrow() : new byte[extra];
		}
		else if (this.count + extra > this.buffer.length) {
			byte[] grown = new byte[Math.max(this.buffer.length * 2, this.count + extra)];
			System.arraycopy(this.buffer, 0, grown, 0, this.count);
			this.buffers.release(this.buffer);
			this.buffer = grown;
		}
	}

	/**
	 * Gives the buffer back to the pool when nothing is buffered, so an idle connection holds
	 * no output memory. Only once the bytes transmitted from it are no longer referenced: every
	 * transmitter copies what it cannot send at once.
	 */
	public void release() {
		if (this.count == 0 && this.buffer != null) {
			byte[] buffer = this.buffer;
			this.buffer = null;
			this.buffers.release(buffer);
		}
	}

}
