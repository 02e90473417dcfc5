package dev.ariadne.http2;

/**
 * An error found in what the peer sent: a connection error (RFC 9113 §5.4.1), answered with
 * {@code GOAWAY} and a close, or a stream error (§5.4.2), answered with {@code RST_STREAM} on
 * that stream while the connection goes on.
 *
 * <p>The reason is written by Ariadne and never echoes peer bytes, so it may go into a
 * {@code GOAWAY}'s debug data.
 */
public final class Http2Exception extends Exception {

	private static final long serialVersionUID = 1L;

	private final ErrorCode error;

	private final int streamId;

	private final Abuse abuse;

	private Http2Exception(ErrorCode error, int streamId, String reason, Abuse abuse) {
		super(reason, null, false, false);
		this.error = error;
		this.streamId = streamId;
		this.abuse = abuse;
	}

	/**
	 * Creates a connection error.
	 * @param error the code for the {@code GOAWAY}
	 * @param reason a short explanation, safe to send to the peer
	 * @return the exception
	 */
	public static Http2Exception connection(ErrorCode error, String reason) {
		return new Http2Exception(error, 0, reason, null);
	}

	/**
	 * Creates the connection error that ends a client's abuse: {@code ENHANCE_YOUR_CALM}.
	 * @param abuse what the client did
	 * @param reason what happened, for the {@code GOAWAY}'s debug data and the log
	 * @return the exception
	 */
	public static Http2Exception abuse(Abuse abuse, String reason) {
		return new Http2Exception(ErrorCode.ENHANCE_YOUR_CALM, 0, reason, abuse);
	}

	/**
	 * Creates a stream error.
	 * @param streamId the stream to reset, never 0
	 * @param error the code for the {@code RST_STREAM}
	 * @param reason a short explanation
	 * @return the exception
	 */
	public static Http2Exception stream(int streamId, ErrorCode error, String reason) {
		if (streamId <= 0) {
			throw new IllegalArgumentException("A stream error needs a stream, not " + streamId);
		}
		return new Http2Exception(error, streamId, reason, null);
	}

	/**
	 * Returns the error code.
	 * @return the code
	 */
	public ErrorCode error() {
		return this.error;
	}

	/**
	 * Returns the stream the error is on, or 0 for a connection error.
	 * @return the stream id
	 */
	public int streamId() {
		return this.streamId;
	}

	/**
	 * Returns whether the whole connection must end.
	 * @return {@code true} for a connection error
	 */
	public boolean isConnectionError() {
		return this.streamId == 0;
	}

	/**
	 * Returns what the client did, when the error ends its abuse of a limit.
	 * @return the abuse, or {@code null} for a protocol error
	 */
	public Abuse abuse() {
		return this.abuse;
	}

	/**
	 * Returns the reason, safe to send to the peer.
	 * @return the reason
	 */
	public String reason() {
		return getMessage();
	}

}
