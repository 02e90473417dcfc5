package dev.ariadne.server.accesslog;

import java.util.Arrays;

/**
 * The bytes of the lines the writer has formatted and not yet written: ASCII appended as is,
 * and text a client controls escaped so that it can never end a line or start one, in the NCSA
 * formats' way ({@code \"}, {@code \\}, {@code \n}, {@code \xhh}) or in JSON's. Owned by the
 * writer thread.
 */
final class LineBuffer {

	private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

	private byte[] bytes;

	private int size;

	/** Lines appended since the last {@link #clear()}, for the count of those a failed write loses. */
	private int lines;

	LineBuffer(int capacity) {
		this.bytes = new byte[capacity];
	}

	byte[] array() {
		return this.bytes;
	}

	int size() {
		return this.size;
	}

	int lines() {
		return this.lines;
	}

	void clear() {
		this.size = 0;
		this.lines = 0;
	}

	/** Ends a line. */
	void endLine() {
		ascii('\n');
		this.lines++;
	}

	/** Appends one ASCII character. */
	void ascii(char c) {
		ensure(1);
		this.bytes[this.size++] = (byte) c;
	}

	/** Appends text known to be ASCII and safe (constants, numbers, addresses). */
	void ascii(String text) {
		int length = text.length();
		ensure(length);
		for (int i = 0; i < length; i++) {
			this.bytes[this.size++] = (byte) text.charAt(i);
		}
	}

	/** Appends bytes known to be ASCII and safe. */
	void ascii(byte[] text, int offset, int length) {
		ensure(length);
		System.arraycopy(text, offset, this.bytes, this.size, length);
		this.size += length;
	}

	/** Appends a number in decimal. */
	void decimal(long value) {
		if (value < 0) {
			ascii('-');
			if (value == Long.MIN_VALUE) {
				ascii("9223372036854775808");
				return;
			}
			value = -value;
		}
		ensure(19);
		int digits = 1;
		for (long rest = value / 10; rest > 0; rest /= 10) {
			digits++;
		}
		int end = this.size + digits;
		for (int i = end - 1; i >= this.size; i--) {
			this.bytes[i] = (byte) ('0' + (value % 10));
			value /= 10;
		}
		this.size = end;
	}

	/** Appends nanoseconds as milliseconds with three decimals: {@code 12.345}. */
	void millis(long nanos) {
		long micros = Math.max(0, nanos) / 1000;
		decimal(micros / 1000);
		ascii('.');
		long fraction = micros % 1000;
		ascii((char) ('0' + fraction / 100));
		ascii((char) ('0' + (fraction / 10) % 10));
		ascii((char) ('0' + fraction % 10));
	}

	/**
	 * Appends text for an NCSA field: {@code -} when absent; {@code "} and {@code \} behind a
	 * backslash; tab, CR and LF as {@code \t}, {@code \r}, {@code \n}; every other control
	 * character and everything beyond ASCII as {@code \xhh}, byte by byte of its UTF-8 form
	 * (a header's byte, read as Latin-1, is written back as that byte).
	 * @param text the text, or {@code null}
	 */
	void ncsa(String text) {
		if (text == null) {
			ascii('-');
			return;
		}
		escaped(text, false);
	}

