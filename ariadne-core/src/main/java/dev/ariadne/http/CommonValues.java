package dev.ariadne.http;

import java.nio.charset.StandardCharsets;

/**
 * The values of a few fields that clients send in a handful of spellings ({@code Connection:
 * keep-alive}, {@code Upgrade: websocket}), as strings made once, so that parsing them allocates
 * nothing and a connection that keeps its request head (an upgraded one, for as long as it lasts)
 * holds no copy of its own. A value matches only byte for byte: the client's spelling is kept.
 */
final class CommonValues {

	private static final String[] CONNECTION = { "keep-alive", "close", "Upgrade", "upgrade", "Keep-Alive",
			"Upgrade, HTTP2-Settings" };

	private static final String[] UPGRADE = { "websocket", "h2c" };

	private static final String[] WEBSOCKET_VERSION = { "13" };

	private static final String[] ACCEPT = { "*/*" };

	private CommonValues() {
	}

	/**
	 * Returns a field's value: a string made once for a common one, else a new string.
	 * @param name the field's name, as {@link HeaderName#of} returned it
	 * @param buf the bytes
	 * @param start where the value starts
	 * @param end where it ends
	 * @return the value
	 */
	static String of(String name, byte[] buf, int start, int end) {
		String[] values = values(name);
		if (values != null) {
			for (String value : values) {
				if (matches(value, buf, start, end)) {
					return value;
				}
			}
		}
		return new String(buf, start, end - start, StandardCharsets.ISO_8859_1);
	}

	private static String[] values(String name) {
		// the constants themselves: the parser returns them for these names
		if (name == HeaderName.CONNECTION) {
			return CONNECTION;
		}
		if (name == HeaderName.UPGRADE) {
			return UPGRADE;
		}
		if (name == HeaderName.SEC_WEBSOCKET_VERSION) {
			return WEBSOCKET_VERSION;
		}
		if (name == HeaderName.ACCEPT) {
			return ACCEPT;
		}
		return null;
	}

	private static boolean matches(String value, byte[] buf, int start, int end) {
		if (value.length() != end - start) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			if (value.charAt(i) != (buf[start + i] & 0xff)) {
				return false;
			}
		}
		return true;
	}

}
