package dev.ariadne.websocket;

import java.nio.ByteBuffer;

/**
 * The message a {@link FrameReader} is inside: its type, its size so far against
 * {@link WebSocketLimits#maxMessageSize()}, its UTF-8 check for text, its inflation when
 * compressed, and the delivery of its pieces to the listener.
 */
final class InboundMessage {

	private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

	private final int maxMessageSize;

	private final Utf8Validator utf8 = new Utf8Validator();

	/** Null unless permessage-deflate was agreed. */
	private final MessageInflater inflater;

	private boolean active;

	private boolean text;

	private boolean compressed;

	/** Bytes of data so far: payload of the frames read, or what inflating them gave. */
	private long size;

	InboundMessage(int maxMessageSize, MessageInflater inflater) {
		this.maxMessageSize = maxMessageSize;
		this.inflater = inflater;
	}

	boolean isActive() {
		return this.active;
	}

	boolean isCompressed() {
		return this.compressed;
	}

	void start(boolean text, boolean compressed) {
		this.active = true;
		this.text = text;
		this.compressed = compressed;
		this.size = 0;
		this.utf8.reset();
	}

	/**
	 * Checks a data frame's payload length against what the message may still hold, when the
	 * frame is not compressed (a compressed one is checked as it is inflated).
	 */
	void checkFrame(long length) throws WebSocketException {
		if (!this.compressed && length > this.maxMessageSize - this.size) {
			throw new WebSocketException(CloseCode.MESSAGE_TOO_BIG, "Message too big");
		}
	}

	/**
	 * Takes a piece of the current frame's payload, unmasked: {@code view[from, from + length)}.
	 * @param frameEnd whether the piece ends the frame
	 * @param fin whether the frame ends the message
	 */
	void data(ByteBuffer view, int from, int length, boolean frameEnd, boolean fin, FrameListener listener)
			throws WebSocketException {
		view.limit(from + length).position(from);
		if (this.compressed) {
			inflate(view, frameEnd, fin, listener);
			return;
		}
		this.size += length;
		boolean last = frameEnd && fin;
		deliver(view, frameEnd, last, listener);
	}

	private void inflate(ByteBuffer piece, boolean frameEnd, boolean fin, FrameListener listener)
			throws WebSocketException {
		if (piece.hasRemaining()) {
			this.inflater.input(piece);
			drain(frameEnd && !fin, false, listener);
		}
		else if (frameEnd && !fin) {
			deliver(EMPTY, true, false, listener);
		}
		if (frameEnd && fin) {
			this.inflater.tail();
			drain(true, true, listener);
		}
	}

	/** Delivers the chunks the inflater gives for its input; the last ends the frame if asked. */
	private void drain(boolean frameEnd, boolean last, FrameListener listener) throws WebSocketException {
		do {
			long allowance = this.maxMessageSize - this.size;
			ByteBuffer chunk = this.inflater.next(allowance);
			if (chunk.remaining() > allowance) {
				if (this.text) {
					checkText(chunk, chunk.position(), chunk.position() + (int) allowance);
				}
				throw new WebSocketException(CloseCode.MESSAGE_TOO_BIG, "Message too big once inflated");
			}
			this.size += chunk.remaining();
			boolean done = !this.inflater.more();
			if (chunk.hasRemaining() || (done && frameEnd)) {
				deliver(chunk, done && frameEnd, done && last, listener);
			}
		}
		while (this.inflater.more());
	}

	private void deliver(ByteBuffer data, boolean frameEnd, boolean last, FrameListener listener)
			throws WebSocketException {
		if (this.text) {
			checkText(data, data.position(), data.limit());
			if (last && !this.utf8.isComplete()) {
				throw new WebSocketException(CloseCode.INVALID_PAYLOAD, "Text message ends inside a UTF-8 sequence");
			}
		}
		if (last) {
			end();
		}
		if (this.text) {
			listener.text(data, frameEnd, last);
		}
		else {
			listener.binary(data, frameEnd, last);
		}
	}

	private void checkText(ByteBuffer data, int from, int to) throws WebSocketException {
		if (this.utf8.check(data, from, to) >= 0) {
			throw new WebSocketException(CloseCode.INVALID_PAYLOAD, "Text message not valid UTF-8");
		}
	}

	private void end() {
		this.active = false;
		if (this.compressed) {
			this.inflater.endMessage();
		}
	}

	void close() {
		if (this.inflater != null) {
			this.inflater.close();
		}
	}

	long inflated() {
		return (this.inflater != null) ? this.inflater.inflated() : 0;
	}

}
