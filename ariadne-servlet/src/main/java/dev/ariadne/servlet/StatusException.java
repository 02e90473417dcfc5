package dev.ariadne.servlet;

/**
 * A failure the container detected in what the client sent, carrying the status it is answered
 * with (through the error page for that status, when there is one). The message is safe to echo.
 */
final class StatusException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final int status;

	StatusException(int status, String message) {
		super(message);
		this.status = status;
	}

	StatusException(int status, String message, Throwable cause) {
		super(message, cause);
		this.status = status;
	}

	int status() {
		return this.status;
	}

}
