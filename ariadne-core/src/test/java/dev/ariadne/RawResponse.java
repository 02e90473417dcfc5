package dev.ariadne;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One response as {@link RawClient} read it off the wire: the exact status line, the header
 * fields in arrival order, how the body was framed, and the body with any chunk framing removed.
 *
 * @param statusLine the status line without its CRLF, for example {@code HTTP/1.1 200 OK}
 * @param status the status code
 * @param headers the header fields, in arrival order
 * @param framing how the body was delimited
 * @param body the body bytes, chunk framing removed (empty when there is no body)
 * @param chunkSizes the size of every data chunk, in order (empty unless chunked)
 * @param trailers the trailer fields of a chunked body
 */
public record RawResponse(String statusLine, int status, List<Field> headers, Framing framing, byte[] body,
		List<Integer> chunkSizes, List<Field> trailers) {

	/** How a response body was delimited (RFC 9112 §6.3). */
	public enum Framing {

		/** No body can follow: a response to HEAD, or 1xx, 204, 304. */
		NONE,

		/** {@code Content-Length}. */
		LENGTH,

		/** {@code Transfer-Encoding: chunked}. */
		CHUNKED,

		/** Neither: the body ends when the server closes the connection. */
		CLOSE

	}

	/**
	 * One header or trailer field.
	 * @param name the name as sent
	 * @param value the value, without surrounding whitespace
	 */
	public record Field(String name, String value) {

		@Override
		public String toString() {
			return this.name + ": " + this.value;
		}

	}

	/**
	 * Returns the only value of a field, failing when it is repeated.
	 * @param name the field name, in any case
	 * @return the value, or {@code null} when absent
	 */
	public String header(String name) {
		List<String> values = headers(name);
		if (values.size() > 1) {
			throw new AssertionError("Header " + name + " sent " + values.size() + " times in " + this);
		}
		return values.isEmpty() ? null : values.get(0);
	}

	/**
	 * Returns every value of a field.
	 * @param name the field name, in any case
	 * @return the values in arrival order
	 */
	public List<String> headers(String name) {
		return values(this.headers, name);
	}

	/**
	 * Returns the only value of a trailer field.
	 * @param name the field name, in any case
	 * @return the value, or {@code null} when absent
	 */
	public String trailer(String name) {
		List<String> values = values(this.trailers, name);
		return values.isEmpty() ? null : values.get(0);
	}

	/**
	 * Returns the header fields' names, lower-cased, in arrival order.
	 * @return the names
	 */
	public List<String> headerNames() {
		List<String> names = new ArrayList<>();
		for (Field field : this.headers) {
			names.add(field.name().toLowerCase(Locale.ROOT));
		}
		return names;
	}

	/**
	 * Returns whether the {@code Connection} field lists {@code close}.
	 * @return whether the server announced it closes the connection
	 */
	public boolean announcesClose() {
		for (String value : headers("Connection")) {
			for (String token : value.split(",")) {
				if (token.trim().equalsIgnoreCase("close")) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * Returns the body as UTF-8 text.
	 * @return the text
	 */
	public String bodyText() {
		return new String(this.body, StandardCharsets.UTF_8);
	}

	private static List<String> values(List<Field> fields, String name) {
		List<String> values = new ArrayList<>();
		for (Field field : fields) {
			if (field.name().equalsIgnoreCase(name)) {
				values.add(field.value());
			}
		}
		return values;
	}

	@Override
	public String toString() {
		StringBuilder text = new StringBuilder(this.statusLine).append(" ").append(this.headers)
			.append(" ").append(this.framing).append(" body ").append(this.body.length).append(" bytes");
		if (this.body.length > 0 && this.body.length <= 200) {
			text.append(" '").append(bodyText()).append("'");
		}
		return text.toString();
	}

}
