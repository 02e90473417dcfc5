package dev.ariadne.http2;

import java.nio.ByteBuffer;

/**
 * A resumable reader of HTTP/2 frames (RFC 9113 §4, §6): fed whatever bytes have arrived, split
 * anywhere, it reports each frame to a {@link FrameListener}.
 *
 * <p>Usage: call {@link #read} each time bytes arrive; it consumes all of them, keeping an
 * unfinished frame header, or an unfinished payload of a frame the listener gets whole, for the
 * next call. {@code DATA} content is not held: it is passed on in pieces as it arrives, padding
 * removed ({@link FrameListener#dataFrame} once the pad length is known, then
 * {@link FrameListener#data} pieces, the last with {@code endOfFrame}, possibly empty). Every
 * other frame is reported whole: as a read-only view of the input when its payload is in one
 * input buffer, else from a holding buffer released once the frame is reported. The payloads of
 * {@code PUSH_PROMISE}, of unknown types and of {@code PRIORITY} frames of the wrong length are
 * skipped unheld, and reported once skipped.
 *
 * <p>The reader checks each frame's own format: its length against {@link #maxFrameSize(int)}
 * and its type, whether its type may be on stream 0, its padding, the values of a
 * {@code SETTINGS} frame ({@link Settings#check}). A violation is a connection error thrown from
 * {@code read}, except a {@code PRIORITY} frame of the wrong length, reported as
 * {@link FrameListener#streamError} (§6.3). Padding larger than a frame's remaining payload is a
 * {@code PROTOCOL_ERROR}, a padded frame too short for its pad length a {@code FRAME_SIZE_ERROR}
 * (§4.2). Reserved bits, unknown flags and unknown settings are ignored. The reader does not check what needs a connection's state: stream
 * states, the sequence of {@code HEADERS} and {@code CONTINUATION} frames, flow-control windows,
 * a {@code WINDOW_UPDATE} increment of 0. Those are the listener's.
 *
 * <p>Once {@code read} has thrown, the reader is finished: a later call throws
 * {@link IllegalStateException}. One reader per direction of a connection; not thread-safe.
 */
public final class FrameReader {

	private enum State {

		/** Inside the 9 bytes of a frame header. */
		HEADER,

		/** Inside the payload of a frame the listener gets whole. */
		PAYLOAD,

		/** Expecting the pad length of a padded {@code DATA} frame. */
		PAD_LENGTH,

		/** Inside the content of a {@code DATA} frame. */
		CONTENT,

		/** Inside bytes that are skipped: padding, or a payload the listener does not get. */
		SKIP

	}

	private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

	private final byte[] header = new byte[FrameType.HEADER_LENGTH];

	private int maxFrameSize;

	private State state = State.HEADER;

	private boolean finished;

	private int headerFill;

	private int length;

	private int type;

	private int flags;

	private int streamId;

	/** Bytes of a {@code DATA} frame's content, then of its padding, still to come. */
	private int contentLeft;

	private int paddingLeft;

	/** Bytes still to skip, and whether the listener is told about the frame when they are. */
	private int skipLeft;

	private boolean reportSkipped;

	/** The payload read so far of a frame split between inputs; null otherwise. */
	private ByteBuffer holding;

	/**
	 * A read-only view of the current input, made once per call and dropped at its end, so that
	 * frames are passed on without a copy and no reference to the caller's buffer outlives it.
	 */
	private ByteBuffer view;

	/**
	 * Creates a reader for one connection.
	 * @param maxFrameSize the largest payload accepted, the {@code SETTINGS_MAX_FRAME_SIZE} this
	 * side has announced and the peer acknowledged (16384 before that)
	 */
	public FrameReader(int maxFrameSize) {
		maxFrameSize(maxFrameSize);
	}

	/**
	 * Changes the largest payload accepted, from the next frame header on; the caller raises it
	 * once the peer has acknowledged a {@code SETTINGS} frame that raised it.
	 * @param maxFrameSize the limit, 16384 to 2<sup>24</sup>-1
	 */
	public void maxFrameSize(int maxFrameSize) {
		if (maxFrameSize < FrameType.MIN_MAX_FRAME_SIZE || maxFrameSize > FrameType.MAX_MAX_FRAME_SIZE) {
			throw new IllegalArgumentException("The maximum frame size must be 16384 to 16777215, not " + maxFrameSize);
		}
		this.maxFrameSize = maxFrameSize;
	}

