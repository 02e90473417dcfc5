package dev.ariadne.servlet;

import java.io.IOException;
import java.io.UncheckedIOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletResponse;

import dev.ariadne.http.HttpParseException;

/**
 * What a failure of a request says about its answer: whether the container refused the request
 * (a limit, a malformed body, no memory free), whatever the application wrapped that in, and with
 * which status.
 */
final class Refusals {

	private Refusals() {
	}

	/**
	 * Finds what in a failure's causes says the container refused the request (a limit, a
	 * malformed body, no memory free): the failures the container throws, whatever the
	 * application wrapped them in (Spring's multipart resolver wraps them in a
	 * {@code MultipartException}, its servlet in a {@link ServletException}).
	 * @param failure what the application threw
	 * @return the refusal, or {@code null} for a failure of the application
	 */
	static Throwable refusal(Throwable failure) {
		Throwable cause = failure;
		for (int depth = 0; cause != null && depth < 16; depth++) {
			if (cause instanceof StatusException || cause instanceof MultipartLimitException
					|| (cause instanceof IOException && cause.getCause() instanceof HttpParseException)) {
				return cause;
			}
			cause = cause.getCause();
		}
		return null;
	}

	/**
	 * Returns the cause a servlet's or an unchecked I/O failure wraps.
	 * @param failure what the application threw
	 * @return the failure unwrapped once
	 */
	static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		if (cause instanceof ServletException servletException && servletException.getRootCause() != null) {
			cause = servletException.getRootCause();
		}
		if (cause instanceof UncheckedIOException unchecked) {
			cause = unchecked.getCause();
		}
		return cause;
	}

	/**
	 * Returns the status that answers a refusal.
	 * @param refusal the refusal, or {@code null}
	 * @return its status; 500 for none
	 */
	static int statusOf(Throwable refusal) {
		if (refusal instanceof StatusException statusException) {
			return statusException.status();
		}
		if (refusal instanceof MultipartLimitException) {
			return HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE;
		}
		if (refusal != null && refusal.getCause() instanceof HttpParseException parse) {
			return parse.status().code();
		}
		return HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
	}

}
