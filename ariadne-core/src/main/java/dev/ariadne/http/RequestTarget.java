package dev.ariadne.http;

import java.nio.charset.StandardCharsets;

/**
 * The request target and version of a request line (RFC 9112 §3.2, §2.3): origin-form
 * ({@code /path?query}), absolute-form ({@code http://host/path}, without userinfo),
 * asterisk-form ({@code *}, {@code OPTIONS} only) and authority-form ({@code host:port},
 * {@code CONNECT} only); versions 1.0 and 1.1, a higher 1.x minor version read as 1.1. The same
 * rules check the targets of codecs that have no request line ({@link RequestHead#of}).
 */
final class RequestTarget {

	private static final byte[] HTTP_SLASH = "HTTP/".getBytes(StandardCharsets.US_ASCII);

	private static final String SCHEME_HTTP = "http://";

	private static final String SCHEME_HTTPS = "https://";

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
	 * Reads the request target of a request line and makes the request's head; the form follows
	 * from the target and the method.
	 * @param method the method
	 * @param target the target, its characters already checked ({@link Ascii#isTarget})
	 * @param version the version
	 * @param headers the (empty) header fields the head will hold
	 * @return the head
	 * @throws HttpParseException 400 when the target's form does not fit the method
	 */
	static RequestHead head(Method method, String target, Version version, Headers headers)
			throws HttpParseException {
		if (target.charAt(0) == '/') {
			if (method == Method.CONNECT) {
				throw bad("CONNECT requires an authority-form target");
			}
			return new RequestHead(method, target, RequestHead.TargetForm.ORIGIN, target, version, headers);
		}
		if (target.length() == 1 && target.charAt(0) == '*') {
			return asterisk(method, target, version, headers);
		}
		if (method == Method.CONNECT) {
			return authority(method, target, version, headers);
		}
		return absolute(method, target, version, headers);
	}

	/**
	 * Checks a target that did not come in a request line (HTTP/2's {@code :path} or
	 * {@code :authority}) with the request line's rules, in the form its codec says it has, and
	 * makes the request's head. Unlike a request line, {@code CONNECT} may have an origin-form
	 * target: extended {@code CONNECT} (RFC 8441) carries one.
	 * @param method the method
	 * @param target the target as received
	 * @param form the form the target must have
	 * @param version the version
	 * @param headers the header fields the head will hold
	 * @return the head
	 * @throws HttpParseException 400 when the target has an invalid character or is not of that form
	 */
	static RequestHead head(Method method, String target, RequestHead.TargetForm form, Version version,
			Headers headers) throws HttpParseException {
		if (target.isEmpty()) {
			throw bad("Empty request target");
		}
		for (int i = 0; i < target.length(); i++) {
			char c = target.charAt(i);
			if (c > 0xFF || !Ascii.isTarget((byte) c)) {
				throw bad("Invalid character in the request target");
			}
		}
		return switch (form) {
			case ORIGIN -> {
				if (target.charAt(0) != '/') {
					throw bad("An origin-form target must start with /");
				}
				yield new RequestHead(method, target, RequestHead.TargetForm.ORIGIN, target, version, headers);
			}
			case ASTERISK -> {
				if (target.length() != 1 || target.charAt(0) != '*') {
					throw bad("An asterisk-form target must be *");
				}
				yield asterisk(method, target, version, headers);
			}
			case AUTHORITY -> {
				if (method != Method.CONNECT) {
					throw bad("The authority-form target is allowed only with CONNECT");
				}
				yield authority(method, target, version, headers);
			}
			case ABSOLUTE -> absolute(method, target, version, headers);
		};
	}

	private static RequestHead asterisk(Method method, String target, Version version, Headers headers)
			throws HttpParseException {
		if (method != Method.OPTIONS) {
			throw bad("The asterisk-form target is allowed only with OPTIONS");
		}
		return new RequestHead(method, target, RequestHead.TargetForm.ASTERISK, target, version, headers);
	}

	private static RequestHead authority(Method method, String target, Version version, Headers headers)
			throws HttpParseException {
		if (target.indexOf('/') >= 0 || target.indexOf(':') <= 0) {
			throw bad("CONNECT requires an authority-form target (host:port)");
		}
		return new RequestHead(method, target, RequestHead.TargetForm.AUTHORITY, target, version, headers);
	}

	private static RequestHead absolute(Method method, String target, Version version, Headers headers)
			throws HttpParseException {
		int schemeLength = hasPrefixIgnoreCase(SCHEME_HTTP, target) ? SCHEME_HTTP.length()
				: hasPrefixIgnoreCase(SCHEME_HTTPS, target) ? SCHEME_HTTPS.length() : -1;
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

	/** The target's characters are all US-ASCII here, so ignoring case is ASCII case folding. */
	private static boolean hasPrefixIgnoreCase(String prefix, String target) {
		return target.length() > prefix.length() && target.regionMatches(true, 0, prefix, 0, prefix.length());
	}

	private static boolean isDigit(byte b) {
		return b >= '0' && b <= '9';
	}

	private static HttpParseException bad(String reason) {
		return new HttpParseException(Status.BAD_REQUEST_400, reason);
	}

}
