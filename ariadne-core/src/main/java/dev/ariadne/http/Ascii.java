package dev.ariadne.http;

/**
 * Byte-level character classes of RFC 9110 §5.6 and RFC 9112, as lookup tables.
 */
final class Ascii {

	static final byte CR = '\r';

	static final byte LF = '\n';

	static final byte SP = ' ';

	static final byte HTAB = '\t';

	private static final boolean[] TOKEN = new boolean[256];

	private static final boolean[] FIELD_VALUE = new boolean[256];

	private static final boolean[] TARGET = new boolean[256];

	private static final boolean[] HOST = new boolean[128];

	static {
		for (int c = '0'; c <= '9'; c++) {
			TOKEN[c] = true;
		}
		for (int c = 'a'; c <= 'z'; c++) {
			TOKEN[c] = true;
			TOKEN[c - 32] = true;
		}
		for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
			TOKEN[c] = true;
		}
		// field-vchar = VCHAR / obs-text, plus SP and HTAB inside a value
		for (int c = 0x20; c < 256; c++) {
			FIELD_VALUE[c] = c != 0x7F;
		}
		FIELD_VALUE[HTAB] = true;
		// a host and port (RFC 3986 §3.2.2): unreserved, pct-encoded, sub-delims, ':' and IP-literal brackets
		for (char c : "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-._~%!$&'()*+,;=:[]"
			.toCharArray()) {
			HOST[c] = true;
		}
		// request-target: visible US-ASCII only; anything else must be percent-encoded
		for (int c = 0x21; c < 0x7F; c++) {
			TARGET[c] = true;
		}
		// not allowed anywhere in a URI (RFC 3986 §2), and '#' never reaches a server
		for (char c : "\"<>\\^`{|}#".toCharArray()) {
			TARGET[c] = false;
		}
	}

	private Ascii() {
	}

	static boolean isToken(byte b) {
		return TOKEN[b & 0xFF];
	}

	static boolean isToken(CharSequence s) {
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			if (c > 0xFF || !TOKEN[c]) {
				return false;
			}
		}
		return true;
	}

	static boolean isFieldValue(byte b) {
		return FIELD_VALUE[b & 0xFF];
	}

	static boolean isHost(char c) {
		return c < 128 && HOST[c];
	}

	static boolean isTarget(byte b) {
		return TARGET[b & 0xFF];
	}

	static boolean isWhitespace(byte b) {
		return b == SP || b == HTAB;
	}

	static int hexValue(byte b) {
		if (b >= '0' && b <= '9') {
			return b - '0';
		}
		if (b >= 'a' && b <= 'f') {
			return b - 'a' + 10;
		}
		if (b >= 'A' && b <= 'F') {
			return b - 'A' + 10;
		}
		return -1;
	}

	static byte lower(byte b) {
		return (b >= 'A' && b <= 'Z') ? (byte) (b + 32) : b;
	}

	/** Whether {@code expected} occurs at {@code buf[start]}, exactly. */
	static boolean equals(byte[] expected, byte[] buf, int start) {
		for (int i = 0; i < expected.length; i++) {
			if (buf[start + i] != expected[i]) {
				return false;
			}
		}
		return true;
	}

	/** Whether the lower-case {@code expected} occurs at {@code buf[start]}, ignoring case. */
	static boolean equalsIgnoreCase(byte[] expected, byte[] buf, int start) {
		for (int i = 0; i < expected.length; i++) {
			if (lower(buf[start + i]) != expected[i]) {
				return false;
			}
		}
		return true;
	}

}
