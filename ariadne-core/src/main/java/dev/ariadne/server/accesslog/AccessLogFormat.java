package dev.ariadne.server.accesslog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What an access-log line says and how: one of the named formats ({@link #common()},
 * {@link #combined()}, {@link #json()}) or a pattern of {@code %}-codes in the manner of
 * Apache's {@code mod_log_config} and Tomcat's {@code AccessLogValve}, compiled once.
 *
 * <p>The codes: {@code %a} and {@code %h} the client's address (after forwarded headers from a
 * trusted proxy; never a DNS name), {@code %A} and {@code %p} the server's address and port,
 * {@code %l} and {@code %u} always {@code -}, {@code %t} the time the request arrived,
 * {@code %r} the request line, {@code %m} the method, {@code %U} the path, {@code %q} the query
 * with its {@code ?}, {@code %H} the protocol ({@code HTTP/1.1}, {@code HTTP/2.0}), {@code %s}
 * the status, {@code %b} the content bytes sent ({@code -} for none) and {@code %B} (0 for
 * none), {@code %D} the time taken in microseconds, {@code %T} in seconds, {@code %{ms}T} and
 * {@code %{us}T}, {@code %{Name}i} a request field and {@code %{Name}o} a response field, and
 * {@code %%} a percent sign. Ariadne's own: {@code %{wait}x} the time the request waited for a
 * worker, in milliseconds with three decimals, {@code %{pool}x} the pool that ran it,
 * {@code %{model}x} the listener's I/O model, {@code %{listener}x} the listener and
 * {@code %{route}x} the route template.
 *
 * <p>Every value a client controls is escaped so that it can neither end a line nor start one.
 * Immutable; any thread.
 */
public final class AccessLogFormat {

	/** Apache's common log format. */
	public static final String COMMON_PATTERN = "%h %l %u %t \"%r\" %s %b";

	/** Apache's combined log format: the common one with the referrer and the user agent. */
	public static final String COMBINED_PATTERN = COMMON_PATTERN + " \"%{Referer}i\" \"%{User-Agent}i\"";

	private static final String REFERER = "Referer";

	private static final String USER_AGENT = "User-Agent";

	private final String description;

	/** The parts of a pattern, or {@code null} for JSON. */
	private final Part[] parts;

	private final String[] requestFields;

	private final String[] responseFields;

	private AccessLogFormat(String description, Part[] parts, List<String> requestFields, List<String> responseFields) {
		this.description = description;
		this.parts = parts;
		this.requestFields = requestFields.toArray(new String[0]);
		this.responseFields = responseFields.toArray(new String[0]);
	}

	/**
	 * Returns the common log format: {@value #COMMON_PATTERN}.
	 * @return the format
	 */
	public static AccessLogFormat common() {
		return pattern(COMMON_PATTERN);
	}

	/**
	 * Returns the combined log format: {@value #COMBINED_PATTERN}.
	 * @return the format
	 */
	public static AccessLogFormat combined() {
		return pattern(COMBINED_PATTERN);
	}

	/**
	 * Returns one JSON object per line: {@code time} (ISO 8601, UTC, milliseconds),
	 * {@code listener}, {@code io_model}, {@code pool}, {@code remote}, {@code method},
	 * {@code target}, {@code protocol}, {@code status}, {@code bytes}, {@code duration_ms},
	 * {@code wait_ms}, {@code route}, and {@code referer} and {@code user_agent} when the request
	 * had them.
	 * @return the format
	 */
	public static AccessLogFormat json() {
		return new AccessLogFormat("json", null, List.of(REFERER, USER_AGENT), List.of());
	}

	/**
	 * Compiles a pattern.
	 * @param pattern the pattern
	 * @return the format
	 * @throws IllegalArgumentException saying what is wrong with the pattern, in words that
	 * follow the property's name ({@code "has the unknown code %Z at index 3"})
	 */
	public static AccessLogFormat pattern(String pattern) {
		if (pattern == null || pattern.isBlank()) {
			throw new IllegalArgumentException("must not be empty");
		}
		List<Part> parts = new ArrayList<>();
		List<String> requestFields = new ArrayList<>();
		List<String> responseFields = new ArrayList<>();
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < pattern.length(); i++) {
			char c = pattern.charAt(i);
			if (Character.isISOControl(c)) {
				throw new IllegalArgumentException("has a control character at index " + i);
			}
			if (c != '%') {
				text.append(c);
				continue;
			}
			if (i + 1 == pattern.length()) {
				throw new IllegalArgumentException("ends with a lone %");
			}
			String argument = null;
			int at = i;
			if (pattern.charAt(i + 1) == '{') {
				int close = pattern.indexOf('}', i + 2);
				if (close < 0 || close + 1 == pattern.length()) {
					throw new IllegalArgumentException("has %{ without a closing } and a code letter at index " + i);
				}
				argument = pattern.substring(i + 2, close);
				i = close + 1;
			}
			else {
				i++;
			}
			char code = pattern.charAt(i);
			if (code == '%' && argument == null) {
				text.append('%');
				continue;
			}
			if (text.length() > 0) {
				parts.add(new Part(Code.TEXT, text.toString(), 0));
				text.setLength(0);
			}
			parts.add(part(code, argument, at, requestFields, responseFields));
		}
		if (text.length() > 0) {
			parts.add(new Part(Code.TEXT, text.toString(), 0));
		}
		return new AccessLogFormat(pattern, parts.toArray(new Part[0]), requestFields, responseFields);
	}

	private static Part part(char code, String argument, int index, List<String> requestFields,
			List<String> responseFields) {
		if (argument != null) {
			return argumentPart(code, argument, index, requestFields, responseFields);
		}
		Code simple = switch (code) {
			case 'a', 'h' -> Code.REMOTE;
			case 'A' -> Code.LOCAL_ADDRESS;
			case 'p' -> Code.LOCAL_PORT;
			case 'l', 'u' -> Code.DASH;
			case 't' -> Code.TIME;
			case 'r' -> Code.REQUEST_LINE;
			case 'm' -> Code.METHOD;
			case 'U' -> Code.PATH;
			case 'q' -> Code.QUERY;
			case 'H' -> Code.PROTOCOL;
			case 's' -> Code.STATUS;
			case 'b' -> Code.BYTES_OR_DASH;
			case 'B' -> Code.BYTES;
			case 'D' -> Code.MICROS;
			case 'T' -> Code.SECONDS;
			default -> throw new IllegalArgumentException("has the unknown code %" + code + " at index " + index);
		};
		return new Part(simple, null, 0);
	}

	private static Part argumentPart(char code, String argument, int index, List<String> requestFields,
			List<String> responseFields) {
		switch (code) {
			case 'i', 'o' -> {
				if (argument.isEmpty() || !isToken(argument)) {
					throw new IllegalArgumentException("has %{" + argument + "}" + code
							+ " at index " + index + ", which names no header field");
				}
				List<String> fields = (code == 'i') ? requestFields : responseFields;
				int slot = indexOfIgnoringCase(fields, argument);
				if (slot < 0) {
					fields.add(argument);
					slot = fields.size() - 1;
				}
				return new Part((code == 'i') ? Code.REQUEST_FIELD : Code.RESPONSE_FIELD, argument, slot);
			}
			case 'T' -> {
				return new Part(switch (argument) {
					case "ms" -> Code.MILLIS;
					case "us" -> Code.MICROS;
					case "s" -> Code.SECONDS;
					default -> throw new IllegalArgumentException(
							"has %{" + argument + "}T at index " + index + "; the units are ms, us and s");
				}, null, 0);
			}
			case 'x' -> {
				return new Part(switch (argument.toLowerCase(Locale.ROOT)) {
					case "wait" -> Code.WAIT;
					case "pool" -> Code.POOL;
					case "model" -> Code.IO_MODEL;
					case "listener" -> Code.LISTENER;
					case "route" -> Code.ROUTE;
					default -> throw new IllegalArgumentException("has %{" + argument + "}x at index " + index
							+ "; Ariadne's fields are wait, pool, model, listener and route");
				}, null, 0);
			}
			default -> throw new IllegalArgumentException(
					"has the unknown code %{" + argument + "}" + code + " at index " + index);
		}
	}

	private static boolean isToken(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
			if (!alphanumeric && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
				return false;
			}
		}
		return true;
	}

	private static int indexOfIgnoringCase(List<String> names, String name) {
		for (int i = 0; i < names.size(); i++) {
			if (names.get(i).equalsIgnoreCase(name)) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * Returns the request fields a line of this format shows, which the request path copies.
	 * @return the field names
	 */
	String[] requestFields() {
		return this.requestFields;
	}

	/**
	 * Returns the response fields a line of this format shows.
	 * @return the field names
	 */
	String[] responseFields() {
		return this.responseFields;
	}

	/**
	 * Appends the line of an entry, with its line feed.
	 * @param entry the entry
	 * @param out the buffer
	 * @param context the listener's constants and the time stamps
	 */
	void write(AccessLogEntry entry, LineBuffer out, LineContext context) {
		if (this.parts == null) {
			JsonLine.write(entry, out, context);
		}
		else {
			for (Part part : this.parts) {
				PatternLine.write(part, entry, out, context);
			}
		}
		out.endLine();
	}

	@Override
	public String toString() {
		return this.description;
	}

	/** The pattern codes. */
	enum Code {

		TEXT, REMOTE, LOCAL_ADDRESS, LOCAL_PORT, DASH, TIME, REQUEST_LINE, METHOD, PATH, QUERY, PROTOCOL, STATUS,
		BYTES_OR_DASH, BYTES, MICROS, MILLIS, SECONDS, REQUEST_FIELD, RESPONSE_FIELD, WAIT, POOL, IO_MODEL, LISTENER,
		ROUTE

	}

	/**
	 * One code of a pattern, or its literal text.
	 * @param code the code
	 * @param text the literal text, or the field name
	 * @param slot the field's index in the entry
	 */
	record Part(Code code, String text, int slot) {
	}

}
