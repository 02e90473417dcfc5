package dev.ariadne.websocket;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Inflates the messages of one connection that agreed to permessage-deflate (RFC 7692 §7.2.2),
 * in chunks pulled one at a time so that no chunk goes past what the message may still hold: a
 * message is inflated at most one byte past {@link WebSocketLimits#maxMessageSize()}, however
 * much its data would give.
 *
 * <p>Per piece of payload: {@link #input}, then {@link #next} while {@link #more}; at the end of
 * the message {@link #tail} (the 4 bytes the sender removed) and {@link #next} again, then
 * {@link #endMessage}. The {@link Inflater} and the output buffer are made at the first
 * compressed message, not before.
 */
final class MessageInflater {

	private static final byte[] TAIL = { 0, 0, (byte) 0xff, (byte) 0xff };

	private static final byte[] NONE = new byte[0];

	private static final int CHUNK = 8192;

	private final boolean resetEachMessage;

	private final int chunkSize;

	private Inflater inflater;

	private ByteBuffer out;

	private ByteBuffer outView;

	/** Whether the last chunk filled the output: the inflater may have more for the same input. */
	private boolean full;

	/** Whether the message's deflate stream ended (a block with BFINAL); what follows is ignored. */
	private boolean streamEnded;

	/**
	 * Creates an inflater.
	 * @param resetEachMessage whether each message starts with an empty window
	 * ({@code client_no_context_takeover} agreed)
	 * @param maxMessageSize the limit of a message's inflated size, which bounds the chunk size too
	 */
	MessageInflater(boolean resetEachMessage, int maxMessageSize) {
		this.resetEachMessage = resetEachMessage;
		this.chunkSize = (int) Math.min(CHUNK, maxMessageSize + 1L);
	}

	/** Gives the inflater a piece of the message's payload, consumed by the next chunks. */
	void input(ByteBuffer piece) {
		if (this.streamEnded) {
			piece.position(piece.limit());
			this.full = false;
			return;
		}
		inflater().setInput(piece);
		this.full = true;
	}

	/** Gives the inflater the tail that ends a message. */
	void tail() {
		if (this.streamEnded) {
			this.full = false;
			return;
		}
		inflater().setInput(TAIL);
		this.full = true;
	}

	/**
	 * Returns whether {@link #next} may give more for the input given.
	 * @return whether to call {@link #next} again
	 */
	boolean more() {
		return this.full;
	}

	/**
	 * Inflates the next chunk, at most one byte past the allowance: a chunk longer than the
	 * allowance means the message is too big, which the caller reports once it has checked the
	 * bytes before (so that the first error in the data is the one reported, however it came in).
	 * @param allowance the bytes the message may still hold
	 * @return the chunk, a read-only view valid until the next call, possibly empty
	 * @throws WebSocketException 1007 when the data is not DEFLATE
	 */
	ByteBuffer next(long allowance) throws WebSocketException {
		ByteBuffer output = this.out;
		output.clear();
		output.limit((int) Math.min(output.capacity(), allowance + 1));
		int n;
		try {
			n = this.inflater.inflate(output);
		}
		catch (DataFormatException ex) {
			// zlib decodes the next code before it checks for room, so the bad code may lie past a
			// full output: then the message was too big first, as it is when the input comes in pieces
			n = output.position();
			if (n <= allowance) {
				throw new WebSocketException(CloseCode.INVALID_PAYLOAD, "Invalid compressed data");
			}
		}
		if (this.inflater.finished()) {
			this.streamEnded = true;
			this.full = false;
		}
		else if (this.inflater.needsDictionary()) {
			throw new WebSocketException(CloseCode.INVALID_PAYLOAD, "Invalid compressed data");
		}
		else {
			this.full = !output.hasRemaining();
		}
		if (!this.full) {
			// no reference to the caller's buffer outlives the piece
			this.inflater.setInput(NONE);
		}
		this.outView.limit(n).position(0);
		return this.outView;
	}

	/** Ends a message: the window is kept for the next unless a reset was agreed. */
	void endMessage() {
		if (this.inflater != null && (this.resetEachMessage || this.streamEnded)) {
			this.inflater.reset();
		}
		this.streamEnded = false;
		this.full = false;
	}

	/** Frees the inflater's native memory; the connection reads nothing more. */
	void close() {
		if (this.inflater != null) {
			this.inflater.end();
		}
	}

	/** The bytes inflated since the last reset, for tests of the bound. */
	long inflated() {
		return (this.inflater != null) ? this.inflater.getBytesWritten() : 0;
	}

	private Inflater inflater() {
		if (this.inflater == null) {
			this.inflater = new Inflater(true);
			this.out = ByteBuffer.allocate(this.chunkSize);
			this.outView = this.out.asReadOnlyBuffer();
		}
		return this.inflater;
	}

}
