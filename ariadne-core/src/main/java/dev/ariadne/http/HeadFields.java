package dev.ariadne.http;

/**
 * What the header fields of a request head mean for the message (RFC 9112 §6, RFC 9110 §7.2,
 * §10.1.1): {@code Host} (exactly one in HTTP/1.1, valid characters), {@code Content-Length}
 * (digits, equal when repeated, within the body limit), {@code Transfer-Encoding} (only
 * {@code chunked}, last and once, never with a length or in HTTP/1.0), {@code Connection}
 * ({@code close}, {@code keep-alive}) and {@code Expect} (only {@code 100-continue}). Checked once
 * the header section is complete; the results go into the {@link RequestHead}.
 */
final class HeadFields {

	private HeadFields() {
	}

	/**
	 * Checks the framing fields of a complete head and records what they say in it.
	 * @param head the head
	 * @param headers its header fields, names interned as {@link HeaderName} constants
	 * @param maxBodySize the largest body accepted
	 * @throws HttpParseException naming the problem and its status
	 */
	static void apply(RequestHead head, Headers headers, long maxBodySize) throws HttpParseException {
		int hosts = 0;
		boolean transferEncoding = false;
		for (int i = 0; i < headers.size(); i++) {
			String name = headers.name(i);
			String value = headers.value(i);
			if (name == HeaderName.HOST) {
				hosts++;
				checkHost(value);
			}
			else if (name == HeaderName.CONTENT_LENGTH) {
				contentLength(head, value);
			}
			else if (name == HeaderName.TRANSFER_ENCODING) {
				transferEncoding = true;
				transferCodings(head, value);
			}
			else if (name == HeaderName.CONNECTION) {
				head.closeRequested |= Headers.listsToken(value, "close");
				head.keepAliveRequested |= Headers.listsToken(value, "keep-alive");
			}
			else if (name == HeaderName.EXPECT) {
				expectation(head, value);
			}
		}
		if (hosts > 1) {
			throw bad("More than one Host header");
		}
		if (hosts == 0 && head.version() == Version.HTTP_1_1) {
			throw bad("HTTP/1.1 request without a Host header");
		}
		if (transferEncoding) {
			if (head.version() == Version.HTTP_1_0) {
				throw bad("Transfer-Encoding in an HTTP/1.0 request");
			}
			if (head.contentLength >= 0) {
				throw bad("Both Content-Length and Transfer-Encoding");
			}
			if (!head.chunked) {
				throw bad("Transfer-Encoding without chunked as the final coding");
			}
		}
		if (head.contentLength > maxBodySize) {
			throw new HttpParseException(Status.CONTENT_TOO_LARGE_413,
					"Request body larger than " + maxBodySize + " bytes");
		}
	}

	private static void checkHost(String value) throws HttpParseException {
		for (int i = 0; i < value.length(); i++) {
			if (!Ascii.isHost(value.charAt(i))) {
				throw bad("Invalid Host header");
			}
		}
	}

	private static void contentLength(RequestHead head, String value) throws HttpParseException {
		int length = value.length();
		int start = 0;
		while (start <= length) {
			int comma = value.indexOf(',', start);
			int end = (comma < 0) ? length : comma;
			long parsed = digits(value, trimStart(value, start, end), trimEnd(value, start, end));
			if (head.contentLength >= 0 && head.contentLength != parsed) {
				throw bad("Conflicting Content-Length values");
			}
			head.contentLength = parsed;
			if (comma < 0) {
				return;
			}
			start = comma + 1;
		}
	}

	/** Parses 1*DIGIT; a number too large for a long counts as larger than any body limit. */
	private static long digits(String value, int start, int end) throws HttpParseException {
		if (start == end) {
			throw bad("Empty Content-Length");
		}
		long result = 0;
		for (int i = start; i < end; i++) {
			char c = value.charAt(i);
			if (c < '0' || c > '9') {
				throw bad("Content-Length is not a non-negative decimal number");
			}
			if (result > (Long.MAX_VALUE - 9) / 10) {
				result = Long.MAX_VALUE;
			}
			else {
				result = result * 10 + (c - '0');
			}
		}
		return result;
	}

	private static void transferCodings(RequestHead head, String value) throws HttpParseException {
		int length = value.length();
		int start = 0;
		while (start <= length) {
			int comma = value.indexOf(',', start);
			int end = (comma < 0) ? length : comma;
			int s = trimStart(value, start, end);
			int e = trimEnd(value, start, end);
			if (s < e) {
				if (head.chunked) {
					throw bad("chunked must be the final transfer coding, applied once");
				}
				if (e - s == 7 && value.regionMatches(true, s, "chunked", 0, 7)) {
					head.chunked = true;
				}
				else {
					throw new HttpParseException(Status.NOT_IMPLEMENTED_501,
							"Unsupported transfer coding: only chunked is understood");
				}
			}
			if (comma < 0) {
				return;
			}
			start = comma + 1;
		}
	}

	private static void expectation(RequestHead head, String value) throws HttpParseException {
		if (value.equalsIgnoreCase("100-continue")) {
			// RFC 9110 §10.1.1: ignored in HTTP/1.0, which cannot receive a 1xx response
			head.expectContinue = head.version() == Version.HTTP_1_1;
		}
		else {
			throw new HttpParseException(Status.EXPECTATION_FAILED_417, "Only the 100-continue expectation is supported");
		}
	}

	private static int trimStart(String value, int start, int end) {
		while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
			start++;
		}
		return start;
	}

	private static int trimEnd(String value, int start, int end) {
		while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
			end--;
		}
		return end;
	}

	private static HttpParseException bad(String reason) {
		return new HttpParseException(Status.BAD_REQUEST_400, reason);
	}

}
