package dev.ariadne.http;

/**
 * A request the server refuses to process, carrying the status to answer it with.
 *
 * <p>The codec throws it where the problem is detected; the connection layer turns it into a
 * response in one place and then closes the connection, because after a framing error the next
 * request on the stream cannot be located reliably. The reason is written by Ariadne itself and
 * never echoes client bytes, so it is always safe to send back.
 */
public final class HttpParseException extends Exception {

	private static final long serialVersionUID = 1L;

	private final Status status;

	/**
	 * Creates an exception answered with the given status.
	 * @param status the status of the error response
	 * @param reason a short explanation, safe to send to the client
	 */
	public HttpParseException(Status status, String reason) {
		super(reason, null, false, false);
		this.status = status;
	}

	/**
	 * Returns the status the request is answered with.
	 * @return the error status
	 */
	public Status status() {
		return this.status;
	}

	/**
	 * Returns the reason, safe to echo to the client.
	 * @return the reason
	 */
	public String reason() {
		return getMessage();
	}

}
