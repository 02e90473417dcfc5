package dev.ariadne.servlet;

/**
 * A failure the container detected in what the client sent, carrying the status it is answered
 * with (through the error page for that status, when there is one). The message is safe to log
 * and to show an error page.
 */
final class StatusException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final int status;

	private final boolean shown;

	StatusException(int status, String message) {
		this(status, message, null, false);
	}

	StatusException(int status, String message, Throwable cause) {
		this(status, message, cause, false);
	}

	private StatusException(int status, String message, Throwable cause, boolean shown) {
		super(message, cause);
		this.status = status;
		this.shown = shown;
	}

	/**
	 * Returns the refusal of a request over one of the content limits, or the server's memory:
	 * a message that names the limit (and the property that sets it) and holds nothing the
	 * client sent, so that the container's own error body shows it to the client.
	 * @param status the status, 4xx or 503
	 * @param message the message
	 * @return the exception
	 */
	static StatusException refusal(int status, String message) {
		return new StatusException(status, message, null, true);
	}

	/**
	 * Returns the refusal of a request whose limit the core found (a body longer than allowed, no
	 * memory free): the core's reason, which holds nothing the client sent.
	 * @param status the status
	 * @param message the message
	 * @param cause the core's failure
	 * @return the exception
	 */
	static StatusException refusal(int status, String message, Throwable cause) {
		return new StatusException(status, message, cause, true);
	}

	int status() {
		return this.status;
	}

	/** Whether the container's own error body shows the message. */
	boolean shown() {
		return this.shown;
	}

}
