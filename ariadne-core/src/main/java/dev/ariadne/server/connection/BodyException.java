package dev.ariadne.server.connection;

import java.io.IOException;

import dev.ariadne.http.HttpParseException;

/**
 * A request body that turned out to be malformed or too large while a handler was reading it.
 * It reaches the handler as an {@link IOException}; if the handler lets it escape before
 * committing its response, the client gets the parser's status.
 */
final class BodyException extends IOException {

	private static final long serialVersionUID = 1L;

	BodyException(HttpParseException cause) {
		super(cause.reason(), cause);
	}

	HttpParseException parseException() {
		return (HttpParseException) getCause();
	}

}
