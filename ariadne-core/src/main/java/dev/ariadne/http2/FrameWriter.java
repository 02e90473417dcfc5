package dev.ariadne.http2;

import java.nio.ByteBuffer;

/**
 * Writes HTTP/2 frames (RFC 9113 §4, §6) into a caller's buffer, at its position, which each
 * method advances past what it wrote. The caller provides the room: each method documents the
 * bytes it takes, and throws {@link java.nio.BufferOverflowException} without a partial frame
 * being meaningful when there is less. Multi-byte fields are written big-endian whatever the
 * buffer's byte order.
 *
 * <p>The writer checks only what would make the bytes mean something else (a length or stream
 * id out of range), before it writes anything; what may be sent when (stream states, flow control, the peer's
 * {@code SETTINGS_MAX_FRAME_SIZE}) is the caller's.
 */
public final class FrameWriter {

	private static final int MAX_LENGTH = (1 << 24) - 1;

	private FrameWriter() {
	}

	/**
	 * Writes a frame header: {@value FrameType#HEADER_LENGTH} bytes.
	 * @param out where to write
	 * @param length the payload length, 0 to 2<sup>24</sup>-1
	 * @param type the frame type
	 * @param flags the flags
	 * @param streamId the stream, 0 to 2<sup>31</sup>-1
	 */
	public static void header(ByteBuffer out, int length, int type, int flags, int streamId) {
		if (length < 0 || length > MAX_LENGTH) {
			throw new IllegalArgumentException("Frame length must be 0 to 16777215, not " + length);
		}
		if (streamId < 0) {
			throw new IllegalArgumentException("Stream id must be 0 to 2^31-1, not " + streamId);
		}
		out.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length);
		out.put((byte) type).put((byte) flags);
		putInt(out, streamId);
	}

	/**
	 * Writes a {@code SETTINGS} frame with every setting present in {@code settings}, in the
	 * order of their ids: {@link #settingsLength} bytes.
	 * @param out where to write
	 * @param settings the values to send
	 */
	public static void settings(ByteBuffer out, Settings settings) {
		header(out, settings.count() * 6, FrameType.SETTINGS, 0, 0);
		for (int id = 1; id <= Settings.ENABLE_CONNECT_PROTOCOL; id++) {
			if (settings.has(id)) {
				out.put((byte) (id >>> 8)).put((byte) id);
				putInt(out, (int) settings.get(id));
			}
		}
	}

	/**
	 * Returns the bytes {@link #settings} writes: 9 plus 6 per setting present.
	 * @param settings the values to send
	 * @return the frame's size
	 */
	public static int settingsLength(Settings settings) {
		return FrameType.HEADER_LENGTH + settings.count() * 6;
	}

	/**
	 * Writes a {@code SETTINGS} acknowledgement: 9 bytes.
	 * @param out where to write
	 */
	public static void settingsAck(ByteBuffer out) {
		header(out, 0, FrameType.SETTINGS, FrameType.FLAG_ACK, 0);
	}

	/**
	 * Writes a {@code PING} frame: 17 bytes.
	 * @param out where to write
	 * @param ack whether it answers a ping
	 * @param payload the 8 opaque bytes, as a big-endian number
	 */
	public static void ping(ByteBuffer out, boolean ack, long payload) {
		header(out, 8, FrameType.PING, ack ? FrameType.FLAG_ACK : 0, 0);
		putInt(out, (int) (payload >>> 32));
		putInt(out, (int) payload);
	}

	/**
	 * Writes a {@code GOAWAY} frame: 17 bytes plus one per character of debug data. The caller
	 * keeps the debug data within the peer's maximum frame size less 8.
	 * @param out where to write
	 * @param lastStreamId the last stream this side processed or may process
	 * @param error why the connection ends
	 * @param debugAscii debug data, ASCII (other characters are written as {@code '?'}); null or
	 * empty for none
	 */
	public static void goAway(ByteBuffer out, int lastStreamId, ErrorCode error, String debugAscii) {
		checkStream(lastStreamId);
		int debug = (debugAscii != null) ? debugAscii.length() : 0;
		header(out, 8 + debug, FrameType.GOAWAY, 0, 0);
		putInt(out, lastStreamId);
		putInt(out, error.code());
		for (int i = 0; i < debug; i++) {
			char c = debugAscii.charAt(i);
			out.put((c < 0x80) ? (byte) c : (byte) '?');
		}
	}

	/**
	 * Writes a {@code RST_STREAM} frame: 13 bytes.
	 * @param out where to write
	 * @param streamId the stream to reset, not 0
	 * @param error why it is reset
	 */
	public static void rstStream(ByteBuffer out, int streamId, ErrorCode error) {
		header(out, 4, FrameType.RST_STREAM, 0, checkStreamNotZero(streamId));
		putInt(out, error.code());
	}

	/**
	 * Writes a {@code WINDOW_UPDATE} frame: 13 bytes.
	 * @param out where to write
	 * @param streamId the stream, or 0 for the connection
	 * @param increment the increment, 1 to 2<sup>31</sup>-1
	 */
	public static void windowUpdate(ByteBuffer out, int streamId, int increment) {
		if (increment <= 0) {
			throw new IllegalArgumentException("A window increment must be 1 to 2^31-1, not " + increment);
		}
		header(out, 4, FrameType.WINDOW_UPDATE, 0, streamId);
		putInt(out, increment);
	}

	/**
	 * Writes the header of a {@code DATA} frame without padding: 9 bytes. The caller writes the
	 * {@code length} bytes of content after it, from wherever they are, so that they need not be
	 * copied here.
	 * @param out where to write
	 * @param streamId the stream, not 0
	 * @param length the content length
	 * @param endStream whether it is the stream's last frame
	 */
	public static void dataHeader(ByteBuffer out, int streamId, int length, boolean endStream) {
		header(out, length, FrameType.DATA, endStream ? FrameType.FLAG_END_STREAM : 0, checkStreamNotZero(streamId));
	}

	/**
	 * Writes a header block as one {@code HEADERS} frame followed by as many
	 * {@code CONTINUATION} frames as needed, each with at most {@code maxFrameSize} bytes of the
	 * block, {@code END_HEADERS} on the last: {@link #headersLength} bytes. An empty block is one
	 * empty {@code HEADERS} frame. The block is consumed from its position to its limit.
	 * @param out where to write
	 * @param streamId the stream, not 0
	 * @param block the encoded header block
	 * @param endStream whether the block ends the stream ({@code END_STREAM} on the
	 * {@code HEADERS} frame)
	 * @param maxFrameSize the peer's {@code SETTINGS_MAX_FRAME_SIZE}
	 */
	public static void headers(ByteBuffer out, int streamId, ByteBuffer block, boolean endStream, int maxFrameSize) {
		checkStreamNotZero(streamId);
		checkMaxFrameSize(maxFrameSize);
		int type = FrameType.HEADERS;
		int flags = endStream ? FrameType.FLAG_END_STREAM : 0;
		do {
			int length = Math.min(block.remaining(), maxFrameSize);
			boolean last = length == block.remaining();
			header(out, length, type, flags | (last ? FrameType.FLAG_END_HEADERS : 0), streamId);
			int end = block.limit();
			block.limit(block.position() + length);
			out.put(block);
			block.limit(end);
			type = FrameType.CONTINUATION;
			flags = 0;
		}
		while (block.hasRemaining());
	}

	/**
	 * Returns the bytes {@link #headers} writes for a block: the block plus 9 per frame.
	 * @param blockLength the block's length
	 * @param maxFrameSize the peer's {@code SETTINGS_MAX_FRAME_SIZE}
	 * @return the frames' size
	 */
	public static int headersLength(int blockLength, int maxFrameSize) {
		checkMaxFrameSize(maxFrameSize);
		int frames = Math.max(1, (int) ((blockLength + (long) maxFrameSize - 1) / maxFrameSize));
		return blockLength + frames * FrameType.HEADER_LENGTH;
	}

	private static void putInt(ByteBuffer out, int value) {
		out.put((byte) (value >>> 24)).put((byte) (value >>> 16)).put((byte) (value >>> 8)).put((byte) value);
	}

	private static int checkStream(int streamId) {
		if (streamId < 0) {
			throw new IllegalArgumentException("Stream id must be 0 to 2^31-1, not " + streamId);
		}
		return streamId;
	}

	private static int checkStreamNotZero(int streamId) {
		if (streamId <= 0) {
			throw new IllegalArgumentException("Stream id must be 1 to 2^31-1, not " + streamId);
		}
		return streamId;
	}

	private static void checkMaxFrameSize(int maxFrameSize) {
		if (maxFrameSize < FrameType.MIN_MAX_FRAME_SIZE || maxFrameSize > FrameType.MAX_MAX_FRAME_SIZE) {
			throw new IllegalArgumentException("The maximum frame size must be 16384 to 16777215, not " + maxFrameSize);
		}
	}

}
