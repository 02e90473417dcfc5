package dev.ariadne.servlet.websocket;

import dev.ariadne.websocket.MaskedUtf8Validator;

/**
 * Watches a client's frames on their way to Tyrus and finds, before Tyrus does, the first data
 * frame over the size limits, from its header, and the first byte of text that is not UTF-8, as
 * it arrives.
 *
 * <p>Tyrus holds a whole frame before it reads it, and applies the session's message size limit
 * only to a message sent in several frames: a message of one frame over the limit would be held
 * up to Tyrus's buffer and then fail the connection with 1011. This guard refuses a frame longer
 * than the message limit or than {@code websocket.max-frame-size} with 1009 (RFC 6455 §7.4.1,
 * too big) at its header instead, as Tomcat and Jetty do, whatever its size. Tyrus also checks
 * UTF-8 only once a frame is whole, so invalid text in a frame sent in pieces, or at the end of
 * a fragment, is found late (Autobahn's cases 6.4.2-4); the guard checks each piece of a text
 * message's payload as it comes ({@link MaskedUtf8Validator}: unmasked in place, checked, masked
 * again, so Tyrus gets the bytes as sent) and refuses the message with 1007 at its first invalid
 * byte, as Tomcat and the core's routes do. Compressed messages (RSV1) and everything else
 * (opcodes, control frames, close reasons) stay Tyrus's to judge. It also tells when the
 * client's close frame went by ({@link #closeSeen}), so that a connection whose server closed
 * first reads until the closing handshake is over, and how many whole messages went by
 * ({@link #messagesEnded}), for the listener's count of messages received.
 *
 * <p>One per connection; called by one thread at a time (the reader's callbacks).
 */
final class FrameGuard {

	/** The close code of a frame over a size limit (too big). */
	static final int TOO_BIG = 1009;

	/** The close code of text that is not UTF-8 (invalid payload). */
	static final int NOT_UTF8 = 1007;

	private static final int CONTINUATION = 0x0;

	private static final int TEXT = 0x1;

	private static final int BINARY = 0x2;

	private static final int CLOSE = 0x8;

	/** Longest header: 2 bytes, an 8-byte length, a 4-byte mask. */
	private static final int MAX_HEADER = 14;

	private final long maxText;

	private final long maxBinary;

	private final long maxFrame;

	private final byte[] header = new byte[MAX_HEADER];

	private int headerLength;

	/** The current frame's payload length. */
	private long payloadLength;

	/** Payload bytes of the current frame still to go by. */
	private long payloadLeft;

	/** The current frame's masking key. */
	private int maskKey;

	/** Whether the current frame's payload is text to check. */
	private boolean checkText;

	/** The opcode of the message in progress (text or binary), for its continuation frames. */
	private int messageType = TEXT;

	/** Whether the message in progress is compressed (RSV1 on its first frame). */
	private boolean compressed;

	/** Whether the header of a close frame went by. */
	private boolean closeSeen;

	/** Whether the current frame is the last of a message within the limits. */
	private boolean lastOfMessage;

	/** The messages whose last frame went by since {@link #messagesEnded()} last answered. */
	private int messagesEnded;

	/** Made at the first text frame: a session that sends none holds none. */
	private MaskedUtf8Validator utf8;

	/** Where in the bytes of the current call the current frame began (its header). */
	private int frameStart;

	/** The close code of the first frame refused, 0 while none is. */
	private int refusal;

	/** How many bytes of the current call went before the refused frame. */
	private int accepted;

	/**
	 * Creates a guard.
	 * @param maxText the largest text frame accepted, in bytes
	 * @param maxBinary the largest binary frame accepted, in bytes
	 * @param maxFrame the largest data frame accepted whatever its message, in bytes
	 */
	FrameGuard(long maxText, long maxBinary, long maxFrame) {
		this.maxText = maxText;
		this.maxBinary = maxBinary;
		this.maxFrame = maxFrame;
	}

