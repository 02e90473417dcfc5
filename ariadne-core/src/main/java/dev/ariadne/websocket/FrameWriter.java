package dev.ariadne.websocket;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Writes the frames a WebSocket server sends (RFC 6455 §5), unmasked, into a caller's buffer at
 * its position, which each method advances past what it wrote. The caller provides the room:
 * each method says how many bytes it takes, and throws {@link java.nio.BufferOverflowException}
 * when there is less, having checked its arguments first. Lengths are written big-endian in
 * their shortest encoding, whatever the buffer's byte order.
 *
 * <p>The writer checks what would make the bytes mean something else or break a rule the peer
 * enforces: a control frame fragmented, compressed or longer than 125 bytes, a close code
 * {@link CloseCode#isValid} refuses, a close reason over 123 bytes. What may be sent when (the
 * closing handshake, the order of a message's frames) is the caller's; {@link CloseHandshake}
 * keeps the first.
 */
public final class FrameWriter {

	/** The largest payload of a control frame: 125 bytes. */
	public static final int MAX_CONTROL_PAYLOAD = 125;

	/** The longest close reason, in bytes of UTF-8: 123 (125 less the code). */
	public static final int MAX_CLOSE_REASON = MAX_CONTROL_PAYLOAD - 2;

	private FrameWriter() {
	}

	/**
	 * Returns the length of an unmasked frame header for a payload length: 2, 4 or 10.
	 * @param payloadLength the payload length
	 * @return the header length
	 */
	public static int headerLength(long payloadLength) {
		return (payloadLength < 126) ? 2 : (payloadLength <= 0xffff) ? 4 : 10;
	}

	/**
	 * Writes a frame header: {@link #headerLength} bytes. The caller writes the payload after it,
	 * from wherever it is, so that it need not be copied here.
	 * @param out where to write
	 * @param opcode one of {@link Opcode}'s
	 * @param fin whether the frame ends its message (always for a control frame)
	 * @param compressed whether to set RSV1: the first frame of a message compressed with
	 * permessage-deflate
	 * @param payloadLength the payload length, 0 to 2<sup>63</sup>-1 (at most 125 for a control
	 * frame)
	 */
	public static void header(ByteBuffer out, int opcode, boolean fin, boolean compressed, long payloadLength) {
		if (!Opcode.isDefined(opcode)) {
			throw new IllegalArgumentException("Opcode 0x" + Integer.toHexString(opcode) + " is reserved");
		}
		if (payloadLength < 0) {
			throw new IllegalArgumentException("Negative payload length " + payloadLength);
		}
		if (Opcode.isControl(opcode) && (!fin || compressed || payloadLength > MAX_CONTROL_PAYLOAD)) {
			throw new IllegalArgumentException("A control frame is never fragmented or compressed and carries "
					+ "at most 125 bytes");
		}
		if (compressed && opcode == Opcode.CONTINUATION) {
			throw new IllegalArgumentException("Only the first frame of a compressed message has RSV1");
		}
		out.put((byte) ((fin ? 0x80 : 0) | (compressed ? 0x40 : 0) | opcode));
		if (payloadLength < 126) {
			out.put((byte) payloadLength);
		}
		else if (payloadLength <= 0xffff) {
			out.put((byte) 126).put((byte) (payloadLength >>> 8)).put((byte) payloadLength);
		}
		else {
			out.put((byte) 127);
			for (int shift = 56; shift >= 0; shift -= 8) {
				out.put((byte) (payloadLength >>> shift));
			}
		}
	}

	/**
	 * Writes a whole frame, its payload copied: {@link #headerLength} plus the payload's bytes.
	 * The payload is consumed from its position to its limit.
	 * @param out where to write
	 * @param opcode one of {@link Opcode}'s
	 * @param fin whether the frame ends its message
	 * @param compressed whether to set RSV1
	 * @param payload the payload
	 */
	public static void frame(ByteBuffer out, int opcode, boolean fin, boolean compressed, ByteBuffer payload) {
		header(out, opcode, fin, compressed, payload.remaining());
		out.put(payload);
	}

	/**
	 * Writes a whole message as frames of at most {@code maxFramePayload} bytes each, the first
	 * of its type, the others continuations, the last with FIN: {@link #messageLength} bytes. An
	 * empty message is one empty frame. The payload is consumed from its position to its limit.
	 * @param out where to write
	 * @param text whether it is a text message (the payload then UTF-8, which is not checked)
	 * @param payload the message
	 * @param maxFramePayload the largest payload of a frame, at least 1
	 */
	public static void message(ByteBuffer out, boolean text, ByteBuffer payload, int maxFramePayload) {
		checkMaxFramePayload(maxFramePayload);
		int opcode = text ? Opcode.TEXT : Opcode.BINARY;
		do {
			int length = Math.min(payload.remaining(), maxFramePayload);
			boolean last = length == payload.remaining();
			header(out, opcode, last, false, length);
			int end = payload.limit();
			payload.limit(payload.position() + length);
			out.put(payload);
			payload.limit(end);
			opcode = Opcode.CONTINUATION;
		}
		while (payload.hasRemaining());
	}

	/**
	 * Returns the bytes {@link #message} writes: the payload plus a header per frame.
	 * @param payloadLength the message's length
	 * @param maxFramePayload the largest payload of a frame
	 * @return the frames' size
	 */
	public static long messageLength(long payloadLength, int maxFramePayload) {
		checkMaxFramePayload(maxFramePayload);
		long frames = Math.max(1, (payloadLength + maxFramePayload - 1) / maxFramePayload);
		long full = payloadLength / maxFramePayload;
		long rest = payloadLength - full * maxFramePayload;
		long headers = full * headerLength(maxFramePayload) + ((frames > full) ? headerLength(rest) : 0);
		return payloadLength + headers;
	}

	/**
	 * Writes a ping: 2 bytes plus the payload, which is consumed.
	 * @param out where to write
	 * @param payload at most 125 bytes
	 */
	public static void ping(ByteBuffer out, ByteBuffer payload) {
		frame(out, Opcode.PING, true, false, payload);
	}

	/**
	 * Writes a pong: 2 bytes plus the payload, which is consumed.
	 * @param out where to write
	 * @param payload at most 125 bytes, those of the ping it answers
	 */
	public static void pong(ByteBuffer out, ByteBuffer payload) {
		frame(out, Opcode.PONG, true, false, payload);
	}

	/**
	 * Writes a close frame: {@link #closeLength} bytes.
	 * @param out where to write
	 * @param code a code {@link CloseCode#isValid} accepts, or {@link CloseCode#NO_STATUS} for a
	 * close frame without a code (and then without a reason)
	 * @param reason the reason, at most 123 bytes of UTF-8; empty for none
	 */
	public static void close(ByteBuffer out, int code, String reason) {
		byte[] bytes = reasonBytes(code, reason);
		if (code == CloseCode.NO_STATUS) {
			header(out, Opcode.CLOSE, true, false, 0);
			return;
		}
		header(out, Opcode.CLOSE, true, false, 2 + bytes.length);
		out.put((byte) (code >>> 8)).put((byte) code).put(bytes);
	}

	/**
	 * Returns the bytes {@link #close} writes.
	 * @param code the code, or {@link CloseCode#NO_STATUS}
	 * @param reason the reason
	 * @return 2 without a code, else 4 plus the reason's UTF-8 length
	 */
	public static int closeLength(int code, String reason) {
		return (code == CloseCode.NO_STATUS) ? 2 : 4 + reasonBytes(code, reason).length;
	}

	private static byte[] reasonBytes(int code, String reason) {
		if (code == CloseCode.NO_STATUS) {
			if (!reason.isEmpty()) {
				throw new IllegalArgumentException("A close frame without a code has no reason");
			}
			return new byte[0];
		}
		if (!CloseCode.isValid(code)) {
			throw new IllegalArgumentException("Close code " + code + " may not be sent");
		}
		byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
		if (bytes.length > MAX_CLOSE_REASON) {
			throw new IllegalArgumentException("Close reason of " + bytes.length + " bytes, more than 123");
		}
		return bytes;
	}

	private static void checkMaxFramePayload(int maxFramePayload) {
		if (maxFramePayload < 1) {
			throw new IllegalArgumentException("The largest frame payload must be positive, not " + maxFramePayload);
		}
	}

}
