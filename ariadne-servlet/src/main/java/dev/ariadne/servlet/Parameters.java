package dev.ariadne.servlet;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

/**
 * Request parameters in order of appearance, as {@code getParameterMap} shows them, decoded from
 * {@code application/x-www-form-urlencoded} text (a query string or a form body) or added one
 * by one (multipart fields). A pair with a malformed escape is left out rather than failing the
 * request.
 *
 * <p>At most {@code max} parameters: the one beyond fails with a {@code 400} before it is
 * decoded, and nothing after it is read. Keeps a rough count of the memory its strings take, for
 * the request to reserve in the server's buffer budget.
 */
final class Parameters {

	/** The property that sets the most parameters of a request. */
	static final String MAX_PARAMETERS_PROPERTY = "ariadne.server.request.max-parameters";

	/** What a parameter costs beyond its text, roughly: two strings, a list and a map entry. */
	private static final int PARAMETER_OVERHEAD = 128;

	private final int max;

	private final Map<String, List<String>> values = new LinkedHashMap<>();

	private int count;

	private long memory;

	private Map<String, String[]> map;

	/**
	 * Creates parameters that take at most {@code max} pairs.
	 * @param max the most parameters
	 */
	Parameters(int max) {
		this.max = max;
	}

	/**
	 * Creates parameters without a limit: the application's own, such as those of a dispatch
	 * path's query string.
	 */
	Parameters() {
		this(Integer.MAX_VALUE);
	}

	/**
	 * Adds the pairs of url-encoded text.
	 * @param text the text, {@code a=1&b=2}; may be {@code null}
	 * @param charset the charset the escapes encode
	 * @throws StatusException 400 past the most parameters
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
				admit();
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
			store(decode(name, charset), decode(value, charset));
		}
		catch (IllegalArgumentException ex) {
			// a malformed escape: that pair is ignored, as Tomcat and Jetty do
		}
	}

	/**
	 * Adds the pairs of a url-encoded body, straight from its bytes.
	 * @param bytes the body
	 * @param offset where the text starts
	 * @param length how many bytes it has
	 * @param charset the charset of the bytes and of the escapes
	 * @throws StatusException 400 past the most parameters
	 */
	void addEncoded(byte[] bytes, int offset, int length, Charset charset) {
		int end = offset + length;
		int start = offset;
		while (start < end) {
			int pairEnd = indexOf(bytes, (byte) '&', start, end);
			if (pairEnd > start) {
				admit();
				addPair(bytes, start, pairEnd, charset);
			}
			start = pairEnd + 1;
		}
	}

	private void addPair(byte[] bytes, int start, int end, Charset charset) {
		int equals = indexOf(bytes, (byte) '=', start, end);
		try {
			String name = decode(bytes, start, equals, charset);
			store(name, (equals < end) ? decode(bytes, equals + 1, end, charset) : "");
		}
		catch (IllegalArgumentException ex) {
			// a malformed escape: that pair is ignored, as Tomcat and Jetty do
		}
	}

	private static int indexOf(byte[] bytes, byte wanted, int start, int end) {
		for (int i = start; i < end; i++) {
			if (bytes[i] == wanted) {
				return i;
			}
		}
		return end;
	}

	/**
	 * Adds one parameter.
	 * @param name the name
	 * @param value the value
	 * @throws StatusException 400 past the most parameters
	 */
	void add(String name, String value) {
		admit();
		store(name, value);
	}

	/** Counts one more parameter, refusing the one past the limit before any work on it. */
	private void admit() {
		if (this.count == this.max) {
			throw tooMany();
		}
		this.count++;
	}

	/**
	 * Returns how many more parameters these may take.
	 * @return the room left
	 */
	int room() {
		return this.max - this.count;
	}

	/**
	 * Returns the refusal of the parameter past the limit.
	 * @return the 400 that names the property
	 */
	StatusException tooMany() {
		return StatusException.refusal(HttpServletResponse.SC_BAD_REQUEST,
				"More than " + this.max + " request parameters (" + MAX_PARAMETERS_PROPERTY + ")");
	}

	private void store(String name, String value) {
		this.values.computeIfAbsent(name, (key) -> new ArrayList<>(1)).add(value);
		this.memory += textBytes(name) + textBytes(value) + PARAMETER_OVERHEAD;
		this.map = null;
	}

	/** The bytes a string's text takes: one a character while all fit in Latin-1, else two. */
	private static long textBytes(String text) {
		for (int i = 0; i < text.length(); i++) {
			if (text.charAt(i) > 0xFF) {
				return 2L * text.length();
			}
		}
		return text.length();
	}

	/**
	 * Adds every value of other parameters after those already present, without counting them.
	 * @param other the parameters
	 */
	void addAll(Parameters other) {
		other.values.forEach((name, list) -> this.values.computeIfAbsent(name, (key) -> new ArrayList<>(list.size()))
			.addAll(list));
		this.map = null;
	}

	/**
	 * Returns roughly how many bytes of memory the parameters take.
	 * @return the estimate
	 */
	long memory() {
		return this.memory;
	}

	String first(String name) {
		List<String> list = this.values.get(name);
		return (list != null && !list.isEmpty()) ? list.get(0) : null;
	}

	String[] all(String name) {
		List<String> list = this.values.get(name);
		return (list != null) ? list.toArray(new String[0]) : null;
	}

	Collection<String> names() {
		return Collections.unmodifiableSet(this.values.keySet());
	}

	/**
	 * Returns the parameters as {@code getParameterMap} shows them: the same unmodifiable map on
	 * every call once they are complete.
	 * @return the map
	 */
	Map<String, String[]> asMap() {
		Map<String, String[]> map = this.map;
		if (map == null) {
			Map<String, String[]> built = new LinkedHashMap<>();
			this.values.forEach((name, list) -> built.put(name, list.toArray(new String[0])));
			map = Collections.unmodifiableMap(built);
			this.map = map;
		}
		return map;
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
				bytes.write(escaped(text.charAt(i + 1), text.charAt(i + 2)));
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

	/**
	 * Decodes url-encoded bytes, which are text in the charset outside the escapes.
	 * @param bytes the bytes
	 * @param start the first byte
	 * @param end after the last byte
	 * @param charset the charset
	 * @return the decoded text
	 * @throws IllegalArgumentException on a malformed escape
	 */
	static String decode(byte[] bytes, int start, int end, Charset charset) {
		int plain = start;
		while (plain < end && bytes[plain] != '%' && bytes[plain] != '+') {
			plain++;
		}
		if (plain == end) {
			return new String(bytes, start, end - start, charset);
		}
		byte[] decoded = new byte[end - start];
		int length = plain - start;
		System.arraycopy(bytes, start, decoded, 0, length);
		for (int i = plain; i < end; i++) {
			byte b = bytes[i];
			if (b == '+') {
				decoded[length++] = ' ';
			}
			else if (b == '%') {
				if (i + 2 >= end) {
					throw new IllegalArgumentException("Malformed percent-escape");
				}
				decoded[length++] = (byte) escaped((char) (bytes[i + 1] & 0xFF), (char) (bytes[i + 2] & 0xFF));
				i += 2;
			}
			else {
				decoded[length++] = b;
			}
		}
		return new String(decoded, 0, length, charset);
	}

	private static int escaped(char highDigit, char lowDigit) {
		int high = Character.digit(highDigit, 16);
		int low = Character.digit(lowDigit, 16);
		if (high < 0 || low < 0) {
			throw new IllegalArgumentException("Malformed percent-escape");
		}
		return (high << 4) | low;
	}

}
