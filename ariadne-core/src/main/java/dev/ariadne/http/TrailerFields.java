package dev.ariadne.http;

import java.util.Locale;
import java.util.Set;

/**
 * Which fields a response may carry in its trailer section (RFC 9110 §6.5.1): not those a
 * recipient needs before the content, namely the framing ({@code Content-Length},
 * {@code Transfer-Encoding}, {@code Trailer}), the connection's own fields, routing,
 * authentication and cookies, the response controls (caching, {@code Location},
 * {@code Retry-After}, {@code Vary}, {@code Date}) and the content's format. Whatever else an
 * application supplies is sent, once its name and value are valid fields.
 */
public final class TrailerFields {

	private static final Set<String> FORBIDDEN = Set.of("age", "authorization", "cache-control", "connection",
			"content-encoding", "content-length", "content-range", "content-type", "date", "expect", "expires",
			"host", "keep-alive", "location", "max-forwards", "pragma", "proxy-authenticate",
			"proxy-authorization", "proxy-connection", "range", "retry-after", "set-cookie", "te", "trailer",
			"transfer-encoding", "upgrade", "vary", "www-authenticate");

	private TrailerFields() {
	}

	/**
	 * Returns whether a field may be sent as a trailer.
	 * @param name the field name, in any case
	 * @return {@code false} for the fields RFC 9110 §6.5.1 keeps out of trailers
	 */
	public static boolean allowed(String name) {
		return !FORBIDDEN.contains(name.toLowerCase(Locale.ROOT));
	}

	/**
	 * Returns the fields of an application's trailers that may be sent: valid names and values,
	 * and not {@linkplain #allowed forbidden} in a trailer section; the others are left out, as
	 * Servlet 6.1's {@code setTrailerFields} asks.
	 * @param trailers the application's fields, or {@code null}
	 * @return the fields to send, possibly empty; never {@code null}
	 */
	public static Headers sendable(Headers trailers) {
		Headers sendable = new Headers();
		if (trailers == null) {
			return sendable;
		}
		for (int i = 0; i < trailers.size(); i++) {
			String name = trailers.name(i);
			String value = trailers.value(i);
			if (Headers.isValid(name, value) && allowed(name)) {
				sendable.add(name, value);
			}
		}
		return sendable;
	}

}
