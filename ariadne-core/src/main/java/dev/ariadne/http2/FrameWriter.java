package dev.ariadne.http2;

import java.nio.ByteBuffer;

/**
 * Writes frames (RFC 9113 §4.1, §6) into a caller's buffer, at its position; the caller provides
 * the room each method documents.
 */
public final class FrameWriter {

	private FrameWriter() {
	}

	/**
	 * Writes a frame header: 9 bytes.
	 * @param out the buffer
	 * @param length the payload length, at most 2<sup>24</sup>-1
	 * @param type the frame type
	 * @param flags the flags
	 * @param streamId the stream, or 0
	 */
	public static void header(ByteBuffer out, int length, int type, int flags, int streamId) {
		if (length < 0 || length > FrameType.MAX_MAX_FRAME_SIZE) {
			throw new IllegalArgumentException("Frame length out of range: " + length);
		}
		out.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length);
		out.put((byte) type).put((byte) flags).putInt(streamId & Integer.MAX_VALUE);
	}

	/**
	 * Returns the bytes {@link #settings} writes: 9, and 6 per setting present.
	 * @param settings the settings
	 * @return the frame's length, header included
	 */
	public static int settingsLength(Settings settings) {
		return FrameType.HEADER_LENGTH + 6 * settings.count();
	}

	/**
	 * Writes a {@code SETTINGS} frame with every setting present.
	 * @param out the buffer
	 * @param settings the settings
	 */
	public static void settings(ByteBuffer out, Settings settings) {
		header(out, 6 * settings.count(), FrameType.SETTINGS, 0, 0);
		for (int id = 1; id <= Settings.ENABLE_CONNECT_PROTOCOL; id++) {
			if (settings.has(id)) {
				out.putShort((short) id).putInt((int) settings.get(id));
			}
		}
	}

	/**
	 * Writes a {@code SETTINGS} acknowledgement: 9 bytes.
	 * @param out the buffer
	 */
	public static void settingsAck(ByteBuffer out) {
		header(out, 0, FrameType.SETTINGS, FrameType.FLAG_ACK, 0);
	}

	/**
	 * Writes a {@code PING}: 17 bytes.
	 * @param out the buffer
	 * @param ack whether it answers a ping
	 * @param payload the 8 opaque bytes
	 */
	public static void ping(ByteBuffer out, boolean ack, long payload) {
		header(out, 8, FrameType.PING, ack ? FrameType.FLAG_ACK : 0, 0);
		out.putLong(payload);
	}

	/**
	 * Writes a {@code GOAWAY}: 17 bytes and the debug text's length.
	 * @param out the buffer
	 * @param lastStreamId the last stream the server processed or may process
	 * @param error the error code
	 * @param debug ASCII debug data, or {@code null}
	 */
	public static void goAway(ByteBuffer out, int lastStreamId, ErrorCode error, String debug) {
		int length = (debug != null) ? debug.length() : 0;
		header(out, 8 + length, FrameType.GOAWAY, 0, 0);
		out.putInt(lastStreamId & Integer.MAX_VALUE).putInt(error.code());
		for (int i = 0; i < length; i++) {
			char c = debug.charAt(i);
			out.put((byte) ((c < 0x80) ? c : '?'));
		}
	}

	/**
	 * Writes a {@code RST_STREAM}: 13 bytes.
	 * @param out the buffer
	 * @param streamId the stream
	 * @param error the error code
	 */
	public static void rstStream(ByteBuffer out, int streamId, ErrorCode error) {
		header(out, 4, FrameType.RST_STREAM, 0, streamId);
		out.putInt(error.code());
	}

	/**
	 * Writes a {@code WINDOW_UPDATE}: 13 bytes.
	 * @param out the buffer
	 * @param streamId the stream, or 0 for the connection
	 * @param increment 1 to 2<sup>31</sup>-1
	 */
	public static void windowUpdate(ByteBuffer out, int streamId, int increment) {
		header(out, 4, FrameType.WINDOW_UPDATE, 0, streamId);
		out.putInt(increment & Integer.MAX_VALUE);
	}

	/**
	 * Writes the header of a {@code DATA} frame, 9 bytes; its payload follows from the caller's
	 * own buffer, without a copy here.
	 * @param out the buffer
	 * @param streamId the stream
	 * @param length the payload length
	 * @param endStream whether it ends the stream
	 */
	public static void dataHeader(ByteBuffer out, int streamId, int length, boolean endStream) {
		header(out, length, FrameType.DATA, endStream ? FrameType.FLAG_END_STREAM : 0, streamId);
	}

	/**
	 * Returns the bytes {@link #headers} writes for a block.
	 * @param blockLength the encoded block's length
	 * @param maxFrameSize the peer's {@code SETTINGS_MAX_FRAME_SIZE}
	 * @return the frames' length, headers included
	 */
	public static int headersLength(int blockLength, int maxFrameSize) {
		int frames = Math.max(1, (blockLength + maxFrameSize - 1) / maxFrameSize);
		return blockLength + frames * FrameType.HEADER_LENGTH;
	}

	/**
	 * Writes a header block as a {@code HEADERS} frame and as many {@code CONTINUATION} frames as
	 * the peer's frame size needs, {@code END_HEADERS} on the last.
	 * @param out the buffer, with {@link #headersLength} bytes free
	 * @param streamId the stream
	 * @param block the encoded block, consumed
	 * @param endStream whether the block ends the stream
	 * @param maxFrameSize the peer's {@code SETTINGS_MAX_FRAME_SIZE}
	 */
	public static void headers(ByteBuffer out, int streamId, ByteBuffer block, boolean endStream, int maxFrameSize) {
		int type = FrameType.HEADERS;
		int flags = endStream ? FrameType.FLAG_END_STREAM : 0;
		do {
			int length = Math.min(block.remaining(), maxFrameSize);
			boolean last = length == block.remaining();
			header(out, length, type, flags | (last ? FrameType.FLAG_END_HEADERS : 0), streamId);
			int limit = block.limit();
			block.limit(block.position() + length);
			out.put(block);
			block.limit(limit);
			type = FrameType.CONTINUATION;
			flags = 0;
		}
		while (block.hasRemaining());
	}

}
