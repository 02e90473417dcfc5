package dev.ariadne.servlet;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Reads the {@code Cookie} request header and writes {@code Set-Cookie} response headers, by
 * RFC 6265: {@code name=value} pairs separated by {@code ;}, values optionally quoted, and
 * response cookies whose values are restricted to cookie-octets.
 */
final class CookieCodec {

	/** The property that sets the most cookies of a request. */
	static final String MAX_COOKIES_PROPERTY = "ariadne.server.request.max-cookies";

	private CookieCodec() {
	}

	/**
	 * Parses the {@code Cookie} header fields of a request. Pairs without {@code =}, with a name
	 * that is not a token, or with a legacy {@code $} attribute name are skipped.
	 * @param headers the field values, in order
	 * @param max the most cookies
	 * @return the cookies, in order
	 * @throws StatusException 400 at the cookie past {@code max}; the fields are bounded by the
	 * head's size, which bounds the parsing too
	 */
	static List<Cookie> parse(List<String> headers, int max) {
		List<Cookie> cookies = new ArrayList<>();
		for (String header : headers) {
			int start = 0;
			int length = header.length();
			while (start < length) {
				int end = header.indexOf(';', start);
				if (end < 0) {
					end = length;
				}
				Cookie cookie = pair(header.substring(start, end).trim());
				if (cookie != null) {
					if (cookies.size() == max) {
						throw StatusException.refusal(HttpServletResponse.SC_BAD_REQUEST,
								"More than " + max + " cookies (" + MAX_COOKIES_PROPERTY + ")");
					}
					cookies.add(cookie);
				}
				start = end + 1;
			}
		}
		return cookies;
	}

	private static Cookie pair(String pair) {
		int equals = pair.indexOf('=');
		if (equals <= 0) {
			return null;
		}
		String name = pair.substring(0, equals).trim();
		String value = pair.substring(equals + 1).trim();
		if (name.startsWith("$") || !isToken(name)) {
			return null;
		}
		if (value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"') {
			value = value.substring(1, value.length() - 1);
		}
		try {
			return new Cookie(name, value);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	/**
	 * Formats a response cookie as a {@code Set-Cookie} value.
	 * @param cookie the cookie
	 * @param sameSite the {@code SameSite} value to add when the cookie has none, or {@code null}
	 * (or empty) for none
	 * @return the header value
	 * @throws IllegalArgumentException if the value has characters a cookie cannot carry
	 */
	static String format(Cookie cookie, String sameSite) {
		String value = (cookie.getValue() != null) ? cookie.getValue() : "";
		checkValue(cookie.getName(), value);
		StringBuilder header = new StringBuilder(64).append(cookie.getName()).append('=').append(value);
		boolean hasSameSite = false;
		for (Map.Entry<String, String> attribute : cookie.getAttributes().entrySet()) {
			String name = attribute.getKey();
			String attributeValue = attribute.getValue();
			checkAttribute(cookie.getName(), name, attributeValue);
			hasSameSite |= name.equalsIgnoreCase("SameSite");
			header.append("; ").append(name);
			if (attributeValue != null && !attributeValue.isEmpty()) {
				header.append('=').append(attributeValue);
			}
			if (name.equalsIgnoreCase("Max-Age")) {
				header.append("; Expires=").append(expires(attributeValue));
			}
		}
		if (!hasSameSite && sameSite != null && !sameSite.isEmpty()) {
			header.append("; SameSite=").append(sameSite);
		}
		return header.toString();
	}

	private static String expires(String maxAge) {
		long seconds;
		try {
			seconds = Long.parseLong(maxAge);
		}
		catch (NumberFormatException ex) {
			seconds = 0;
		}
		// Max-Age=0 deletes: an Expires in the past says the same to old clients
		Instant when = (seconds <= 0) ? Instant.EPOCH : Instant.now().plusSeconds(seconds);
		return HttpDates.format(when.toEpochMilli());
	}

	private static void checkValue(String name, String value) {
		int start = 0;
		int end = value.length();
		if (end >= 2 && value.charAt(0) == '"' && value.charAt(end - 1) == '"') {
			start = 1;
			end--;
		}
		for (int i = start; i < end; i++) {
			char c = value.charAt(i);
			if (c < 0x21 || c == '"' || c == ',' || c == ';' || c == '\\' || c > 0x7E) {
				throw new IllegalArgumentException("Cookie '" + name + "' has a character not allowed in a cookie "
						+ "value (RFC 6265) at index " + i);
			}
		}
	}

	private static void checkAttribute(String cookie, String name, String value) {
		if (value == null) {
			return;
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < 0x20 || c == ';' || c > 0x7E) {
				throw new IllegalArgumentException("Cookie '" + cookie + "' attribute '" + name
						+ "' has a character not allowed in a cookie attribute at index " + i);
			}
		}
	}

	static boolean isToken(String text) {
		if (text.isEmpty()) {
			return false;
		}
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c <= 0x20 || c >= 0x7F || "()<>@,;:\\\"/[]?={}".indexOf(c) >= 0) {
				return false;
			}
		}
		return true;
	}

}
