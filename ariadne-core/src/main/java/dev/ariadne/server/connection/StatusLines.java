package dev.ariadne.server.connection;

import java.nio.charset.StandardCharsets;

import dev.ariadne.http.Status;

/**
 * Encoded status lines ({@code HTTP/1.1 200 OK\r\n}), precomputed for the standard statuses.
 * Responses always carry version 1.1, the highest the server speaks (RFC 9110 §6.2).
 */
final class StatusLines {

	private static final Status[] STATUSES = new Status[600];

	private static final byte[][] LINES = new byte[600][];

	static {
		for (int code = 100; code < LINES.length; code++) {
			Status status = Status.of(code);
			if (!status.reason().isEmpty()) {
				STATUSES[code] = status;
				LINES[code] = encode(status);
			}
		}
	}

	private StatusLines() {
	}

	static byte[] of(Status status) {
		int code = status.code();
		if (code < LINES.length && STATUSES[code] != null && STATUSES[code].reason().equals(status.reason())) {
			return LINES[code];
		}
		return encode(status);
	}

	private static byte[] encode(Status status) {
		return ("HTTP/1.1 " + status.code() + " " + status.reason() + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
	}

}
