package dev.ariadne.http;

/**
 * Limits the parser enforces while it reads a request, so that no request can make it buffer
 * without bound. Each limit is answered with its own status.
 *
 * @param maxLineLength longest request line in bytes, CRLF excluded; longer is answered 414
 * @param maxHeaderSize largest header section (or trailer section) in bytes, line ends included;
 * larger is answered 431
 * @param maxHeaderCount most header fields in one request; more is answered 431
 * @param maxBodySize largest request body in bytes, declared or chunked; larger is answered 413
 * before any of it is read
 */
public record ParserLimits(int maxLineLength, int maxHeaderSize, int maxHeaderCount, long maxBodySize) {

	/** Longest request line by default: 8 KiB, as in Tomcat and Jetty. */
	public static final int DEFAULT_MAX_LINE_LENGTH = 8 * 1024;

	/** Largest header section by default: 16 KiB. */
	public static final int DEFAULT_MAX_HEADER_SIZE = 16 * 1024;

	/** Most header fields by default: 100. */
	public static final int DEFAULT_MAX_HEADER_COUNT = 100;

	/** Largest request body by default: 10 MiB. */
	public static final long DEFAULT_MAX_BODY_SIZE = 10L * 1024 * 1024;

	/** The defaults. */
	public static final ParserLimits DEFAULTS = new ParserLimits(DEFAULT_MAX_LINE_LENGTH, DEFAULT_MAX_HEADER_SIZE,
			DEFAULT_MAX_HEADER_COUNT, DEFAULT_MAX_BODY_SIZE);

	/**
	 * Creates limits, each of which must be positive.
	 */
	public ParserLimits {
		requirePositive("request.max-line-length", maxLineLength);
		requirePositive("request.max-header-size", maxHeaderSize);
		requirePositive("request.max-header-count", maxHeaderCount);
		if (maxBodySize < 0) {
			throw new IllegalArgumentException(
					"ariadne.server.request.max-body-size must be 0 or more, but was " + maxBodySize);
		}
	}

	private static void requirePositive(String name, long value) {
		if (value <= 0) {
			throw new IllegalArgumentException("ariadne.server." + name + " must be greater than 0, but was " + value);
		}
	}

}
