package dev.ariadne.websocket;

import java.nio.ByteBuffer;
import java.util.zip.Deflater;

/**
 * Compresses the messages a server sends under a permessage-deflate agreement (RFC 7692 §7.2.1),
 * a message in one piece or in several: each piece's compressed bytes are the payload of one
 * frame, the first of the message with RSV1 set ({@link FrameWriter#header}), the others
 * continuations. The last piece ends with a sync flush whose final 4 bytes
 * ({@code 00 00 ff ff}) are removed, as §7.2.1 says; the window is then kept for the next message
 * (context takeover) or reset, as agreed.
 *
 * <p>The {@link Deflater} (about 256 KiB outside the heap, zlib's cost for a 32 KiB window) is made
 * at the first message, not before, and freed by {@link #close}. One per connection, used by one
 * thread at a time.
 */
public final class MessageDeflater implements AutoCloseable {

	private static final byte[] NONE = new byte[0];

	private static final int INITIAL = 1024;

	private final boolean resetEachMessage;

	private final int level;

	private Deflater deflater;

	private ByteBuffer out = ByteBuffer.allocate(0);

	private ByteBuffer outView = this.out.asReadOnlyBuffer();

	MessageDeflater(boolean resetEachMessage, int level) {
		this.resetEachMessage = resetEachMessage;
		this.level = level;
	}

	/**
	 * Compresses a piece of a message.
	 * @param payload the piece, consumed from its position to its limit
	 * @param last whether it ends the message
	 * @return the compressed bytes, possibly none for a piece that is not the last: a read-only
	 * view valid until the next call
	 */
	public ByteBuffer deflate(ByteBuffer payload, boolean last) {
		if (this.deflater == null) {
			this.deflater = new Deflater(this.level, true);
			this.out = ByteBuffer.allocate(INITIAL);
			this.outView = this.out.asReadOnlyBuffer();
		}
		Deflater zlib = this.deflater;
		zlib.setInput(payload);
		int flush = last ? Deflater.SYNC_FLUSH : Deflater.NO_FLUSH;
		ByteBuffer output = this.out.clear();
		while (true) {
			zlib.deflate(output, flush);
			// room left: zlib has written all it had for the input (and the flush, if asked for)
			if (output.hasRemaining()) {
				break;
			}
			output = grow(output);
		}
		zlib.setInput(NONE);
		int length = output.position();
		if (last) {
			length = endMessage(output, length);
			if (this.resetEachMessage) {
				zlib.reset();
			}
		}
		return this.outView.limit(length).position(0);
	}

	/** Removes the tail of the flush that ends a message; returns the message's last length. */
	private static int endMessage(ByteBuffer output, int length) {
		if (length == 0) {
			// zlib writes nothing for a flush right after a flush (an empty message after another):
			// send the empty stored block's first byte, to which the reader adds the 4 others
			output.put((byte) 0);
			return 1;
		}
		if (length < 4 || output.getInt(length - 4) != 0x0000ffff) {
			throw new IllegalStateException("A sync flush did not end with an empty stored block");
		}
		return length - 4;
	}

	/** Frees the deflater's native memory; the compressor is not used after. */
	@Override
	public void close() {
		if (this.deflater != null) {
			this.deflater.end();
		}
	}

	private ByteBuffer grow(ByteBuffer output) {
		ByteBuffer larger = ByteBuffer.allocate(Math.max(INITIAL, output.capacity() * 2));
		output.flip();
		larger.put(output);
		this.out = larger;
		this.outView = larger.asReadOnlyBuffer();
		return larger;
	}

}
