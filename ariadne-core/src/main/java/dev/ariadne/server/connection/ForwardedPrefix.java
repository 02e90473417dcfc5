package dev.ariadne.server.connection;

import java.util.List;

/**
 * Reads {@code X-Forwarded-Prefix}, the path under which a proxy serves the application: each
 * comma-separated value loses its trailing slashes and the values are joined, as Spring's
 * {@code ForwardedHeaderFilter} and Reactor Netty join them ({@code /api, /v1/} is
 * {@code /api/v1}; a lone {@code /} is the root, the empty prefix). The result must be a
 * normalized absolute path, since it becomes the context path the application builds its links
 * and redirects with: it starts with {@code /}, repeated slashes collapse, and a prefix with a
 * dot segment ({@code .}, {@code ..}, also percent-encoded), an encoded slash, backslash or
 * NUL, a query or fragment character, a bad percent-encoding or any character outside a URI's
 * path is not taken at all.
 */
final class ForwardedPrefix {

	static final String HEADER = "X-Forwarded-Prefix";

	private static final int MAX_LENGTH = 1024;

	private ForwardedPrefix() {
	}

	/**
	 * Returns the prefix the fields give.
	 * @param fields the request's {@code X-Forwarded-Prefix} fields, in order
	 * @return the prefix ({@code ""} for the root), or {@code null} when there is none or it is
	 * not a safe path
	 */
	static String parse(List<String> fields) {
		if (fields.isEmpty()) {
			return null;
		}
		StringBuilder joined = new StringBuilder();
		for (String field : fields) {
			for (String value : field.split(",", -1)) {
				// optional whitespace around a value is space or tab, nothing else
				int start = 0;
				int end = value.length();
				while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
					start++;
				}
				while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
					end--;
				}
				while (end > start && value.charAt(end - 1) == '/') {
					end--;
				}
				joined.append(value, start, end);
			}
		}
		if (joined.length() == 0) {
			// only slashes (or nothing): the proxy serves the application at its root
			return "";
		}
		if (joined.length() > MAX_LENGTH || joined.charAt(0) != '/') {
			return null;
		}
		return normalized(joined);
	}

	/** The path with repeated slashes collapsed, or {@code null} if a segment is not safe. */
	private static String normalized(CharSequence path) {
		StringBuilder result = new StringBuilder(path.length());
		int start = 1;
		while (start <= path.length()) {
			int end = start;
			while (end < path.length() && path.charAt(end) != '/') {
				end++;
			}
			if (end > start) {
				String segment = path.subSequence(start, end).toString();
				if (!safe(segment)) {
					return null;
				}
				result.append('/').append(segment);
			}
			start = end + 1;
		}
		return result.toString();
	}

	private static boolean safe(String segment) {
		StringBuilder decoded = new StringBuilder(segment.length());
		for (int i = 0; i < segment.length(); i++) {
			char c = segment.charAt(i);
			if (c == '%') {
				int value = (i + 2 < segment.length()) ? hex(segment.charAt(i + 1), segment.charAt(i + 2)) : -1;
				if (value < 0 || value == '/' || value == '\\' || value == 0) {
					return false;
				}
				decoded.append((char) value);
				i += 2;
			}
			else if (pathChar(c)) {
				decoded.append(c);
			}
			else {
				return false;
			}
		}
		String text = decoded.toString();
		return !text.equals(".") && !text.equals("..");
	}

	/** RFC 3986 pchar, but for {@code %} (handled apart) and {@code ;} (path parameters). */
	private static boolean pathChar(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
				|| "-._~!$&'()*+,=:@".indexOf(c) >= 0;
	}

	private static int hex(char high, char low) {
		int h = hexDigit(high);
		int l = hexDigit(low);
		return (h < 0 || l < 0) ? -1 : h * 16 + l;
	}

	private static int hexDigit(char c) {
		if (c >= '0' && c <= '9') {
			return c - '0';
		}
		if (c >= 'a' && c <= 'f') {
			return c - 'a' + 10;
		}
		return (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
	}

}