	/** Appends text: printable ASCII as it is, except {@code "} and the backslash, the rest escaped for NCSA or for JSON. */
	private void escaped(String text, boolean json) {
		int length = text.length();
		ensure(length);
		byte[] bytes = this.bytes;
		int size = this.size;
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
				bytes[size++] = (byte) c;
			}
			else {
				// an escape may grow the array: room for the rest is made again after it
				this.size = size;
				i = escape(text, i, json);
				ensure(length - i);
				bytes = this.bytes;
				size = this.size;
			}
		}
		this.size = size;
	}

	/** Escapes the character at index, as both formats do the quote, the backslash and the line ends; returns the last index used. */
	private int escape(String text, int index, boolean json) {
		switch (text.charAt(index)) {
			case '"' -> ascii("\\\"");
			case '\\' -> ascii("\\\\");
			case '\n' -> ascii("\\n");
			case '\r' -> ascii("\\r");
			case '\t' -> ascii("\\t");
			default -> {
				return json ? jsonEscape(text, index) : ncsaEscape(text, index);
			}
		}
		return index;
	}

	/** NCSA: a Latin-1 character as {@code \xhh}, another as its UTF-8 bytes so. */
	private int ncsaEscape(String text, int index) {
		char c = text.charAt(index);
		if (c > 0xff) {
			return utf8Escaped(text, index);
		}
		hexByte(c);
		return index;
	}

	/** Writes the code point at index as its UTF-8 bytes, each {@code \xhh}; returns the last index used. */
	private int utf8Escaped(String text, int index) {
		int codePoint = text.codePointAt(index);
		if (Character.isSurrogate(text.charAt(index)) && Character.charCount(codePoint) == 1) {
			// a lone surrogate: the replacement character
			codePoint = 0xFFFD;
		}
		// the UTF-8 bytes are written, kept, then written again as hex: no array made
		int start = this.size;
		utf8(codePoint);
		int count = this.size - start;
		int packed = 0;
		for (int k = 0; k < count; k++) {
			packed = (packed << 8) | (this.bytes[start + k] & 0xff);
		}
		this.size = start;
		for (int k = count - 1; k >= 0; k--) {
			hexByte((packed >>> (8 * k)) & 0xff);
		}
		return index + Character.charCount(codePoint) - 1;
	}

	private void hexByte(int value) {
		ensure(4);
		this.bytes[this.size++] = '\\';
		this.bytes[this.size++] = 'x';
		this.bytes[this.size++] = HEX[(value >> 4) & 0xf];
		this.bytes[this.size++] = HEX[value & 0xf];
	}

	/**
	 * Appends text inside a JSON string (the quotes are the caller's): {@code "} and {@code \}
	 * behind a backslash, control characters, DEL and the characters some readers take for line
	 * ends (U+0085, U+2028, U+2029) as {@code \}{@code uXXXX} or their short escapes, a lone
	 * surrogate escaped, everything else in UTF-8.
	 * @param text the text
	 */
	void json(String text) {
		escaped(text, true);
	}

	/** JSON: controls, DEL and Unicode's line ends as {@code \\uXXXX}, a lone surrogate so, the rest in UTF-8. */
	private int jsonEscape(String text, int index) {
		char c = text.charAt(index);
		if (c < 0x20 || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029) {
			unicodeEscape(c);
		}
		else if (Character.isHighSurrogate(c) && index + 1 < text.length()
				&& Character.isLowSurrogate(text.charAt(index + 1))) {
			utf8(text.codePointAt(index));
			return index + 1;
		}
		else if (Character.isSurrogate(c)) {
			unicodeEscape(c);
		}
		else {
			utf8(c);
		}
		return index;
	}

	private void unicodeEscape(char c) {
		ensure(6);
		this.bytes[this.size++] = '\\';
		this.bytes[this.size++] = 'u';
		this.bytes[this.size++] = HEX[(c >> 12) & 0xf];
		this.bytes[this.size++] = HEX[(c >> 8) & 0xf];
		this.bytes[this.size++] = HEX[(c >> 4) & 0xf];
		this.bytes[this.size++] = HEX[c & 0xf];
	}

	private void utf8(int codePoint) {
		ensure(4);
		if (codePoint < 0x800) {
			this.bytes[this.size++] = (byte) (0xc0 | (codePoint >> 6));
		}
		else if (codePoint < 0x10000) {
			this.bytes[this.size++] = (byte) (0xe0 | (codePoint >> 12));
			this.bytes[this.size++] = (byte) (0x80 | ((codePoint >> 6) & 0x3f));
		}
		else {
			this.bytes[this.size++] = (byte) (0xf0 | (codePoint >> 18));
			this.bytes[this.size++] = (byte) (0x80 | ((codePoint >> 12) & 0x3f));
			this.bytes[this.size++] = (byte) (0x80 | ((codePoint >> 6) & 0x3f));
		}
		this.bytes[this.size++] = (byte) (0x80 | (codePoint & 0x3f));
	}

	private void ensure(int more) {
		if (this.size + more > this.bytes.length) {
			this.bytes = Arrays.copyOf(this.bytes, Math.max(this.bytes.length * 2, this.size + more));
		}
	}

	@Override
	public String toString() {
		return new String(this.bytes, 0, this.size, java.nio.charset.StandardCharsets.UTF_8);
	}

}
