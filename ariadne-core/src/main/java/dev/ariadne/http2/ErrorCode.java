package dev.ariadne.http2;

/**
 * The error codes of RFC 9113 §7, carried by {@code RST_STREAM} and {@code GOAWAY}.
 */
public enum ErrorCode {

	/** Graceful shutdown, or no error. */
	NO_ERROR(0x0),

	/** A protocol error not covered by a more specific code. */
	PROTOCOL_ERROR(0x1),

	/** The endpoint failed for a reason of its own. */
	INTERNAL_ERROR(0x2),

	/** A flow-control window was exceeded or overflowed. */
	FLOW_CONTROL_ERROR(0x3),

	/** A {@code SETTINGS} frame was not acknowledged in time. */
	SETTINGS_TIMEOUT(0x4),

	/** A frame arrived on a stream that was already half-closed (remote) or closed. */
	STREAM_CLOSED(0x5),

	/** A frame had a length its type does not allow. */
	FRAME_SIZE_ERROR(0x6),

	/** The stream was refused before any application processing. */
	REFUSED_STREAM(0x7),

	/** The stream is no longer needed. */
	CANCEL(0x8),

	/** The field-compression context can no longer be maintained. */
	COMPRESSION_ERROR(0x9),

	/** The connection of a {@code CONNECT} request was reset or closed. */
	CONNECT_ERROR(0xa),

	/** The peer generates excessive load. */
	ENHANCE_YOUR_CALM(0xb),

	/** The transport does not meet the minimum security requirements. */
	INADEQUATE_SECURITY(0xc),

	/** HTTP/1.1 must be used instead. */
	HTTP_1_1_REQUIRED(0xd);

	private static final ErrorCode[] BY_CODE = values();

	private final int code;

	ErrorCode(int code) {
		this.code = code;
	}

	/**
	 * Returns the code as it appears on the wire.
	 * @return the 32-bit code
	 */
	public int code() {
		return this.code;
	}

	/**
	 * Returns the error code with the given wire value; an unknown value means
	 * {@link #INTERNAL_ERROR}, as RFC 9113 §7 allows.
	 * @param code the 32-bit code
	 * @return the error code
	 */
	public static ErrorCode of(int code) {
		return (code >= 0 && code < BY_CODE.length) ? BY_CODE[code] : INTERNAL_ERROR;
	}

}
