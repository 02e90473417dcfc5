package dev.ariadne.servlet.websocket;

/**
 * Watches the frame headers of a client's bytes on their way to Tyrus and finds the first data
 * frame longer than the message size limit, from its header, before its payload arrives.
 *
 * <p>Tyrus holds a whole frame before it reads it, and applies the session's message size limit
 * only to a message sent in several frames: a message of one frame over the limit would be held
 * up to Tyrus's buffer and then fail the connection with 1011. This guard refuses it with 1009
 * (RFC 6455 §7.4.1, too big) at its header instead, as Tomcat and Jetty do, whatever its size.
 * It reads only headers: the payload is skipped, never copied, unmasked or checked; everything
 * else (masking, opcodes, control frames, UTF-8) stays Tyrus's to judge. It also tells when the
 * client's close frame went by ({@link #closeSeen}), so that a connection whose server closed
 * first reads until the closing handshake is over, and how many whole messages went by
 * ({@link #messagesEnded}), for the listener's count of messages received.
 *
 * <p>One per connection; called by one thread at a time (the reader's callbacks).
 */
final class FrameGuard {

	private static final int CONTINUATION = 0x0;

	private static final int TEXT = 0x1;

	private static final int BINARY = 0x2;

	private static final int CLOSE = 0x8;

	/** Longest header: 2 bytes, an 8-byte length, a 4-byte mask. */
	private static final int MAX_HEADER = 14;

	private final long maxText;

	private final long maxBinary;

	private final byte[] header = new byte[MAX_HEADER];

	private int headerLength;

	/** Payload bytes of the current frame still to skip. */
	private long payloadLeft;

	/** The opcode of the message in progress (text or binary), for its continuation frames. */
	private int messageType = TEXT;

	/** Whether the header of a close frame went by. */
	private boolean closeSeen;

	/** Whether the current frame is the last of a message within the limits. */
	private boolean lastOfMessage;

	/** The messages whose last frame went by since {@link #messagesEnded()} last answered. */
	private int messagesEnded;

	/**
	 * Creates a guard.
	 * @param maxText the largest text frame accepted, in bytes
	 * @param maxBinary the largest binary frame accepted, in bytes
	 */
	FrameGuard(long maxText, long maxBinary) {
		this.maxText = maxText;
		this.maxBinary = maxBinary;
	}

	/**
	 * Follows the frames through bytes the client sent, in order.
	 * @param bytes the bytes
	 * @param offset where they start
	 * @param length how many
	 * @return whether every frame header in the bytes is within the limits; once false, the
	 * connection is to be closed with 1009 (the guard goes on following the frames, past the
	 * refused one, for {@link #closeSeen})
	 */
	boolean accept(byte[] bytes, int offset, int length) {
		boolean accepted = true;
		int position = offset;
		int end = offset + length;
		while (position < end) {
			if (this.payloadLeft > 0) {
				int skipped = (int) Math.min(this.payloadLeft, end - position);
				this.payloadLeft -= skipped;
				position += skipped;
				if (this.payloadLeft == 0) {
					frameEnded();
				}
				continue;
			}
			this.header[this.headerLength++] = bytes[position++];
			int needed = headerSize();
			if (this.headerLength < needed) {
				continue;
			}
			accepted &= frame();
			this.headerLength = 0;
			if (this.payloadLeft == 0) {
				frameEnded();
			}
		}
		return accepted;
	}

	/**
	 * Returns how many whole messages (text or binary, however many frames each took) went by
	 * since the last call, for the listener's count of messages received.
	 * @return the count
	 */
	int messagesEnded() {
		int ended = this.messagesEnded;
		this.messagesEnded = 0;
		return ended;
	}

	/**
	 * Returns whether the client's close frame went by.
	 * @return whether the client closed its side of the session
	 */
	boolean closeSeen() {
		return this.closeSeen;
	}

	/** The length of the header read so far, as far as its first bytes tell. */
	private int headerSize() {
		if (this.headerLength < 2) {
			return 2;
		}
		int second = this.header[1] & 0xFF;
		int size = 2 + (((second & 0x80) != 0) ? 4 : 0);
		int length = second & 0x7F;
		return size + ((length == 126) ? 2 : (length == 127) ? 8 : 0);
	}

	/** A whole header was read: checks the frame and sets its payload to skip. */
	private boolean frame() {
		int opcode = this.header[0] & 0x0F;
		int length = this.header[1] & 0x7F;
		long payload;
		if (length == 126) {
			payload = ((this.header[2] & 0xFF) << 8) | (this.header[3] & 0xFF);
		}
		else if (length == 127) {
			payload = 0;
			for (int i = 2; i < 10; i++) {
				payload = (payload << 8) | (this.header[i] & 0xFF);
			}
			if (payload < 0) {
				// the top bit set (RFC 6455 §5.2 forbids it): too big for any limit, and no frame
				// boundary can follow from it
				this.payloadLeft = Long.MAX_VALUE;
				return false;
			}
		}
		else {
			payload = length;
		}
		this.payloadLeft = payload;
		if (opcode == CLOSE) {
			this.closeSeen = true;
		}
		if (opcode == TEXT || opcode == BINARY) {
			this.messageType = opcode;
		}
		if (opcode == TEXT || opcode == BINARY || opcode == CONTINUATION) {
			long limit = (this.messageType == BINARY) ? this.maxBinary : this.maxText;
			boolean within = payload <= limit;
			this.lastOfMessage = within && (this.header[0] & 0x80) != 0;
			return within;
		}
		return true;
	}

	/** The current frame's payload went by. */
	private void frameEnded() {
		if (this.lastOfMessage) {
			this.lastOfMessage = false;
			this.messagesEnded++;
		}
	}

}
