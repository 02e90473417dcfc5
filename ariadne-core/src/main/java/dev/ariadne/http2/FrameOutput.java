package dev.ariadne.http2;

import java.nio.ByteBuffer;

/**
 * The bytes a session has framed and the transport has not written yet, in order. Grows as
 * needed; an idle connection gives its array back once the array has grown past the initial
 * size.
 */
final class FrameOutput {

	private static final int INITIAL = 1024;

	private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

	private ByteBuffer buffer = EMPTY;

	private boolean draining;

	/** Returns the buffer in write mode with at least {@code room} bytes free. */
	ByteBuffer room(int room) {
		if (this.draining) {
			throw new IllegalStateException("Frames written while the output is being drained");
		}
		if (this.buffer.remaining() < room) {
			int needed = this.buffer.position() + room;
			ByteBuffer larger = ByteBuffer.allocate(Math.max(needed, Math.max(INITIAL, this.buffer.capacity() * 2)));
			this.buffer.flip();
			larger.put(this.buffer);
			this.buffer = larger;
		}
		return this.buffer;
	}

	int pending() {
		return this.draining ? this.buffer.remaining() : this.buffer.position();
	}

	ByteBuffer drain() {
		// The shared empty buffer is never flipped or compacted: sessions on other threads use it.
		if (!this.draining && this.buffer != EMPTY) {
			this.buffer.flip();
			this.draining = true;
		}
		return this.buffer;
	}

	void drained() {
		if (!this.draining) {
			return;
		}
		this.draining = false;
		if (this.buffer == EMPTY) {
			return;
		}
		if (!this.buffer.hasRemaining() && this.buffer.capacity() > INITIAL) {
			this.buffer = EMPTY;
			return;
		}
		this.buffer.compact();
	}

}
