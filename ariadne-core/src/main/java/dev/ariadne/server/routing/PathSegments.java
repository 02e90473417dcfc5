package dev.ariadne.server.routing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits paths into segments and percent-decodes them (RFC 3986 §2.1). Decoding happens per
 * segment, so an encoded {@code %2F} stays inside its segment.
 */
public final class PathSegments {

	private PathSegments() {
	}

	/**
	 * Splits an absolute path at {@code /}, without decoding. A trailing slash yields a final
	 * empty segment; the root path yields no segment.
	 * @param path the path, starting with {@code /}
	 * @return the raw segments
	 */
	public static List<String> split(String path) {
		List<String> segments = new ArrayList<>(4);
		int length = path.length();
		if (length <= 1) {
			return segments;
		}
		int start = 1;
		while (true) {
			int slash = path.indexOf('/', start);
			if (slash < 0) {
				segments.add(path.substring(start));
				return segments;
			}
			segments.add(path.substring(start, slash));
			start = slash + 1;
		}
	}

	/**
	 * Decodes percent-escapes as UTF-8; {@code +} stays a plus unless {@code plusAsSpace}.
	 * @param text the encoded text
	 * @param plusAsSpace whether {@code +} means a space (query strings)
	 * @return the decoded text
	 * @throws IllegalArgumentException on a malformed escape
	 */
	public static String decode(String text, boolean plusAsSpace) {
		int percent = text.indexOf('%');
		if (percent < 0 && (!plusAsSpace || text.indexOf('+') < 0)) {
			return text;
		}
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '%') {
				if (i + 2 >= text.length()) {
					throw new IllegalArgumentException("Malformed percent-encoding");
				}
				int high = Character.digit(text.charAt(i + 1), 16);
				int low = Character.digit(text.charAt(i + 2), 16);
				if (high < 0 || low < 0) {
					throw new IllegalArgumentException("Malformed percent-encoding");
				}
				bytes.write((high << 4) | low);
				i += 2;
			}
			else if (c == '+' && plusAsSpace) {
				bytes.write(' ');
			}
			else {
				bytes.write(c);
			}
		}
		return bytes.toString(StandardCharsets.UTF_8);
	}

}
