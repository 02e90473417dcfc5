package dev.ariadne.websocket;

/**
 * An error in what the peer sent that fails the WebSocket connection (RFC 6455 §7.1.7): the
 * endpoint sends a close frame with {@link #closeCode()}, if it may still send one, and closes
 * the connection.
 *
 * <p>The reason is written by Ariadne and never echoes peer bytes, so it may go into the close
 * frame; it is at most 123 bytes of UTF-8, as a close frame's reason must be.
 */
public final class WebSocketException extends Exception {

	private static final long serialVersionUID = 1L;

	/** The code of the close frame that fails the connection. */
	private final int closeCode;

	/**
	 * Creates an error that fails the connection with the given code.
	 * @param closeCode the code of the close frame, one that {@link CloseCode#isValid} accepts
	 * @param reason a short explanation in ASCII, at most 123 characters, safe to send to the peer
	 */
	public WebSocketException(int closeCode, String reason) {
		super(reason, null, false, false);
		if (!CloseCode.isValid(closeCode)) {
			throw new IllegalArgumentException("Close code " + closeCode + " may not be sent");
		}
		if (reason.length() > FrameWriter.MAX_CLOSE_REASON) {
			throw new IllegalArgumentException("Close reason longer than 123 bytes: " + reason);
		}
		this.closeCode = closeCode;
	}

	/**
	 * Returns the code to close the connection with: {@link CloseCode#PROTOCOL_ERROR},
	 * {@link CloseCode#INVALID_PAYLOAD}, {@link CloseCode#MESSAGE_TOO_BIG}, or whatever a
	 * listener chose.
	 * @return the close code
	 */
	public int closeCode() {
		return this.closeCode;
	}

	/**
	 * Returns the reason, safe to send to the peer in the close frame.
	 * @return the reason
	 */
	public String reason() {
		return getMessage();
	}

}
