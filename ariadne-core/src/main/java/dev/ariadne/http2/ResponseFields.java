package dev.ariadne.http2;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Headers;

/**
 * Maps a response's status and header fields to the fields of an HTTP/2 header block (RFC 9113
 * §8.3.2, §8.2): {@code :status} first, then every field with its name lower-cased, without the
 * connection-specific fields HTTP/2 forbids ({@code connection}, {@code keep-alive},
 * {@code proxy-connection}, {@code transfer-encoding}, {@code upgrade}, §8.2.2). The code above
 * the codec writes such fields for HTTP/1.1 ({@code Connection: close} among them); here they
 * vanish. The fields go to a {@link HeaderListener}, typically the HPACK encoder's input, in
 * order, on the calling thread.
 */
public final class ResponseFields {

	/** {@code :status} values of the statuses 100 to 999, made once. */
	private static final String[] STATUS = new String[900];

	static {
		for (int i = 0; i < STATUS.length; i++) {
			STATUS[i] = Integer.toString(100 + i);
		}
	}

	private ResponseFields() {
	}

	/**
	 * Emits the fields of a response's header block, or of an interim (1xx) response's.
	 * @param status the status code, three digits
	 * @param headers the response's header fields, names in any case; not changed
	 * @param sink where the fields go, {@code :status} first
	 * @throws IllegalArgumentException if the status does not have three digits
	 */
	public static void head(int status, Headers headers, HeaderListener sink) {
		if (status < 100 || status > 999) {
			throw new IllegalArgumentException("A status has three digits, not " + status);
		}
		sink.field(":status", STATUS[status - 100]);
		fields(headers, sink);
	}

	/**
	 * Emits the fields of a trailer block: no pseudo-header field, the same rules otherwise.
	 * @param trailers the trailer fields, names in any case; not changed
	 * @param sink where the fields go
	 */
	public static void trailers(Headers trailers, HeaderListener sink) {
		fields(trailers, sink);
	}

	private static void fields(Headers headers, HeaderListener sink) {
		for (int i = 0; i < headers.size(); i++) {
			String name = lowerCase(headers.name(i));
			// a name starting with ':' would pass for a pseudo-header field; Headers does not check
			if (!FieldRules.isConnectionSpecific(name) && !name.isEmpty() && name.charAt(0) != ':') {
				sink.field(name, headers.value(i));
			}
		}
	}

	/**
	 * Returns a field name in lower case: the same string when it is already, and one made once
	 * for the server's own names ({@code Content-Type}, {@code Date}, ...), so the common case
	 * allocates nothing and hashes a string whose hash is kept.
	 * @param name a field name
	 * @return the name, lower case
	 */
	static String lowerCase(String name) {
		return HeaderName.lowerCase(name);
	}

}
