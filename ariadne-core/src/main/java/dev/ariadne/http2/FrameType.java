package dev.ariadne.http2;

/**
 * Frame types and flags of RFC 9113 §6, and the frame header's layout (§4.1).
 */
public final class FrameType {

	/** The size of every frame header: length (24), type (8), flags (8), stream id (31). */
	public static final int HEADER_LENGTH = 9;

	/** {@code DATA}. */
	public static final int DATA = 0x0;

	/** {@code HEADERS}. */
	public static final int HEADERS = 0x1;

	/** {@code PRIORITY} (deprecated by RFC 9113, still parsed). */
	public static final int PRIORITY = 0x2;

	/** {@code RST_STREAM}. */
	public static final int RST_STREAM = 0x3;

	/** {@code SETTINGS}. */
	public static final int SETTINGS = 0x4;

	/** {@code PUSH_PROMISE}, which a client never sends. */
	public static final int PUSH_PROMISE = 0x5;

	/** {@code PING}. */
	public static final int PING = 0x6;

	/** {@code GOAWAY}. */
	public static final int GOAWAY = 0x7;

	/** {@code WINDOW_UPDATE}. */
	public static final int WINDOW_UPDATE = 0x8;

	/** {@code CONTINUATION}. */
	public static final int CONTINUATION = 0x9;

	/** {@code END_STREAM} on {@code DATA} and {@code HEADERS}. */
	public static final int FLAG_END_STREAM = 0x1;

	/** {@code ACK} on {@code SETTINGS} and {@code PING}. */
	public static final int FLAG_ACK = 0x1;

	/** {@code END_HEADERS} on {@code HEADERS}, {@code PUSH_PROMISE} and {@code CONTINUATION}. */
	public static final int FLAG_END_HEADERS = 0x4;

	/** {@code PADDED} on {@code DATA}, {@code HEADERS} and {@code PUSH_PROMISE}. */
	public static final int FLAG_PADDED = 0x8;

	/** {@code PRIORITY} on {@code HEADERS}. */
	public static final int FLAG_PRIORITY = 0x20;

	/** The smallest value {@code SETTINGS_MAX_FRAME_SIZE} may have, and its initial value. */
	public static final int MIN_MAX_FRAME_SIZE = 16_384;

	/** The largest value {@code SETTINGS_MAX_FRAME_SIZE} may have. */
	public static final int MAX_MAX_FRAME_SIZE = (1 << 24) - 1;

	private FrameType() {
	}

}
