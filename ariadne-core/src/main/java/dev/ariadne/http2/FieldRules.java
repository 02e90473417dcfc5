package dev.ariadne.http2;

import dev.ariadne.http.Headers;

/**
 * The syntax of single fields in HTTP/2 (RFC 9113 §8.2.1, §8.2.2, §8.3.1): each check returns
 * {@code null} when the field is valid, or the reason it is not, written for a stream error and
 * never holding the field itself.
 */
final class FieldRules {

	private FieldRules() {
	}

	/**
	 * Checks a regular field's name: a token, lower case.
	 * @param name the name, not empty
	 * @return {@code null}, or the reason
	 */
	static String nameProblem(String name) {
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (c >= 'A' && c <= 'Z') {
				return "Upper-case field name (RFC 9113 §8.2.1)";
			}
			if (c >= 128 || !Headers.isTokenChar(c)) {
				return "Invalid character in a field name (RFC 9113 §8.2.1)";
			}
		}
		return null;
	}

	/**
	 * Checks a field's value: no NUL, CR or LF, no whitespace at either end (RFC 9113 §8.2.1),
	 * and, as HTTP/1.1 is checked here, no other control character and nothing beyond Latin-1
	 * (RFC 9110 §5.5).
	 * @param value the value
	 * @return {@code null}, or the reason
	 */
	static String valueProblem(String value) {
		int length = value.length();
		if (length > 0 && (isWhitespace(value.charAt(0)) || isWhitespace(value.charAt(length - 1)))) {
			return "Field value starting or ending with whitespace (RFC 9113 §8.2.1)";
		}
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			if (c == 0 || c == '\r' || c == '\n') {
				return "NUL, CR or LF in a field value (RFC 9113 §8.2.1)";
			}
			if (!Headers.isValueChar(c)) {
				return "Control character in a field value (RFC 9110 §5.5)";
			}
		}
		return null;
	}

	private static boolean isWhitespace(char c) {
		return c == ' ' || c == '\t';
	}

	/**
	 * Returns whether a lower-case field name is one HTTP/2 forbids (RFC 9113 §8.2.2).
	 * @param name the name, lower case
	 * @return whether it is connection-specific
	 */
	static boolean isConnectionSpecific(String name) {
		return switch (name) {
			case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade" -> true;
			default -> false;
		};
	}


	/**
	 * Returns whether a scheme has the syntax of RFC 3986 §3.1.
	 * @param scheme the scheme
	 * @return whether valid
	 */
	static boolean isScheme(String scheme) {
		if (scheme.isEmpty() || !isAlpha(scheme.charAt(0))) {
			return false;
		}
		for (int i = 1; i < scheme.length(); i++) {
			char c = scheme.charAt(i);
			if (!isAlpha(c) && (c < '0' || c > '9') && c != '+' && c != '-' && c != '.') {
				return false;
			}
		}
		return true;
	}

	private static boolean isAlpha(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
	}

	/**
	 * Checks an authority ({@code :authority} or {@code host}): a host and an optional port,
	 * without userinfo (RFC 9113 §8.3.1).
	 * @param value the value
	 * @param what the field's name, for the reason
	 * @return {@code null}, or the reason
	 */
	static String authorityProblem(String value, String what) {
		if (value.isEmpty()) {
			return "Empty " + what + " (RFC 9113 §8.3.1)";
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c == '@') {
				return "Userinfo in " + what + " (RFC 9113 §8.3.1)";
			}
			if (!Headers.isHostChar(c)) {
				return "Invalid character in " + what + " (RFC 3986 §3.2.2)";
			}
		}
		return null;
	}

}
