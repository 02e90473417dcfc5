package dev.ariadne.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A gzip member (RFC 1952) encoded into a buffer of its own and handed to the response's stream
 * by {@link #send()}: one write per call, so that a non-blocking writer, which may write once
 * each time {@code isReady()} says so, is never made to write twice. A blocking writer's
 * encoder ({@code bounded}) hands over its buffer whenever it fills, so a large write is never
 * held whole; a non-blocking writer's grows for the duration of one call and shrinks back.
 *
 * <p>Not thread-safe: used by the thread that writes the response.
 */
final class GzipEncoder {

	private static final int BUFFER = 8192;

	/** Magic, deflate, no flags, no time, no extra flags, OS unknown. */
	private static final byte[] HEADER = { 0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff };

	private final OutputStream target;

	private final boolean bounded;

	private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);

	private final CRC32 crc = new CRC32();

	private byte[] buffer = new byte[BUFFER];

	private int count;

	private boolean ended;

	/**
	 * Starts a member: its header is the first thing {@link #send()} writes.
	 * @param target the response's own stream
	 * @param bounded whether the buffer is written out whenever it fills (a blocking writer)
	 * rather than once per call (a non-blocking one)
	 */
	GzipEncoder(OutputStream target, boolean bounded) {
		this.target = target;
		this.bounded = bounded;
		System.arraycopy(HEADER, 0, this.buffer, 0, HEADER.length);
		this.count = HEADER.length;
	}

	void encode(byte[] bytes, int offset, int length) throws IOException {
		if (length == 0) {
			return;
		}
		this.crc.update(bytes, offset, length);
		this.deflater.setInput(bytes, offset, length);
		deflateInput();
	}

	void encode(ByteBuffer source) throws IOException {
		if (!source.hasRemaining()) {
			return;
		}
		this.crc.update(source.duplicate());
		// the deflater advances the source's position as it consumes it
		this.deflater.setInput(source);
		deflateInput();
	}

	private void deflateInput() throws IOException {
		while (!this.deflater.needsInput()) {
			room();
			this.count += this.deflater.deflate(this.buffer, this.count, this.buffer.length - this.count,
					Deflater.NO_FLUSH);
		}
	}

	/** Whether nothing was given to encode yet. */
	boolean empty() {
		return this.deflater.getBytesRead() == 0;
	}

	/** Takes out everything the deflater holds back, so that the client can decode it all now. */
	void syncFlush() throws IOException {
		int space;
		int deflated;
		do {
			room();
			space = this.buffer.length - this.count;
			deflated = this.deflater.deflate(this.buffer, this.count, space, Deflater.SYNC_FLUSH);
			this.count += deflated;
		}
		while (deflated == space);
	}

	/** Ends the member: the rest of the deflated data and the trailer, then frees the deflater. */
	void finish() throws IOException {
		if (this.ended) {
			return;
		}
		this.deflater.finish();
		while (!this.deflater.finished()) {
			room();
			this.count += this.deflater.deflate(this.buffer, this.count, this.buffer.length - this.count);
		}
		if (this.buffer.length - this.count < 8) {
			room(8);
		}
		littleEndian((int) this.crc.getValue());
		littleEndian((int) this.deflater.getBytesRead());
		end();
	}

	/** Frees the deflater without ending the member (the response failed). */
	void end() {
		this.ended = true;
		this.deflater.end();
	}

	/** Writes what is encoded, in one write, and empties the buffer. */
	void send() throws IOException {
		if (this.count == 0) {
			return;
		}
		int length = this.count;
		this.count = 0;
		this.target.write(this.buffer, 0, length);
		if (this.buffer.length > 8 * BUFFER) {
			this.buffer = new byte[BUFFER];
		}
	}

	private void room() throws IOException {
		if (this.count == this.buffer.length) {
			room(1);
		}
	}

	private void room(int needed) throws IOException {
		if (this.bounded) {
			send();
		}
		else {
			this.buffer = Arrays.copyOf(this.buffer, Math.max(this.buffer.length * 2, this.count + needed));
		}
	}

	private void littleEndian(int value) {
		this.buffer[this.count++] = (byte) value;
		this.buffer[this.count++] = (byte) (value >>> 8);
		this.buffer[this.count++] = (byte) (value >>> 16);
		this.buffer[this.count++] = (byte) (value >>> 24);
	}

}
