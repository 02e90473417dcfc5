package dev.ariadne.http2;

import java.nio.ByteBuffer;

/**
 * Reads frames from bytes that arrive in pieces of any size (RFC 9113 §4, §6) and reports them
 * to a {@link FrameListener}.
 *
 * <p>Every call consumes all its input. {@code DATA} content is reported piece by piece as it
 * arrives; any other frame whole, as a view of the input when it arrived in one piece, else from
 * a holding array that is dropped once the frame is reported, so an idle connection holds none.
 * The reader checks each frame's own format; what needs a connection's state (stream states,
 * the order of a header block's frames, flow control, a zero increment) is the listener's.
 * After a connection error, its own or the listener's, the reader is finished.
 */
public final class FrameReader {

	private enum State {

		HEADER, PAD_LENGTH, CONTENT, PAYLOAD, SKIP, FAILED

	}

	private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

	private final byte[] header = new byte[FrameType.HEADER_LENGTH];

	private int headerFill;

	private int maxFrameSize;

	private State state = State.HEADER;

	private int length;

	private int type;

	private int flags;

	private int streamId;

	/** Payload bytes of the current frame not yet consumed. */
	private int remaining;

	/** Padding that follows the current DATA frame's content. */
	private int padding;

	private byte[] hold;

	private int holdFill;

	/**
	 * Creates a reader.
	 * @param maxFrameSize the largest payload accepted, at least 16,384
	 */
	public FrameReader(int maxFrameSize) {
		maxFrameSize(maxFrameSize);
	}

	/**
	 * Changes the largest payload accepted: the {@code SETTINGS_MAX_FRAME_SIZE} this side
	 * advertises.
	 * @param maxFrameSize 16,384 to 2<sup>24</sup>-1
	 */
	public void maxFrameSize(int maxFrameSize) {
		if (maxFrameSize < FrameType.MIN_MAX_FRAME_SIZE || maxFrameSize > FrameType.MAX_MAX_FRAME_SIZE) {
			throw new IllegalArgumentException("maxFrameSize must be between 16384 and 16777215, not " + maxFrameSize);
		}
		this.maxFrameSize = maxFrameSize;
	}

	/**
	 * Reads all of {@code input}, reporting the frames it completes or continues.
	 * @param input the bytes that arrived
	 * @param listener receives the frames
	 * @throws Http2Exception a connection error; the reader is then finished
	 */
	public void read(ByteBuffer input, FrameListener listener) throws Http2Exception {
		if (this.state == State.FAILED) {
			throw new IllegalStateException("The frame reader ended with a connection error");
		}
		try {
			while (input.hasRemaining()) {
				switch (this.state) {
					case HEADER -> readHeader(input, listener);
					case PAD_LENGTH -> readPadLength(input, listener);
					case CONTENT -> readContent(input, listener);
					case PAYLOAD -> readPayload(input, listener);
					case SKIP -> skip(input);
					default -> throw new IllegalStateException(this.state.name());
				}
			}
		}
		catch (Http2Exception | RuntimeException ex) {
			this.state = State.FAILED;
			this.hold = null;
			throw ex;
		}
	}

	/** Whether a split frame's payload is being held: for tests. */
	boolean holding() {
		return this.hold != null;
	}

	private void readHeader(ByteBuffer input, FrameListener listener) throws Http2Exception {
		if (this.headerFill == 0 && input.remaining() >= FrameType.HEADER_LENGTH) {
			input.get(this.header);
		}
		else {
			int take = Math.min(FrameType.HEADER_LENGTH - this.headerFill, input.remaining());
			input.get(this.header, this.headerFill, take);
			this.headerFill += take;
			if (this.headerFill < FrameType.HEADER_LENGTH) {
				return;
			}
			this.headerFill = 0;
		}
		byte[] h = this.header;
		this.length = ((h[0] & 0xFF) << 16) | ((h[1] & 0xFF) << 8) | (h[2] & 0xFF);
		this.type = h[3] & 0xFF;
		this.flags = h[4] & 0xFF;
		// The reserved bit is ignored on receipt (§4.1).
		this.streamId = ((h[5] & 0x7F) << 24) | ((h[6] & 0xFF) << 16) | ((h[7] & 0xFF) << 8) | (h[8] & 0xFF);
		this.remaining = this.length;
		begin(listener);
	}

