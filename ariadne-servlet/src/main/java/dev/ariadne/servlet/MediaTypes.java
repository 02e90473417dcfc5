package dev.ariadne.servlet;

import java.util.Locale;

/**
 * Reads the parts of a {@code Content-Type} value that the container needs: the type and the
 * {@code charset} and {@code boundary} parameters.
 */
final class MediaTypes {

	private MediaTypes() {
	}

	/**
	 * Returns the media type without parameters, lower case.
	 * @param contentType the header value, or {@code null}
	 * @return the type, or {@code null}
	 */
	static String type(String contentType) {
		if (contentType == null) {
			return null;
		}
		int semicolon = contentType.indexOf(';');
		String type = (semicolon < 0) ? contentType : contentType.substring(0, semicolon);
		return type.trim().toLowerCase(Locale.ROOT);
	}

	static String charset(String contentType) {
		return parameter(contentType, "charset");
	}

	/**
	 * Returns a parameter of a media type, unquoted.
	 * @param contentType the header value, or {@code null}
	 * @param name the parameter name
	 * @return the value, or {@code null}
	 */
	static String parameter(String contentType, String name) {
		if (contentType == null) {
			return null;
		}
		int start = contentType.indexOf(';');
		while (start >= 0) {
			int end = nextSeparator(contentType, start + 1);
			String parameter = contentType.substring(start + 1, (end < 0) ? contentType.length() : end).trim();
			int equals = parameter.indexOf('=');
			if (equals > 0 && parameter.substring(0, equals).trim().equalsIgnoreCase(name)) {
				String value = parameter.substring(equals + 1).trim();
				if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
					value = value.substring(1, value.length() - 1);
				}
				return value.isEmpty() ? null : value;
			}
			start = end;
		}
		return null;
	}

	/** Finds the next {@code ;} outside a quoted string. */
	private static int nextSeparator(String text, int from) {
		boolean quoted = false;
		for (int i = from; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '"') {
				quoted = !quoted;
			}
			else if (c == ';' && !quoted) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * Returns a content type with its {@code charset} parameter removed.
	 * @param contentType the header value
	 * @return the value without charset
	 */
	static String withoutCharset(String contentType) {
		StringBuilder result = new StringBuilder();
		int start = contentType.indexOf(';');
		result.append(((start < 0) ? contentType : contentType.substring(0, start)).trim());
		while (start >= 0) {
			int end = nextSeparator(contentType, start + 1);
			String parameter = contentType.substring(start + 1, (end < 0) ? contentType.length() : end).trim();
			int equals = parameter.indexOf('=');
			boolean charset = equals > 0 && parameter.substring(0, equals).trim().equalsIgnoreCase("charset");
			if (!charset && !parameter.isEmpty()) {
				result.append(";").append(parameter);
			}
			start = end;
		}
		return result.toString();
	}

}
