package dev.ariadne.websocket;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A resumable reader of the frames a WebSocket client sends (RFC 6455 §5): fed whatever bytes
 * have arrived, split anywhere, it reports messages and control frames to a
 * {@link FrameListener}.
 *
 * <p>Usage: call {@link #read} each time bytes arrive; it consumes all of them unless the listener
 * asks for a {@link #pause}. It holds at most
 * an unfinished frame header (14 bytes) and an unfinished control frame (125 bytes), in arrays
 * made once (the second at the first control frame, which a quiet session may never get); message data is not held but unmasked in place in the caller's buffer and passed
 * on as it arrives (inflated first when compressed). The input must therefore be writable.
 *
 * <p>The reader fails the connection, throwing {@link WebSocketException}, as soon as what it
 * has read is certain to be wrong, before reading further:
 * <ul>
 * <li>1002 (protocol error): a frame that is not masked (§5.1); RSV2 or RSV3 set, or RSV1 set
 * without permessage-deflate, or on a control frame or a continuation (RFC 7692 §6.1); a
 * reserved opcode; a control frame fragmented or longer than 125 bytes (§5.5); a continuation
 * outside a message, a new message inside one (§5.4); a length not in its minimal encoding or
 * with the most significant bit set (§5.2); a close frame of 1 byte or with a code
 * {@link CloseCode#isValid} refuses (§7.4);</li>
 * <li>1007 (invalid payload): text that is not UTF-8, at its first invalid byte, however the
 * message is fragmented or the input split (§8.1); a close reason that is not UTF-8; compressed
 * data that is not DEFLATE;</li>
 * <li>1009 (too big): a data frame longer than {@link WebSocketLimits#maxFrameSize()}, or a
 * message going over {@link WebSocketLimits#maxMessageSize()}, found on the frame header when
 * the message is not compressed, else as it is inflated.</li>
 * </ul>
 * After a close frame the reader reports nothing more and discards what follows (§5.5.1). Once
 * {@code read} has thrown, the reader is finished: a later call throws
 * {@link IllegalStateException}. {@link #close} frees the inflater of a connection that agreed
 * to permessage-deflate. One reader per connection; not thread-safe.
 */
public final class FrameReader implements AutoCloseable {

	private enum State {

		/** Inside a frame header. */
		HEADER,

		/** Inside a frame's payload. */
		PAYLOAD,

		/** After a close frame: input is discarded. */
		CLOSED,

		/** After an error. */
		FAILED

	}

	private static final int MAX_CONTROL = 125;

	private WebSocketLimits limits;

	private final boolean masked;

	private final boolean rsv1Allowed;

	private final InboundMessage message;

	private final byte[] header = new byte[14];

	/** A control frame's payload, made at the first control frame: most sessions never get one. */
	private byte[] control;

	private ByteBuffer controlView;

	private State state = State.HEADER;

	private int headerFill;

	/** The header's length, known once its first two bytes are. */
	private int headerLength = 2;

	private boolean headerChecked;

	private boolean fin;

	private int opcode;

	private int maskKey;

	private long remaining;

	/** The position in the payload of the next byte, modulo 4: the phase of the mask. */
	private int maskOffset;

	private int controlFill;

	/** A read-only view of the current input, made once per call and dropped at its end. */
	private ByteBuffer view;

	/**
	 * Creates a reader of a client's frames.
	 * @param limits the limits to enforce
	 * @param deflate the permessage-deflate agreement, or {@code null} when none was agreed (RSV1
	 * then fails the connection)
	 */
	public FrameReader(WebSocketLimits limits, PerMessageDeflate deflate) {
		this(limits, deflate, true);
	}

	/** Creates a reader; a client's reader of server frames expects them unmasked. */
	FrameReader(WebSocketLimits limits, PerMessageDeflate deflate, boolean masked) {
		this.limits = limits;
		this.masked = masked;
		this.rsv1Allowed = deflate != null;
		MessageInflater inflater = (deflate != null)
				? new MessageInflater(deflate.clientNoContextTakeover(), limits.maxMessageSize()) : null;
		this.message = new InboundMessage(limits.maxMessageSize(), inflater);
	}

	/**
	 * Returns whether a close frame has been read: the reader reports nothing more.
	 * @return whether the client's close frame arrived
	 */
	public boolean isClosed() {
		return this.state == State.CLOSED;
	}

	/**
	 * Returns whether the reader is between frames and outside any message: what a connection
	 * closed now would lose nothing of.
	 * @return whether no frame and no message is partly read
	 */
	public boolean isIdle() {
		return this.state == State.HEADER && this.headerFill == 0 && !this.message.isActive();
	}

	/**
	 * Enforces other limits from the next frame on (a message under way keeps the size limit it
	 * began with): an endpoint's own, set after the connection opened.
	 * @param limits the limits to enforce
	 */
	public void limits(WebSocketLimits limits) {
		this.limits = limits;
		this.message.nextMaxMessageSize(limits.maxMessageSize());
	}

	/**
	 * Consumes all the bytes of {@code input}, from its position to its limit, unmasking payloads
	 * in place and reporting what they complete; the position ends at the limit.
	 * @param input the bytes received, heap or direct, writable
	 * @param listener where messages and control frames go
	 * @throws WebSocketException the error that fails the connection, found by the reader or
	 * thrown by the listener
	 * @throws IllegalStateException if an earlier call threw
	 * @throws IllegalArgumentException if the input is read-only
	 */
	public void read(ByteBuffer input, FrameListener listener) throws WebSocketException {
		if (this.state == State.FAILED) {
			throw new IllegalStateException("The frame reader has failed; the connection must close");
		}
		if (input.isReadOnly() && this.masked) {
			throw new IllegalArgumentException("The input must be writable: payloads are unmasked in place");
		}
		boolean done = false;
		try {
			if (this.message.paused() && !this.message.resume(listener)) {
				done = true;
				return;
			}
			while (!this.message.paused() && step(input, listener)) {
				// each step consumes input or moves to the next state
			}
			done = true;
		}
		finally {
			this.view = null;
			if (!done) {
				this.state = State.FAILED;
			}
		}
	}

	/**
	 * Stops the {@link #read} in progress once the listener call that asks for it returns: for a
	 * listener that will take nothing more for now (back-pressure). {@code read} returns with the
	 * input's position after the last byte it used; the next {@code read} goes on from there, with
	 * the same input and the bytes that came since, and delivers first what the pause held back.
	 * A compressed message's data lies in the input until it is inflated, so the caller keeps the
	 * bytes before the position as they are until the next {@code read} returns without a pause.
	 * Only from a {@link FrameListener} method.
	 */
	public void pause() {
		this.message.pause();
	}

	/**
	 * Returns whether the last {@link #read} stopped because the listener asked for a pause.
	 * @return whether paused
	 */
	public boolean isPaused() {
		return this.message.paused();
	}

	/** Frees what the reader holds outside the heap (an inflater); it reads nothing more after. */
	@Override
	public void close() {
		this.message.close();
		if (this.state != State.CLOSED) {
			this.state = State.FAILED;
		}
	}

	/** The bytes inflated of the current or last message, for tests of the bound. */
	long inflated() {
		return this.message.inflated();
	}

	/** Makes progress in the current state; returns false only when input is needed. */
	private boolean step(ByteBuffer input, FrameListener listener) throws WebSocketException {
		switch (this.state) {
			case HEADER -> {
				return header(input, listener);
			}
			case PAYLOAD -> {
				return payload(input, listener);
			}
			default -> {
				input.position(input.limit());
				return false;
			}
		}
	}

	private boolean header(ByteBuffer input, FrameListener listener) throws WebSocketException {
		int n = Math.min(input.remaining(), this.headerLength - this.headerFill);
		if (n == 0) {
			return false;
		}
		input.get(this.header, this.headerFill, n);
		this.headerFill += n;
		if (this.headerFill == 2 && !this.headerChecked) {
			this.headerLength = FrameHeader.check(this.header[0], this.header[1], this.masked, this.rsv1Allowed,
					this.message.isActive());
			this.headerChecked = true;
		}
		if (this.headerFill < this.headerLength) {
			return input.hasRemaining();
		}
		long length = FrameHeader.length(this.header);
		this.fin = (this.header[0] & 0x80) != 0;
		this.opcode = this.header[0] & 0x0f;
		this.maskKey = this.masked ? FrameHeader.int32(this.header, this.headerLength - 4) : 0;
		this.headerFill = 0;
		this.headerLength = 2;
		this.headerChecked = false;
		startFrame(length, (this.header[0] & 0x40) != 0, input, listener);
		return true;
	}

	private void startFrame(long length, boolean rsv1, ByteBuffer input, FrameListener listener)
			throws WebSocketException {
		this.remaining = length;
		this.maskOffset = 0;
		if (Opcode.isControl(this.opcode)) {
			this.controlFill = 0;
			if (this.control == null) {
				this.control = new byte[MAX_CONTROL];
				this.controlView = ByteBuffer.wrap(this.control).asReadOnlyBuffer();
			}
			this.state = State.PAYLOAD;
			if (length == 0) {
				control(listener);
			}
			return;
		}
		if (length > this.limits.maxFrameSize()) {
			throw new WebSocketException(CloseCode.MESSAGE_TOO_BIG, "Frame too big");
		}
		if (this.opcode != Opcode.CONTINUATION) {
			this.message.start(this.opcode == Opcode.TEXT, rsv1);
		}
		this.message.checkFrame(length);
		this.state = State.PAYLOAD;
		if (length == 0) {
			this.state = State.HEADER;
			this.message.data(view(input), input.position(), 0, true, this.fin, listener);
		}
	}

	private boolean payload(ByteBuffer input, FrameListener listener) throws WebSocketException {
		int n = (int) Math.min(input.remaining(), this.remaining);
		if (n == 0) {
			return false;
		}
		int start = input.position();
		if (this.masked) {
			Mask.apply(input, start, start + n, this.maskKey, this.maskOffset);
			this.maskOffset = (this.maskOffset + n) & 3;
		}
		input.position(start + n);
		this.remaining -= n;
		boolean frameEnd = this.remaining == 0;
		if (frameEnd) {
			this.state = State.HEADER;
		}
		if (Opcode.isControl(this.opcode)) {
			input.get(start, this.control, this.controlFill, n);
			this.controlFill += n;
			if (frameEnd) {
				control(listener);
			}
			return true;
		}
		this.message.data(view(input), start, n, frameEnd, this.fin, listener);
		return true;
	}

	/** Reports a whole control frame. */
	private void control(FrameListener listener) throws WebSocketException {
		this.state = State.HEADER;
		ByteBuffer payload = this.controlView.limit(this.controlFill).position(0);
		switch (this.opcode) {
			case Opcode.PING -> listener.ping(payload);
			case Opcode.PONG -> listener.pong(payload);
			default -> {
				int code = CloseCode.NO_STATUS;
				String reason = "";
				if (this.controlFill == 1) {
					throw new WebSocketException(CloseCode.PROTOCOL_ERROR, "Close frame of 1 byte");
				}
				if (this.controlFill >= 2) {
					code = ((this.control[0] & 0xff) << 8) | (this.control[1] & 0xff);
					if (!CloseCode.isValid(code)) {
						throw new WebSocketException(CloseCode.PROTOCOL_ERROR, "Invalid close code");
					}
					Utf8Validator utf8 = new Utf8Validator();
					if (utf8.check(payload, 2, this.controlFill) >= 0 || !utf8.isComplete()) {
						throw new WebSocketException(CloseCode.INVALID_PAYLOAD, "Close reason not valid UTF-8");
					}
					reason = new String(this.control, 2, this.controlFill - 2, StandardCharsets.UTF_8);
				}
				this.state = State.CLOSED;
				listener.close(code, reason);
			}
		}
	}

	private ByteBuffer view(ByteBuffer input) {
		if (this.view == null) {
			this.view = input.asReadOnlyBuffer();
		}
		this.view.limit(input.limit());
		return this.view;
	}

}
