package dev.ariadne.http2;

import java.nio.ByteBuffer;

/**
 * The encoded bytes of a header block that comes in more than one frame ({@code HEADERS} and its
 * {@code CONTINUATION}s), gathered until the block is complete; the caller bounds its size first.
 */
final class BlockBuffer {

	private byte[] bytes;

	private int length;

	/**
	 * Returns how many bytes are gathered.
	 * @return the length
	 */
	int length() {
		return this.length;
	}

	/**
	 * Adds a fragment, growing the buffer as needed, at most to {@code max} unless the block is larger.
	 * @param fragment the fragment, consumed
	 * @param max the largest block expected
	 */
	void append(ByteBuffer fragment, int max) {
		int total = this.length + fragment.remaining();
		if (this.bytes == null || this.bytes.length < total) {
			byte[] larger = new byte[Math.max(total, Math.min(2 * total, max))];
			if (this.length > 0) {
				System.arraycopy(this.bytes, 0, larger, 0, this.length);
			}
			this.bytes = larger;
		}
		fragment.get(this.bytes, this.length, fragment.remaining());
		this.length = total;
	}

	/**
	 * Returns the gathered block, to decode, and forgets it: the next block starts empty.
	 * @return the bytes, in read mode
	 */
	ByteBuffer contents() {
		ByteBuffer block = ByteBuffer.wrap(this.bytes, 0, this.length);
		clear();
		return block;
	}

	/** Forgets what was gathered. */
	void clear() {
		this.bytes = null;
		this.length = 0;
	}

}
