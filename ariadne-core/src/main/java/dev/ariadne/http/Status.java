package dev.ariadne.http;

/**
 * A response status: a three-digit code and its reason phrase.
 *
 * @param code the status code, 100 to 999
 * @param reason the reason phrase written in the status line
 */
public record Status(int code, String reason) {

	/** 100 Continue. */
	public static final Status CONTINUE_100 = new Status(100, "Continue");

	/** 200 OK. */
	public static final Status OK_200 = new Status(200, "OK");

	/** 204 No Content. */
	public static final Status NO_CONTENT_204 = new Status(204, "No Content");

	/** 304 Not Modified. */
	public static final Status NOT_MODIFIED_304 = new Status(304, "Not Modified");

	/** 400 Bad Request. */
	public static final Status BAD_REQUEST_400 = new Status(400, "Bad Request");

	/** 404 Not Found. */
	public static final Status NOT_FOUND_404 = new Status(404, "Not Found");

	/** 405 Method Not Allowed. */
	public static final Status METHOD_NOT_ALLOWED_405 = new Status(405, "Method Not Allowed");

	/** 408 Request Timeout. */
	public static final Status REQUEST_TIMEOUT_408 = new Status(408, "Request Timeout");

	/** 413 Content Too Large. */
	public static final Status CONTENT_TOO_LARGE_413 = new Status(413, "Content Too Large");

	/** 414 URI Too Long. */
	public static final Status URI_TOO_LONG_414 = new Status(414, "URI Too Long");

	/** 417 Expectation Failed. */
	public static final Status EXPECTATION_FAILED_417 = new Status(417, "Expectation Failed");

	/** 431 Request Header Fields Too Large. */
	public static final Status HEADER_FIELDS_TOO_LARGE_431 = new Status(431, "Request Header Fields Too Large");

	/** 500 Internal Server Error. */
	public static final Status INTERNAL_SERVER_ERROR_500 = new Status(500, "Internal Server Error");

	/** 501 Not Implemented. */
	public static final Status NOT_IMPLEMENTED_501 = new Status(501, "Not Implemented");

	/** 503 Service Unavailable. */
	public static final Status SERVICE_UNAVAILABLE_503 = new Status(503, "Service Unavailable");

	/** 505 HTTP Version Not Supported. */
	public static final Status VERSION_NOT_SUPPORTED_505 = new Status(505, "HTTP Version Not Supported");

	private static final Status[] BY_CODE = new Status[600];

	static {
		for (Status status : new Status[] { CONTINUE_100, new Status(101, "Switching Protocols"), OK_200,
				new Status(201, "Created"), new Status(202, "Accepted"), new Status(203, "Non-Authoritative Information"),
				NO_CONTENT_204, new Status(205, "Reset Content"), new Status(206, "Partial Content"),
				new Status(300, "Multiple Choices"), new Status(301, "Moved Permanently"), new Status(302, "Found"),
				new Status(303, "See Other"), NOT_MODIFIED_304, new Status(307, "Temporary Redirect"),
				new Status(308, "Permanent Redirect"), BAD_REQUEST_400, new Status(401, "Unauthorized"),
				new Status(402, "Payment Required"), new Status(403, "Forbidden"), NOT_FOUND_404, METHOD_NOT_ALLOWED_405,
				new Status(406, "Not Acceptable"), new Status(407, "Proxy Authentication Required"),
				REQUEST_TIMEOUT_408, new Status(409, "Conflict"), new Status(410, "Gone"),
				new Status(411, "Length Required"), new Status(412, "Precondition Failed"), CONTENT_TOO_LARGE_413,
				URI_TOO_LONG_414, new Status(415, "Unsupported Media Type"), new Status(416, "Range Not Satisfiable"),
				EXPECTATION_FAILED_417, new Status(421, "Misdirected Request"), new Status(422, "Unprocessable Content"),
				new Status(425, "Too Early"), new Status(426, "Upgrade Required"),
				new Status(428, "Precondition Required"), new Status(429, "Too Many Requests"),
				HEADER_FIELDS_TOO_LARGE_431, new Status(451, "Unavailable For Legal Reasons"),
				INTERNAL_SERVER_ERROR_500, NOT_IMPLEMENTED_501, new Status(502, "Bad Gateway"),
				SERVICE_UNAVAILABLE_503, new Status(504, "Gateway Timeout"), VERSION_NOT_SUPPORTED_505 }) {
			BY_CODE[status.code] = status;
		}
	}

	/**
	 * Creates a status.
	 * @param code the status code, 100 to 999
	 * @param reason the reason phrase, without CR or LF
	 */
	public Status {
		if (code < 100 || code > 999) {
			throw new IllegalArgumentException("Status code must be between 100 and 999, was " + code);
		}
		if (reason == null || reason.indexOf('\r') >= 0 || reason.indexOf('\n') >= 0) {
			throw new IllegalArgumentException("Reason phrase must be present and free of CR and LF");
		}
	}

	/**
	 * Returns the status for a code, with the RFC 9110 reason phrase when there is one.
	 * @param code the status code, 100 to 999
	 * @return the status
	 */
	public static Status of(int code) {
		Status known = (code >= 0 && code < BY_CODE.length) ? BY_CODE[code] : null;
		return (known != null) ? known : new Status(code, "");
	}

	/**
	 * Returns whether a response with this status never has content (1xx, 204 and 304).
	 * @return whether the response must not carry a body
	 */
	public boolean forbidsContent() {
		return this.code < 200 || this.code == 204 || this.code == 304;
	}

}
