package dev.ariadne.servlet;

/**
 * A {@code multipart/form-data} request over a limit of the servlet's
 * {@code MultipartConfigElement}. An {@link IllegalStateException}, as the Servlet API
 * documents for {@code getParts}; the message says what "exceeds" which maximum "size", which
 * is what Spring's multipart resolver recognises to answer 413. Uncaught, it is answered 413.
 */
final class MultipartLimitException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	MultipartLimitException(String message) {
		super(message);
	}

}