	/**
	 * Returns the largest payload accepted.
	 * @return the limit in bytes
	 */
	public int maxFrameSize() {
		return this.maxFrameSize;
	}

	/**
	 * Returns the capacity of the buffer holding a split payload, for tests that check that it
	 * is released and never larger than the limit.
	 * @return the capacity in bytes, 0 when no payload is held
	 */
	int holdingCapacity() {
		return (this.holding != null) ? this.holding.capacity() : 0;
	}

	/**
	 * Returns whether the reader is between frames, having consumed nothing of the next one.
	 * @return whether no frame is partly read
	 */
	public boolean isIdle() {
		return this.state == State.HEADER && this.headerFill == 0;
	}

	/**
	 * Consumes all the bytes of {@code input}, from its position to its limit, reporting the
	 * frames they complete; the position ends at the limit.
	 * @param input the bytes received, heap or direct
	 * @param listener where frames go
	 * @throws Http2Exception a connection error, found by the reader or thrown by the listener
	 * @throws IllegalStateException if an earlier call threw
	 */
	public void read(ByteBuffer input, FrameListener listener) throws Http2Exception {
		if (this.finished) {
			throw new IllegalStateException("The frame reader has failed; the connection must close");
		}
		boolean done = false;
		try {
			while (step(input, listener)) {
				// each step consumes input or moves to the next state
			}
			done = true;
		}
		finally {
			this.view = null;
			if (!done) {
				this.finished = true;
				this.holding = null;
			}
		}
	}

