package dev.ariadne.http2;

import java.util.Arrays;

/**
 * A set of HTTP/2 settings (RFC 9113 §6.5.2): those a {@code SETTINGS} frame carries, or those in
 * force on one side of a connection. A setting not present is {@code -1}.
 */
public final class Settings {

	/** {@code SETTINGS_HEADER_TABLE_SIZE}. */
	public static final int HEADER_TABLE_SIZE = 0x1;

	/** {@code SETTINGS_ENABLE_PUSH}. */
	public static final int ENABLE_PUSH = 0x2;

	/** {@code SETTINGS_MAX_CONCURRENT_STREAMS}. */
	public static final int MAX_CONCURRENT_STREAMS = 0x3;

	/** {@code SETTINGS_INITIAL_WINDOW_SIZE}. */
	public static final int INITIAL_WINDOW_SIZE = 0x4;

	/** {@code SETTINGS_MAX_FRAME_SIZE}. */
	public static final int MAX_FRAME_SIZE = 0x5;

	/** {@code SETTINGS_MAX_HEADER_LIST_SIZE}. */
	public static final int MAX_HEADER_LIST_SIZE = 0x6;

	/** {@code SETTINGS_ENABLE_CONNECT_PROTOCOL} (RFC 8441). */
	public static final int ENABLE_CONNECT_PROTOCOL = 0x8;

	/** The largest flow-control window, 2<sup>31</sup>-1. */
	public static final int MAX_WINDOW = Integer.MAX_VALUE;

	/** The initial flow-control window of every stream and of the connection. */
	public static final int DEFAULT_WINDOW = 65_535;

	/** The initial header table size. */
	public static final int DEFAULT_HEADER_TABLE_SIZE = 4_096;

	private static final int KNOWN = 9;

	private final long[] values = new long[KNOWN];

	/**
	 * Creates a set with no setting present.
	 */
	public Settings() {
		Arrays.fill(this.values, -1);
	}

	/**
	 * Returns the values in force before any {@code SETTINGS} frame: RFC 9113 §6.5.2's initial
	 * values, with no limit on concurrent streams or on the header list.
	 * @return a new set
	 */
	public static Settings initial() {
		return new Settings().set(HEADER_TABLE_SIZE, DEFAULT_HEADER_TABLE_SIZE)
			.set(ENABLE_PUSH, 1)
			.set(INITIAL_WINDOW_SIZE, DEFAULT_WINDOW)
			.set(MAX_FRAME_SIZE, FrameType.MIN_MAX_FRAME_SIZE);
	}

	/**
	 * Checks one setting's value as RFC 9113 §6.5.2 requires of a received {@code SETTINGS}.
	 * @param id the setting
	 * @param value its value, an unsigned 32-bit number
	 * @throws Http2Exception a connection error naming the setting
	 */
	public static void check(int id, long value) throws Http2Exception {
		switch (id) {
			case ENABLE_PUSH, ENABLE_CONNECT_PROTOCOL -> {
				if (value > 1) {
					throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, name(id) + " must be 0 or 1");
				}
			}
			case INITIAL_WINDOW_SIZE -> {
				if (value > MAX_WINDOW) {
					throw Http2Exception.connection(ErrorCode.FLOW_CONTROL_ERROR,
							"SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1");
				}
			}
			case MAX_FRAME_SIZE -> {
				if (value < FrameType.MIN_MAX_FRAME_SIZE || value > FrameType.MAX_MAX_FRAME_SIZE) {
					throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR,
							"SETTINGS_MAX_FRAME_SIZE outside 16384..16777215");
				}
			}
			default -> {
			}
		}
	}

	/**
	 * Returns whether a setting is one this codec knows; others are ignored (§6.5.2).
	 * @param id the setting
	 * @return whether it is known
	 */
	public static boolean isKnown(int id) {
		return id > 0 && id < KNOWN && id != 7;
	}

	/**
	 * Sets a known setting, replacing any value it had.
	 * @param id the setting
	 * @param value its value, 0 to 2<sup>32</sup>-1
	 * @return this set
	 */
	public Settings set(int id, long value) {
		if (!isKnown(id)) {
			throw new IllegalArgumentException("Unknown setting " + id);
		}
		if (value < 0 || value > 0xFFFF_FFFFL) {
			throw new IllegalArgumentException(name(id) + " must be an unsigned 32-bit value, not " + value);
		}
		this.values[id] = value;
		return this;
	}

	/**
	 * Returns a setting's value.
	 * @param id the setting
	 * @return its value, or -1 when it is not present
	 */
	public long get(int id) {
		return isKnown(id) ? this.values[id] : -1;
	}

	/**
	 * Returns whether a setting is present.
	 * @param id the setting
	 * @return whether it has a value
	 */
	public boolean has(int id) {
		return get(id) >= 0;
	}

	/**
	 * Copies every setting present here into another set.
	 * @param target the set to update
	 */
	public void applyTo(Settings target) {
		for (int id = 1; id < KNOWN; id++) {
			if (this.values[id] >= 0) {
				target.values[id] = this.values[id];
			}
		}
	}

	/**
	 * Returns how many settings are present: a {@code SETTINGS} frame carries 6 bytes for each.
	 * @return the count
	 */
	public int count() {
		int count = 0;
		for (int id = 1; id < KNOWN; id++) {
			if (this.values[id] >= 0) {
				count++;
			}
		}
		return count;
	}

	/**
	 * Returns a setting's name as RFC 9113 spells it.
	 * @param id the setting
	 * @return the name, or {@code SETTINGS_0x..} for an unknown one
	 */
	public static String name(int id) {
		return switch (id) {
			case HEADER_TABLE_SIZE -> "SETTINGS_HEADER_TABLE_SIZE";
			case ENABLE_PUSH -> "SETTINGS_ENABLE_PUSH";
			case MAX_CONCURRENT_STREAMS -> "SETTINGS_MAX_CONCURRENT_STREAMS";
			case INITIAL_WINDOW_SIZE -> "SETTINGS_INITIAL_WINDOW_SIZE";
			case MAX_FRAME_SIZE -> "SETTINGS_MAX_FRAME_SIZE";
			case MAX_HEADER_LIST_SIZE -> "SETTINGS_MAX_HEADER_LIST_SIZE";
			case ENABLE_CONNECT_PROTOCOL -> "SETTINGS_ENABLE_CONNECT_PROTOCOL";
			default -> "SETTINGS_0x" + Integer.toHexString(id);
		};
	}

	@Override
	public String toString() {
		StringBuilder text = new StringBuilder("Settings{");
		for (int id = 1; id < KNOWN; id++) {
			if (this.values[id] >= 0) {
				text.append(text.length() > 9 ? ", " : "").append(name(id)).append('=').append(this.values[id]);
			}
		}
		return text.append('}').toString();
	}

}
