package dev.ariadne.server.connection;

import java.nio.charset.StandardCharsets;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.Status;
import dev.ariadne.server.internal.DateClock;

/**
 * Every answer the server chooses itself, encoded in one place and the same in every model: the
 * refusals (400, 408, 413, 414, 417, 431, 501, 503, 505, and plaintext sent to a TLS port's
 * 400), the 500 of a failed handler, and the
 * interim {@code 100 Continue}; with the texts and limits that go with them.
 *
 * <p>An answer the server chooses is plain text ({@code reason} and a line feed), carries
 * {@code Date}, {@code Content-Length} and {@code Connection: close}, and the connection closes
 * after it. A connection that closes while the client may still be sending lingers first:
 * closing with unread input resets the connection, which can destroy the answer before the
 * client reads it.
 */
public final class Answers {

	/** The interim answer to {@code Expect: 100-continue}, sent when the body is wanted. */
	public static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	/** How long a closing connection discards what the client still sends: one second. */
	public static final long LINGER_NANOS = 1_000_000_000L;

	/** The default pool's workers and queue are all taken (503). */
	public static final String QUEUE_FULL = "All workers are busy and the queue is full";

	/** A connection that waited for a worker when the server began to shut down (503). */
	public static final String SHUTTING_DOWN = "Server is shutting down";

	/** A request head not complete within {@code request.header-timeout} (408). */
	public static final String HEAD_TIMEOUT = "Request head not received within the header timeout";

	/** A pause inside a request body longer than {@code request.header-timeout} (408). */
	public static final String BODY_TIMEOUT = "Request body not received within the header timeout";

	/** A request body slower than {@code request.min-data-rate} (408). */
	public static final String BODY_TOO_SLOW = "Request body arrived slower than the minimum data rate "
			+ "(ariadne.server.request.min-data-rate)";

	/** A request head or body that kept a worker of a starved pool waiting (408). */
	public static final String STALLED = "Request stalled while the server was short of workers "
			+ "(ariadne.server.low-resources.stall-timeout)";

	/** Plaintext HTTP sent to a TLS port (400); the connection closes after it. */
	public static final String TLS_REQUIRED = "This port expects TLS: send the request with https://";

	/** A handler that failed before its response was committed (500). */
	static final String HANDLER_FAILED = "Internal Server Error";

	/** A request in authority-form: the server is no proxy (501). */
	static final String CONNECT_UNSUPPORTED = "CONNECT is not supported";

	/** A request path with a malformed percent-escape (400). */
	static final String MALFORMED_PATH = "Malformed percent-encoding in the request path";

	private static final String CONTENT_TYPE = "Content-Type: text/plain; charset=utf-8\r\n";

	private Answers() {
	}

	/**
	 * Returns the reason of a 503 for a full route pool.
	 * @param pool the pool's name
	 * @return the reason
	 */
	static String poolFull(String pool) {
		return "Pool '" + pool + "' is full";
	}

	/**
	 * Returns what a body that kept the server waiting too long fails with: 408, saying why.
	 * @param expiry what ended it, not {@link BodyClock.Expiry#NONE}
	 * @return the failure
	 */
	public static HttpParseException lateBody(BodyClock.Expiry expiry) {
		String reason = switch (expiry) {
			case RATE -> BODY_TOO_SLOW;
			case STALL -> STALLED;
			default -> BODY_TIMEOUT;
		};
		return new HttpParseException(Status.REQUEST_TIMEOUT_408, reason);
	}

	/**
	 * Returns the content length of an answer, as {@link #write} sends it.
	 * @param reason the body
	 * @param headRequest whether the request was {@code HEAD}: no body is sent
	 * @return the bytes
	 */
	static long contentLength(String reason, boolean headRequest) {
		if (headRequest) {
			return 0;
		}
		long length = 1;
		for (int i = 0; i < reason.length(); i++) {
			char c = reason.charAt(i);
			// UTF-8: a surrogate pair is four bytes, two chars of two each here
			length += (c < 0x80) ? 1 : (c < 0x800 || Character.isSurrogate(c)) ? 2 : 3;
		}
		return length;
	}

	/**
	 * Appends an answer to a connection's output.
	 * @param out the output
	 * @param clock the {@code Date} clock
	 * @param status the status
	 * @param reason the body, plain text, safe to echo
	 * @param retryAfterSeconds a {@code Retry-After} value, or 0 for none
	 * @param headRequest whether the request was {@code HEAD}: the body is left out
	 */
	static void write(ConnectionOutput out, DateClock clock, Status status, String reason, int retryAfterSeconds,
			boolean headRequest) {
		byte[] body = (reason + "\n").getBytes(StandardCharsets.UTF_8);
		out.append(StatusLines.of(status));
		out.append(clock.headerLine());
		out.append(CONTENT_TYPE);
		if (retryAfterSeconds > 0) {
			out.append("Retry-After: ");
			out.appendDecimal(retryAfterSeconds);
			out.appendCrlf();
		}
		out.append("Content-Length: ");
		out.appendDecimal(body.length);
		out.append("\r\nConnection: close\r\n\r\n");
		if (!headRequest) {
			out.append(body);
		}
	}

}