	/** Makes progress in the current state; returns false only when input is needed. */
	private boolean step(ByteBuffer input, FrameListener listener) throws Http2Exception {
		switch (this.state) {
			case HEADER -> {
				return header(input, listener);
			}
			case PAYLOAD -> {
				return payload(input, listener);
			}
			case PAD_LENGTH -> {
				if (!input.hasRemaining()) {
					return false;
				}
				int padding = input.get() & 0xff;
				if (padding > this.length - 1) {
					throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "DATA padding longer than the frame");
				}
				startContent(this.length - 1 - padding, padding, listener);
				return true;
			}
			case CONTENT -> {
				return content(input, listener);
			}
			default -> {
				return skip(input, listener);
			}
		}
	}

	private boolean header(ByteBuffer input, FrameListener listener) throws Http2Exception {
		int n = Math.min(input.remaining(), FrameType.HEADER_LENGTH - this.headerFill);
		if (n == 0) {
			return false;
		}
		input.get(this.header, this.headerFill, n);
		this.headerFill += n;
		if (this.headerFill < FrameType.HEADER_LENGTH) {
			return false;
		}
		this.headerFill = 0;
		byte[] h = this.header;
		this.length = ((h[0] & 0xff) << 16) | ((h[1] & 0xff) << 8) | (h[2] & 0xff);
		this.type = h[3] & 0xff;
		this.flags = h[4] & 0xff;
		this.streamId = int32(h[5], h[6], h[7], h[8]) & 0x7fff_ffff;
		if (this.length > this.maxFrameSize) {
			throw Http2Exception.connection(ErrorCode.FRAME_SIZE_ERROR, "Frame larger than SETTINGS_MAX_FRAME_SIZE");
		}
		frameStart(listener);
		return true;
	}

	/** Checks a frame header's length and stream for its type and picks how to read on. */
	private void frameStart(FrameListener listener) throws Http2Exception {
		switch (this.type) {
			case FrameType.DATA -> {
				onStream();
				if (!has(FrameType.FLAG_PADDED)) {
					startContent(this.length, 0, listener);
				}
				else if (this.length < 1) {
					throw frameSize("Padded DATA frame without its pad length");
				}
				else {
					this.state = State.PAD_LENGTH;
				}
			}
			case FrameType.HEADERS -> {
				onStream();
				int fixed = (has(FrameType.FLAG_PADDED) ? 1 : 0) + (has(FrameType.FLAG_PRIORITY) ? 5 : 0);
				if (this.length < fixed) {
					throw frameSize("HEADERS frame too short for its pad length and priority");
				}
				this.state = State.PAYLOAD;
			}
			case FrameType.PRIORITY -> {
				onStream();
				if (this.length != 5) {
					startSkip(this.length, true);
				}
				else {
					this.state = State.PAYLOAD;
				}
			}
			case FrameType.RST_STREAM -> {
				onStream();
				fixedLength(4, "RST_STREAM");
			}
			case FrameType.SETTINGS -> {
				onConnection();
				if (has(FrameType.FLAG_ACK) && this.length != 0) {
					throw frameSize("SETTINGS acknowledgement with a payload");
				}
				if (this.length % 6 != 0) {
					throw frameSize("SETTINGS length not a multiple of 6");
				}
				this.state = State.PAYLOAD;
			}
			case FrameType.PUSH_PROMISE -> {
				onStream();
				startSkip(this.length, true);
			}
			case FrameType.PING -> {
				onConnection();
				fixedLength(8, "PING");
			}
			case FrameType.GOAWAY -> {
				onConnection();
				if (this.length < 8) {
					throw frameSize("GOAWAY shorter than 8 bytes");
				}
				this.state = State.PAYLOAD;
			}
			case FrameType.WINDOW_UPDATE -> fixedLength(4, "WINDOW_UPDATE");
			case FrameType.CONTINUATION -> {
				onStream();
				this.state = State.PAYLOAD;
			}
			default -> startSkip(this.length, true);
		}
	}

	private void onStream() throws Http2Exception {
		if (this.streamId == 0) {
			throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, name(this.type) + " frame on stream 0");
		}
	}

	private void onConnection() throws Http2Exception {
		if (this.streamId != 0) {
			throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, name(this.type) + " frame on a stream");
		}
	}

	private void fixedLength(int expected, String name) throws Http2Exception {
		if (this.length != expected) {
			throw frameSize(name + " length must be " + expected);
		}
		this.state = State.PAYLOAD;
	}

	/** Reports a frame the listener gets whole, from input in place or from the holding buffer. */
	private boolean payload(ByteBuffer input, FrameListener listener) throws Http2Exception {
		if (this.holding == null && input.remaining() >= this.length) {
			int start = input.position();
			input.position(start + this.length);
			this.state = State.HEADER;
			deliver(view(input), start, listener);
			return true;
		}
		if (!input.hasRemaining()) {
			return false;
		}
		if (this.holding == null) {
			this.holding = ByteBuffer.allocate(this.length);
		}
		int n = Math.min(input.remaining(), this.holding.remaining());
		int end = input.limit();
		input.limit(input.position() + n);
		this.holding.put(input);
		input.limit(end);
		if (!this.holding.hasRemaining()) {
			// released before the listener runs, so that even a throwing listener leaves no array held
			ByteBuffer whole = this.holding.flip().asReadOnlyBuffer();
			this.holding = null;
			this.state = State.HEADER;
			deliver(whole, 0, listener);
		}
		return true;
	}

	/** Reports a whole payload: {@code source[start, start + length)}. */
	private void deliver(ByteBuffer source, int start, FrameListener listener) throws Http2Exception {
		switch (this.type) {
			case FrameType.HEADERS -> headers(source, start, listener);
			case FrameType.CONTINUATION -> listener.continuation(this.streamId,
					range(source, start, this.length), has(FrameType.FLAG_END_HEADERS));
			case FrameType.PRIORITY -> listener.priority(this.streamId, int32(source, start) & 0x7fff_ffff);
			case FrameType.RST_STREAM -> listener.rstStream(this.streamId, int32(source, start));
			case FrameType.SETTINGS -> settings(source, start, listener);
			case FrameType.PING -> listener.ping(has(FrameType.FLAG_ACK),
					((long) int32(source, start) << 32) | (int32(source, start + 4) & 0xffff_ffffL));
			case FrameType.GOAWAY -> listener.goAway(int32(source, start) & 0x7fff_ffff, int32(source, start + 4),
					range(source, start + 8, this.length - 8));
			case FrameType.WINDOW_UPDATE -> listener.windowUpdate(this.streamId, int32(source, start) & 0x7fff_ffff);
			default -> throw new IllegalStateException("Frame type " + this.type + " is not read whole");
		}
	}

	private void headers(ByteBuffer source, int start, FrameListener listener) throws Http2Exception {
		int at = start;
		int padding = 0;
		if (has(FrameType.FLAG_PADDED)) {
			padding = source.get(at++) & 0xff;
		}
		int dependency = -1;
		if (has(FrameType.FLAG_PRIORITY)) {
			dependency = int32(source, at) & 0x7fff_ffff;
			at += 5;
		}
		int fragment = this.length - (at - start) - padding;
		if (fragment < 0) {
			throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "HEADERS padding longer than the frame");
		}
		listener.headers(this.streamId, range(source, at, fragment), dependency, has(FrameType.FLAG_END_HEADERS),
				has(FrameType.FLAG_END_STREAM));
	}

	private void settings(ByteBuffer source, int start, FrameListener listener) throws Http2Exception {
		if (has(FrameType.FLAG_ACK)) {
			listener.settingsAck();
			return;
		}
		Settings settings = new Settings();
		for (int at = start; at < start + this.length; at += 6) {
			int id = ((source.get(at) & 0xff) << 8) | (source.get(at + 1) & 0xff);
			long value = int32(source, at + 2) & 0xffff_ffffL;
			Settings.check(id, value);
			if (Settings.isKnown(id)) {
				settings.set(id, value);
			}
		}
		listener.settings(settings);
	}

	/** Reports a {@code DATA} frame's start, then its content if it has none. */
	private void startContent(int content, int padding, FrameListener listener) throws Http2Exception {
		this.contentLeft = content;
		this.paddingLeft = padding;
		this.state = State.CONTENT;
		listener.dataFrame(this.streamId, this.length, has(FrameType.FLAG_END_STREAM));
		if (content == 0) {
			startSkip(padding, false);
			listener.data(this.streamId, EMPTY, true);
		}
	}

	private boolean content(ByteBuffer input, FrameListener listener) throws Http2Exception {
		int n = Math.min(input.remaining(), this.contentLeft);
		if (n == 0) {
			return false;
		}
		int start = input.position();
		input.position(start + n);
		this.contentLeft -= n;
		boolean last = this.contentLeft == 0;
		if (last) {
			startSkip(this.paddingLeft, false);
		}
		listener.data(this.streamId, range(view(input), start, n), last);
		return true;
	}

	private void startSkip(int bytes, boolean report) {
		this.skipLeft = bytes;
		this.reportSkipped = report;
		this.state = State.SKIP;
	}

	private boolean skip(ByteBuffer input, FrameListener listener) throws Http2Exception {
		if (this.skipLeft > 0) {
			int n = Math.min(input.remaining(), this.skipLeft);
			if (n == 0) {
				return false;
			}
			input.position(input.position() + n);
			this.skipLeft -= n;
			if (this.skipLeft > 0) {
				return true;
			}
		}
		this.state = State.HEADER;
		if (this.reportSkipped) {
			switch (this.type) {
				case FrameType.PRIORITY -> listener.streamError(this.streamId, ErrorCode.FRAME_SIZE_ERROR,
						"PRIORITY length must be 5");
				case FrameType.PUSH_PROMISE -> listener.pushPromise(this.streamId);
				default -> listener.unknownFrame(this.type, this.streamId);
			}
		}
		return true;
	}

	private ByteBuffer view(ByteBuffer input) {
		if (this.view == null) {
			this.view = input.asReadOnlyBuffer();
		}
		// the listener may have moved the view's position and limit; indexes here are absolute
		this.view.position(0);
		this.view.limit(input.limit());
		return this.view;
	}

	private static ByteBuffer range(ByteBuffer source, int start, int length) {
		if (length == 0) {
			return EMPTY;
		}
		source.limit(start + length);
		source.position(start);
		return source;
	}

	private boolean has(int flag) {
		return (this.flags & flag) != 0;
	}

	private static Http2Exception frameSize(String reason) {
		return Http2Exception.connection(ErrorCode.FRAME_SIZE_ERROR, reason);
	}

	/** Reads a big-endian 32-bit value, whatever byte order the buffer was given. */
	private static int int32(ByteBuffer source, int at) {
		return int32(source.get(at), source.get(at + 1), source.get(at + 2), source.get(at + 3));
	}

	private static int int32(byte b0, byte b1, byte b2, byte b3) {
		return ((b0 & 0xff) << 24) | ((b1 & 0xff) << 16) | ((b2 & 0xff) << 8) | (b3 & 0xff);
	}

	private static String name(int type) {
		return switch (type) {
			case FrameType.DATA -> "DATA";
			case FrameType.HEADERS -> "HEADERS";
			case FrameType.PRIORITY -> "PRIORITY";
			case FrameType.RST_STREAM -> "RST_STREAM";
			case FrameType.SETTINGS -> "SETTINGS";
			case FrameType.PUSH_PROMISE -> "PUSH_PROMISE";
			case FrameType.PING -> "PING";
			case FrameType.GOAWAY -> "GOAWAY";
			case FrameType.CONTINUATION -> "CONTINUATION";
			default -> "type 0x" + Integer.toHexString(type);
		};
	}

}
