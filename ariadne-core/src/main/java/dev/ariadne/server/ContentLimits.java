package dev.ariadne.server;

/**
 * Limits on what a request may make the server parse beyond its head: its parameters, a form
 * body, its cookies and the parts of a multipart body. Each is checked before the work it
 * bounds, so that no request can make a handler's container allocate in proportion to what an
 * attacker sends: the servlet container answers 400 past a count and 413 past a size, with a
 * message that names the limit. Sizes of a part and of a multipart request are the servlet's own
 * ({@code MultipartConfigElement}, Boot's {@code spring.servlet.multipart.*}).
 *
 * @param maxParameters most request parameters, query string and form body (or multipart fields)
 * together; more is answered 400
 * @param maxFormSize largest {@code application/x-www-form-urlencoded} body parsed into
 * parameters, in bytes; larger is answered 413
 * @param maxCookies most cookies in a request's {@code Cookie} fields; more is answered 400
 * @param maxParts most parts of a multipart body, fields and files together; more is answered
 * 400
 * @param maxPartHeaderSize largest header section of one part of a multipart body, in bytes, line
 * ends included; larger is answered 413
 */
public record ContentLimits(int maxParameters, long maxFormSize, int maxCookies, int maxParts, int maxPartHeaderSize) {

	/** Most parameters by default: 1,000, as Tomcat's {@code maxParameterCount}. */
	public static final int DEFAULT_MAX_PARAMETERS = 1000;

	/** Largest form body by default: 2 MiB, as Tomcat's {@code maxPostSize}. */
	public static final long DEFAULT_MAX_FORM_SIZE = 2L * 1024 * 1024;

	/** Most cookies by default: 200, as Tomcat's {@code maxCookieCount}. */
	public static final int DEFAULT_MAX_COOKIES = 200;

	/** Most multipart parts by default: 50, as Boot sets Tomcat's {@code maxPartCount}. */
	public static final int DEFAULT_MAX_PARTS = 50;

	/** Largest part header section by default: 512 bytes, as Tomcat's {@code maxPartHeaderSize}. */
	public static final int DEFAULT_MAX_PART_HEADER_SIZE = 512;

	/** The defaults. */
	public static final ContentLimits DEFAULTS = new ContentLimits(DEFAULT_MAX_PARAMETERS, DEFAULT_MAX_FORM_SIZE,
			DEFAULT_MAX_COOKIES, DEFAULT_MAX_PARTS, DEFAULT_MAX_PART_HEADER_SIZE);

	/**
	 * Creates limits, each of which must be positive.
	 */
	public ContentLimits {
		requirePositive("request.max-parameters", maxParameters);
		requirePositive("request.max-form-size", maxFormSize);
		requirePositive("request.max-cookies", maxCookies);
		requirePositive("request.max-parts", maxParts);
		requirePositive("request.max-part-header-size", maxPartHeaderSize);
	}

	private static void requirePositive(String name, long value) {
		if (value <= 0) {
			throw new IllegalArgumentException("ariadne.server." + name + " must be greater than 0, but was " + value);
		}
	}

}
