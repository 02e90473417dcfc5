package dev.ariadne.servlet;

/**
 * A request path that Servlet 6.1 section 3.5.2 calls suspicious: the request is answered 400
 * and reaches no filter or servlet. The message names the sequence and is safe to echo.
 */
final class SuspiciousPathException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	SuspiciousPathException(String reason) {
		super(reason);
	}

}
