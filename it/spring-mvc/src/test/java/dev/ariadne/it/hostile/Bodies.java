package dev.ariadne.it.hostile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The attacker's request bodies and heads, built once each, with exact sizes.
 */
final class Bodies {

	/** The boundary of {@link #multipart}. */
	static final String BOUNDARY = "hostile-4f1c";

	private Bodies() {
	}

	/**
	 * An {@code application/x-www-form-urlencoded} body of fields {@code k0}, {@code k1}, ...
	 * of exactly a size: the values are runs of {@code v} that share out the bytes the names
	 * leave, the last one taking what does not share out evenly, so most fields are empty when
	 * there are many.
	 * @param fields how many fields
	 * @param size the body's size in bytes
	 * @return the body
	 */
	static byte[] form(int fields, int size) {
		long names = 0;
		for (int i = 0; i < fields; i++) {
			names += 2 + Integer.toString(i).length() + ((i > 0) ? 1 : 0);
		}
		long spare = size - names;
		if (spare < 0) {
			throw new IllegalArgumentException(fields + " fields need " + names + " bytes, more than " + size);
		}
		long each = spare / fields;
		long last = each + spare % fields;
		StringBuilder body = new StringBuilder(size);
		String value = "v".repeat((int) each);
		for (int i = 0; i < fields; i++) {
			if (i > 0) {
				body.append('&');
			}
			body.append('k').append(i).append('=').append((i == fields - 1) ? "v".repeat((int) last) : value);
		}
		byte[] bytes = body.toString().getBytes(StandardCharsets.ISO_8859_1);
		if (bytes.length != size) {
			throw new IllegalStateException("A form of " + bytes.length + " bytes, not " + size);
		}
		return bytes;
	}

	/**
	 * A query string of empty parameters {@code k0=&k1=&...}.
	 * @param parameters how many
	 * @return the query, without the {@code ?}
	 */
	static String query(int parameters) {
		StringBuilder query = new StringBuilder();
		for (int i = 0; i < parameters; i++) {
			query.append((i > 0) ? "&k" : "k").append(i).append('=');
		}
		return query.toString();
	}

	/**
	 * A {@code Cookie} field value of cookies {@code c0=0; c1=1; ...}, the last one the
	 * application's {@code visitor} cookie, so that it parses them.
	 * @param cookies how many in all
	 * @return the field value
	 */
	static String cookies(int cookies) {
		StringBuilder value = new StringBuilder();
		for (int i = 0; i < cookies - 1; i++) {
			value.append('c').append(i).append('=').append(i % 10).append("; ");
		}
		return value.append("visitor=v").toString();
	}

	/**
	 * A {@code multipart/form-data} body of small files, each a part named {@code file}.
	 * @param parts how many parts
	 * @return the body
	 */
	static byte[] multipart(int parts) {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		for (int i = 0; i < parts; i++) {
			body.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p" + i
					+ ".txt\"\r\nContent-Type: text/plain\r\n\r\nx\r\n").getBytes(StandardCharsets.US_ASCII));
		}
		body.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
		return body.toByteArray();
	}

	/**
	 * A request head with a body after it.
	 * @param target the request target
	 * @param contentType the body's type
	 * @param length the body's length
	 * @return the head, as bytes
	 */
	static byte[] post(String target, String contentType, long length) {
		return ("POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + contentType
				+ "\r\nContent-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
	}

	/**
	 * A head and a body in one array.
	 * @param head the head
	 * @param body the body
	 * @return both
	 */
	static byte[] join(byte[] head, byte[] body) {
		byte[] request = new byte[head.length + body.length];
		System.arraycopy(head, 0, request, 0, head.length);
		System.arraycopy(body, 0, request, head.length, body.length);
		return request;
	}

}
