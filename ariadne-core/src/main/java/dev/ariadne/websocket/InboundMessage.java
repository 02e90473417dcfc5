package dev.ariadne.websocket;

import java.nio.ByteBuffer;

/**
 * The message a {@link FrameReader} is inside: its type, its size so far against
 * {@link WebSocketLimits#maxMessageSize()}, its UTF-8 check for text, its inflation when
 * compressed, and the delivery of its pieces to the listener.
 */
final class InboundMessage {

	private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

	private int maxMessageSize;

	/** The limit of the messages that start from now on. */
	private int nextMaxMessageSize;

	private final Utf8Validator utf8 = new Utf8Validator();

	/** Null unless permessage-deflate was agreed. */
	private final MessageInflater inflater;

	private boolean active;

	private boolean text;

	private boolean compressed;

	/** Bytes of data so far: payload of the frames read, or what inflating them gave. */
	private long size;

	/** Whether the listener asked to be given nothing more for now ({@link FrameReader#pause}). */
	private boolean pauseRequested;

	/** Whether chunks of the piece given to the inflater last are still to deliver. */
	private boolean drainPending;

	private boolean pendingFrameEnd;

	private boolean pendingLast;

	/** Whether the message's tail is still to inflate, once the piece's chunks are delivered. */
	private boolean tailPending;

	InboundMessage(int maxMessageSize, MessageInflater inflater) {
		this.maxMessageSize = maxMessageSize;
		this.nextMaxMessageSize = maxMessageSize;
		this.inflater = inflater;
	}

	boolean isActive() {
		return this.active;
	}

	boolean isCompressed() {
		return this.compressed;
	}

	void nextMaxMessageSize(int maxMessageSize) {
		this.nextMaxMessageSize = maxMessageSize;
	}

	void start(boolean text, boolean compressed) {
		this.maxMessageSize = this.nextMaxMessageSize;
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
		this.tailPending = frameEnd && fin;
		if (piece.hasRemaining()) {
			// the inflater reads the piece where it lies: the caller's buffer, until it is drained
			this.inflater.input(piece);
			if (!drain(frameEnd && !fin, false, listener)) {
				return;
			}
		}
		else if (frameEnd && !fin) {
			deliver(EMPTY, true, false, listener);
		}
		inflateTail(listener);
	}

	private void inflateTail(FrameListener listener) throws WebSocketException {
		if (this.tailPending && !this.pauseRequested) {
			this.tailPending = false;
			this.inflater.tail();
			drain(true, true, listener);
		}
	}

	/**
	 * Asks that nothing more be delivered until {@link #resume}: a drain stops after the chunk
	 * being delivered.
	 */
	void pause() {
		this.pauseRequested = true;
	}

	/**
	 * Returns whether a pause was asked for since the last {@link #resume}.
	 * @return whether paused
	 */
	boolean paused() {
		return this.pauseRequested;
	}

	/**
	 * Delivers what a pause held back of the last piece given: its inflated chunks, and the
	 * message's tail.
	 * @return whether nothing is held back any more; {@code false} when the listener paused again
	 */
	boolean resume(FrameListener listener) throws WebSocketException {
		this.pauseRequested = false;
		if (this.drainPending) {
			this.drainPending = false;
			if (!drain(this.pendingFrameEnd, this.pendingLast, listener)) {
				return false;
			}
		}
		inflateTail(listener);
		return !this.pauseRequested && !this.tailPending;
	}

	/**
	 * Delivers the chunks the inflater gives for its input; the last ends the frame if asked.
	 * @return whether all were delivered; {@code false} when the listener paused first
	 */
	private boolean drain(boolean frameEnd, boolean last, FrameListener listener) throws WebSocketException {
		do {
			if (this.pauseRequested) {
				this.drainPending = true;
				this.pendingFrameEnd = frameEnd;
				this.pendingLast = last;
				return false;
			}
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
		return true;
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