	private void begin(FrameListener listener) throws Http2Exception {
		int length = this.length;
		if (length > this.maxFrameSize) {
			throw error(ErrorCode.FRAME_SIZE_ERROR, "Frame larger than SETTINGS_MAX_FRAME_SIZE");
		}
		switch (this.type) {
			case FrameType.DATA -> {
				onStream();
				if (has(FrameType.FLAG_PADDED)) {
					if (length < 1) {
						throw error(ErrorCode.FRAME_SIZE_ERROR, "Padded DATA frame without its pad length");
					}
					next(State.PAD_LENGTH);
				}
				else {
					this.padding = 0;
					listener.dataFrame(this.streamId, length, has(FrameType.FLAG_END_STREAM));
					startContent(listener);
				}
			}
			case FrameType.HEADERS -> {
				onStream();
				int fixed = (has(FrameType.FLAG_PADDED) ? 1 : 0) + (has(FrameType.FLAG_PRIORITY) ? 5 : 0);
				if (length < fixed) {
					throw error(ErrorCode.FRAME_SIZE_ERROR, "HEADERS frame too short for its padding and priority");
				}
				payload(listener);
			}
			case FrameType.PRIORITY -> {
				onStream();
				if (length != 5) {
					listener.streamError(this.streamId, ErrorCode.FRAME_SIZE_ERROR, "PRIORITY frame not 5 bytes long");
					next(State.SKIP);
				}
				else {
					payload(listener);
				}
			}
			case FrameType.RST_STREAM -> {
				onStream();
				exactly(4, "RST_STREAM");
				payload(listener);
			}
			case FrameType.SETTINGS -> {
				onConnection();
				if (has(FrameType.FLAG_ACK) && length != 0) {
					throw error(ErrorCode.FRAME_SIZE_ERROR, "SETTINGS acknowledgement with a payload");
				}
				if (length % 6 != 0) {
					throw error(ErrorCode.FRAME_SIZE_ERROR, "SETTINGS length not a multiple of 6");
				}
				payload(listener);
			}
			case FrameType.PUSH_PROMISE -> {
				onStream();
				listener.pushPromise(this.streamId);
				next(State.SKIP);
			}
			case FrameType.PING -> {
				onConnection();
				exactly(8, "PING");
				payload(listener);
			}
			case FrameType.GOAWAY -> {
				onConnection();
				if (length < 8) {
					throw error(ErrorCode.FRAME_SIZE_ERROR, "GOAWAY frame shorter than 8 bytes");
				}
				payload(listener);
			}
			case FrameType.WINDOW_UPDATE -> {
				exactly(4, "WINDOW_UPDATE");
				payload(listener);
			}
			case FrameType.CONTINUATION -> {
				onStream();
				payload(listener);
			}
			default -> {
				listener.unknownFrame(this.type, this.streamId);
				next(State.SKIP);
			}
		}
	}

	private void readPadLength(ByteBuffer input, FrameListener listener) throws Http2Exception {
		this.padding = input.get() & 0xFF;
		this.remaining--;
		if (this.padding > this.remaining) {
			throw error(ErrorCode.PROTOCOL_ERROR, "Padding as long as the DATA frame or longer");
		}
		listener.dataFrame(this.streamId, this.length, has(FrameType.FLAG_END_STREAM));
		startContent(listener);
	}

	private void startContent(FrameListener listener) throws Http2Exception {
		if (this.remaining == this.padding) {
			listener.data(this.streamId, EMPTY, true);
			next(State.SKIP);
		}
		else {
			this.state = State.CONTENT;
		}
	}

	private void readContent(ByteBuffer input, FrameListener listener) throws Http2Exception {
		int content = this.remaining - this.padding;
		int take = Math.min(content, input.remaining());
		ByteBuffer piece = input.slice(input.position(), take);
		input.position(input.position() + take);
		this.remaining -= take;
		boolean last = take == content;
		if (last) {
			next(State.SKIP);
		}
		listener.data(this.streamId, piece, last);
	}

	private void payload(FrameListener listener) throws Http2Exception {
		if (this.length == 0) {
			dispatch(EMPTY, listener);
			next(State.HEADER);
		}
		else {
			this.state = State.PAYLOAD;
		}
	}

	private void readPayload(ByteBuffer input, FrameListener listener) throws Http2Exception {
		if (this.hold == null && input.remaining() >= this.length) {
			ByteBuffer payload = input.slice(input.position(), this.length);
			input.position(input.position() + this.length);
			next(State.HEADER);
			dispatch(payload, listener);
			return;
		}
		if (this.hold == null) {
			this.hold = new byte[this.length];
			this.holdFill = 0;
		}
		int take = Math.min(this.length - this.holdFill, input.remaining());
		input.get(this.hold, this.holdFill, take);
		this.holdFill += take;
		if (this.holdFill == this.length) {
			ByteBuffer payload = ByteBuffer.wrap(this.hold);
			this.hold = null;
			next(State.HEADER);
			dispatch(payload, listener);
		}
	}

