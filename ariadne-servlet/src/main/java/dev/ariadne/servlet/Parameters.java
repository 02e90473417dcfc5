package dev.ariadne.servlet;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Request parameters in order of appearance, as {@code getParameterMap} shows them, decoded from
 * {@code application/x-www-form-urlencoded} text (a query string or a form body). A pair with a
 * malformed escape is left out rather than failing the request.
 */
final class Parameters {

	private final Map<String, List<String>> values = new LinkedHashMap<>();

	/**
	 * Adds the pairs of url-encoded text.
	 * @param text the text, {@code a=1&b=2}; may be {@code null}
	 * @param charset the charset the escapes encode
	 */
	void addEncoded(String text, Charset charset) {
		if (text == null || text.isEmpty()) {
			return;
		}
		int start = 0;
		int length = text.length();
		while (start <= length) {
			int end = text.indexOf('&', start);
			if (end < 0) {
				end = length;
			}
			if (end > start) {
				addPair(text.substring(start, end), charset);
			}
			start = end + 1;
		}
	}

	private void addPair(String pair, Charset charset) {
		int equals = pair.indexOf('=');
		String name = (equals < 0) ? pair : pair.substring(0, equals);
		String value = (equals < 0) ? "" : pair.substring(equals + 1);
		try {
			add(decode(name, charset), decode(value, charset));
		}
		catch (IllegalArgumentException ex) {
			// a malformed escape: that pair is ignored, as Tomcat and Jetty do
		}
	}

	void add(String name, String value) {
		this.values.computeIfAbsent(name, (key) -> new ArrayList<>(1)).add(value);
	}

	/**
	 * Adds every value of other parameters after those already present.
	 * @param other the parameters
	 */
	void addAll(Parameters other) {
		other.values.forEach((name, list) -> this.values.computeIfAbsent(name, (key) -> new ArrayList<>(list.size()))
			.addAll(list));
	}

	String first(String name) {
		List<String> list = this.values.get(name);
		return (list != null && !list.isEmpty()) ? list.get(0) : null;
	}

	String[] all(String name) {
		List<String> list = this.values.get(name);
		return (list != null) ? list.toArray(new String[0]) : null;
	}

	List<String> names() {
		return new ArrayList<>(this.values.keySet());
	}

	Map<String, String[]> asMap() {
		Map<String, String[]> map = new LinkedHashMap<>();
		this.values.forEach((name, list) -> map.put(name, list.toArray(new String[0])));
		return Collections.unmodifiableMap(map);
	}

	/**
	 * Decodes url-encoded text: {@code +} is a space, {@code %XX} a byte of the charset.
	 * @param text the text
	 * @param charset the charset
	 * @return the decoded text
	 * @throws IllegalArgumentException on a malformed escape
	 */
	static String decode(String text, Charset charset) {
		if (text.indexOf('%') < 0 && text.indexOf('+') < 0) {
			return text;
		}
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '+') {
				bytes.write(' ');
			}
			else if (c == '%') {
				if (i + 2 >= text.length()) {
					throw new IllegalArgumentException("Malformed percent-escape");
				}
				int high = Character.digit(text.charAt(i + 1), 16);
				int low = Character.digit(text.charAt(i + 2), 16);
				if (high < 0 || low < 0) {
					throw new IllegalArgumentException("Malformed percent-escape");
				}
				bytes.write((high << 4) | low);
				i += 2;
			}
			else if (c < 0x80) {
				bytes.write(c);
			}
			else {
				byte[] encoded = String.valueOf(c).getBytes(charset);
				bytes.write(encoded, 0, encoded.length);
			}
		}
		return bytes.toString(charset);
	}

}
