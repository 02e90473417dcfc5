package dev.ariadne.http;

import java.nio.charset.StandardCharsets;

/**
 * The request target and version of a request line (RFC 9112 §3.2, §2.3): origin-form
 * ({@code /path?query}), absolute-form ({@code http://host/path}, without userinfo),
 * asterisk-form ({@code *}, {@code OPTIONS} only) and authority-form ({@code host:port},
 * {@code CONNECT} only); versions 1.0 and 1.1, a higher 1.x minor version read as 1.1.
 */
final class RequestTarget {

	private static final byte[] HTTP_SLASH = "HTTP/".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] SCHEME_HTTP = "http://".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] SCHEME_HTTPS = "https://".getBytes(StandardCharsets.US_ASCII);

	private RequestTarget() {
	}

	/**
	 * Reads the version at the end of a request line.
	 * @param b the line
	 * @param start where the version starts
	 * @param end where the line ends
	 * @return the version
	 * @throws HttpParseException 400 when malformed, 505 for a major version other than 1
	 */
	static Version version(byte[] b, int start, int end) throws HttpParseException {
		if (end - start != 8 || !Ascii.equals(HTTP_SLASH, b, start) || !isDigit(b[start + 5])
				|| b[start + 6] != '.' || !isDigit(b[start + 7])) {
			throw bad("Malformed request line: the version must be HTTP/<digit>.<digit>");
		}
		if (b[start + 5] != '1') {
			throw new HttpParseException(Status.VERSION_NOT_SUPPORTED_505, "Only HTTP/1.0 and HTTP/1.1 are supported");
		}
		// a higher 1.x minor version is processed as 1.1 (RFC 9110 §6.2)
		return (b[start + 7] == '0') ? Version.HTTP_1_0 : Version.HTTP_1_1;
	}

	/**
	 * Reads the request target and makes the request's head.
	 * @param method the method
	 * @param target the target as a string
	 * @param b the line
	 * @param start where the target starts
	 * @param end where it ends
	 * @param version the version
	 * @param headers the (empty) header fields the head will hold
	 * @return the head
	 * @throws HttpParseException 400 when the target's form does not fit the method
	 */
	static RequestHead head(Method method, String target, byte[] b, int start, int end, Version version,
			Headers headers) throws HttpParseException {
		if (b[start] == '/') {
			if (method == Method.CONNECT) {
				throw bad("CONNECT requires an authority-form target");
			}
			return new RequestHead(method, target, RequestHead.TargetForm.ORIGIN, target, version, headers);
		}
		if (end - start == 1 && b[start] == '*') {
			if (method != Method.OPTIONS) {
				throw bad("The asterisk-form target is allowed only with OPTIONS");
			}
			return new RequestHead(method, target, RequestHead.TargetForm.ASTERISK, target, version, headers);
		}
		if (method == Method.CONNECT) {
			if (target.indexOf('/') >= 0 || target.indexOf(':') <= 0) {
				throw bad("CONNECT requires an authority-form target (host:port)");
			}
			return new RequestHead(method, target, RequestHead.TargetForm.AUTHORITY, target, version, headers);
		}
		int schemeLength = hasPrefixIgnoreCase(SCHEME_HTTP, b, start, end) ? SCHEME_HTTP.length
				: hasPrefixIgnoreCase(SCHEME_HTTPS, b, start, end) ? SCHEME_HTTPS.length : -1;
		if (schemeLength < 0) {
			throw bad("Request target must be a path, an absolute http(s) URI, or * for OPTIONS");
		}
		int authorityStart = schemeLength;
		int pathStart = authorityStart;
		while (pathStart < target.length() && target.charAt(pathStart) != '/' && target.charAt(pathStart) != '?') {
			pathStart++;
		}
		if (pathStart == authorityStart) {
			throw bad("Absolute-form target without a host");
		}
		if (target.lastIndexOf('@', pathStart - 1) >= authorityStart) {
			throw bad("Absolute-form target with userinfo (RFC 9110 §4.2.4)");
		}
		String rest = target.substring(pathStart);
		String pathAndQuery = rest.isEmpty() ? "/" : (rest.charAt(0) == '?') ? "/" + rest : rest;
		return new RequestHead(method, target, RequestHead.TargetForm.ABSOLUTE, pathAndQuery, version, headers);
	}

	private static boolean hasPrefixIgnoreCase(byte[] prefix, byte[] b, int start, int end) {
		return end - start > prefix.length && Ascii.equalsIgnoreCase(prefix, b, start);
	}

	private static boolean isDigit(byte b) {
		return b >= '0' && b <= '9';
	}

	private static HttpParseException bad(String reason) {
		return new HttpParseException(Status.BAD_REQUEST_400, reason);
	}

}