	/**
	 * Follows the frames through bytes the client sent, in order.
	 * @param bytes the bytes, masked as sent; checking text unmasks them in place and masks them
	 * again before it returns
	 * @param offset where they start
	 * @param length how many
	 * @return how many of the bytes, from {@code offset}, come before the first frame refused in
	 * them: {@code length} while every frame is within the limits; once a frame is refused
	 * ({@link #refusal}), the connection is to be closed with its code, and the guard goes on
	 * following the frames, unchecked, for {@link #closeSeen}
	 */
	int accept(byte[] bytes, int offset, int length) {
		boolean refusedBefore = this.refusal != 0;
		this.accepted = length;
		this.frameStart = offset;
		int position = offset;
		int end = offset + length;
		while (position < end) {
			if (this.payloadLeft > 0) {
				int count = (int) Math.min(this.payloadLeft, end - position);
				if (this.checkText && !this.utf8.check(bytes, position, position + count, this.maskKey,
						this.payloadLength - this.payloadLeft)) {
					refuse(NOT_UTF8, offset);
				}
				this.payloadLeft -= count;
				position += count;
				if (this.payloadLeft == 0) {
					frameEnded(offset);
				}
				continue;
			}
			if (this.headerLength == 0) {
				this.frameStart = position;
			}
			this.header[this.headerLength++] = bytes[position++];
			int needed = headerSize();
			if (this.headerLength < needed) {
				continue;
			}
			if (!frame(needed)) {
				refuse(TOO_BIG, offset);
			}
			this.headerLength = 0;
			if (this.payloadLeft == 0) {
				frameEnded(offset);
			}
		}
		return refusedBefore ? 0 : this.accepted;
	}

	/**
	 * Returns why the guard refused the client's frames.
	 * @return 0 while it refused none, else the close code of the first refused:
	 * {@value #TOO_BIG} (too big) or {@value #NOT_UTF8} (text not UTF-8)
	 */
	int refusal() {
		return this.refusal;
	}

	/**
	 * Returns how many whole messages (text or binary, however many frames each took) went by
	 * since the last call, for the listener's count of messages received; none from the refused
	 * frame on.
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

	/** A whole header of {@code size} bytes was read: checks the frame and sets its payload to follow. */
	private boolean frame(int size) {
		int opcode = this.header[0] & 0x0F;
		long payload = payloadLength();
		this.payloadLength = payload;
		this.payloadLeft = payload;
		this.checkText = false;
		if (payload < 0) {
			// the top bit set (RFC 6455 §5.2 forbids it): too big for any limit, and no frame
			// boundary can follow from it
			this.payloadLeft = Long.MAX_VALUE;
			return false;
		}
		if (opcode == CLOSE) {
			this.closeSeen = true;
		}
		if (opcode == TEXT || opcode == BINARY) {
			this.messageType = opcode;
			this.compressed = (this.header[0] & 0x40) != 0;
		}
		if (opcode != TEXT && opcode != BINARY && opcode != CONTINUATION) {
			return true;
		}
		long limit = (this.messageType == BINARY) ? this.maxBinary : this.maxText;
		boolean within = payload <= limit && payload <= this.maxFrame;
		this.lastOfMessage = within && (this.header[0] & 0x80) != 0;
		boolean masked = (this.header[1] & 0x80) != 0;
		if (within && masked && this.refusal == 0 && this.messageType == TEXT && !this.compressed) {
			startText(opcode == TEXT, size);
		}
		return within;
	}

	private long payloadLength() {
		int length = this.header[1] & 0x7F;
		if (length == 126) {
			return ((this.header[2] & 0xFF) << 8) | (this.header[3] & 0xFF);
		}
		if (length == 127) {
			long payload = 0;
			for (int i = 2; i < 10; i++) {
				payload = (payload << 8) | (this.header[i] & 0xFF);
			}
			return payload;
		}
		return length;
	}

	/** A frame of a text message starts: its payload is checked as it goes by. */
	private void startText(boolean first, int headerSize) {
		if (this.utf8 == null) {
			this.utf8 = new MaskedUtf8Validator();
		}
		else if (first) {
			this.utf8.reset();
		}
		int key = 0;
		for (int i = headerSize - 4; i < headerSize; i++) {
			key = (key << 8) | (this.header[i] & 0xFF);
		}
		this.maskKey = key;
		this.checkText = true;
	}

	/** The current frame's payload went by. */
	private void frameEnded(int offset) {
		if (this.checkText && this.lastOfMessage && !this.utf8.isComplete()) {
			// the message ends inside a UTF-8 sequence
			refuse(NOT_UTF8, offset);
		}
		this.checkText = false;
		if (this.lastOfMessage) {
			this.lastOfMessage = false;
			if (this.refusal == 0) {
				this.messagesEnded++;
			}
		}
	}

	/** Refuses the current frame, unless one was refused already. */
	private void refuse(int code, int offset) {
		if (this.refusal == 0) {
			this.refusal = code;
			this.accepted = this.frameStart - offset;
			this.checkText = false;
			this.lastOfMessage = false;
		}
	}

}