	private void skip(ByteBuffer input) {
		int take = Math.min(this.remaining, input.remaining());
		input.position(input.position() + take);
		this.remaining -= take;
		if (this.remaining == 0) {
			this.state = State.HEADER;
		}
	}

	private void next(State state) {
		this.state = (state == State.SKIP && this.remaining == 0) ? State.HEADER : state;
	}

	private void dispatch(ByteBuffer p, FrameListener listener) throws Http2Exception {
		int streamId = this.streamId;
		switch (this.type) {
			case FrameType.HEADERS -> {
				int offset = 0;
				int pad = 0;
				if (has(FrameType.FLAG_PADDED)) {
					pad = p.get(0) & 0xFF;
					offset = 1;
				}
				int dependency = -1;
				if (has(FrameType.FLAG_PRIORITY)) {
					dependency = p.getInt(offset) & Integer.MAX_VALUE;
					offset += 5;
				}
				if (pad > this.length - offset) {
					throw error(ErrorCode.PROTOCOL_ERROR, "Padding as long as the HEADERS frame or longer");
				}
				listener.headers(streamId, p.slice(offset, this.length - offset - pad), dependency,
						has(FrameType.FLAG_END_HEADERS), has(FrameType.FLAG_END_STREAM));
			}
			case FrameType.PRIORITY -> listener.priority(streamId, p.getInt(0) & Integer.MAX_VALUE);
			case FrameType.RST_STREAM -> listener.rstStream(streamId, p.getInt(0));
			case FrameType.SETTINGS -> {
				if (has(FrameType.FLAG_ACK)) {
					listener.settingsAck();
					return;
				}
				Settings settings = new Settings();
				for (int i = 0; i < this.length; i += 6) {
					int id = p.getShort(i) & 0xFFFF;
					long value = p.getInt(i + 2) & 0xFFFF_FFFFL;
					if (Settings.isKnown(id)) {
						Settings.check(id, value);
						settings.set(id, value);
					}
				}
				listener.settings(settings);
			}
			case FrameType.PING -> listener.ping(has(FrameType.FLAG_ACK), p.getLong(0));
			case FrameType.GOAWAY -> listener.goAway(p.getInt(0) & Integer.MAX_VALUE, p.getInt(4),
					p.slice(8, this.length - 8));
			case FrameType.WINDOW_UPDATE -> listener.windowUpdate(streamId, p.getInt(0) & Integer.MAX_VALUE);
			case FrameType.CONTINUATION -> listener.continuation(streamId, p, has(FrameType.FLAG_END_HEADERS));
			default -> throw new IllegalStateException("Frame type " + this.type + " has no whole payload");
		}
	}


	private boolean has(int flag) {
		return (this.flags & flag) != 0;
	}

	private void onStream() throws Http2Exception {
		if (this.streamId == 0) {
			throw error(ErrorCode.PROTOCOL_ERROR, frameName() + " frame on stream 0");
		}
	}

	private void onConnection() throws Http2Exception {
		if (this.streamId != 0) {
			throw error(ErrorCode.PROTOCOL_ERROR, frameName() + " frame on a stream");
		}
	}

	private void exactly(int expected, String name) throws Http2Exception {
		if (this.length != expected) {
			throw error(ErrorCode.FRAME_SIZE_ERROR, name + " frame not " + expected + " bytes long");
		}
	}

	private String frameName() {
		return switch (this.type) {
			case FrameType.DATA -> "DATA";
			case FrameType.HEADERS -> "HEADERS";
			case FrameType.PRIORITY -> "PRIORITY";
			case FrameType.RST_STREAM -> "RST_STREAM";
			case FrameType.SETTINGS -> "SETTINGS";
			case FrameType.PUSH_PROMISE -> "PUSH_PROMISE";
			case FrameType.PING -> "PING";
			case FrameType.GOAWAY -> "GOAWAY";
			case FrameType.CONTINUATION -> "CONTINUATION";
			default -> "WINDOW_UPDATE";
		};
	}

	private static Http2Exception error(ErrorCode error, String reason) {
		return Http2Exception.connection(error, reason);
	}

}
