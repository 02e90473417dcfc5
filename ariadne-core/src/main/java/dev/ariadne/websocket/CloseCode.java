package dev.ariadne.websocket;

/**
 * The status codes of a close frame (RFC 6455 §7.4), and which of them may appear in one.
 *
 * <p>A close frame may carry 1000-1003, 1007-1014 (the codes registered with IANA in the range
 * RFC 6455 reserves for itself) and 3000-4999 (libraries, frameworks and applications). Never
 * 0-999 or 5000 and up; never 1004 (reserved), 1016-2999 (unassigned); never 1005, 1006 or
 * 1015, which only stand for "no code", "closed without a close frame" and "TLS failed" in an
 * API. The same rule applies to codes received and codes sent.
 */
public final class CloseCode {

	/** 1000: the purpose of the connection is fulfilled. */
	public static final int NORMAL = 1000;

	/** 1001: the endpoint goes away (a server shutting down, a page left). */
	public static final int GOING_AWAY = 1001;

	/** 1002: the peer broke the protocol. */
	public static final int PROTOCOL_ERROR = 1002;

	/** 1003: a type of data the endpoint cannot accept (binary where only text is understood). */
	public static final int UNSUPPORTED_DATA = 1003;

	/** 1005: no code was in the close frame; never sent. */
	public static final int NO_STATUS = 1005;

	/** 1006: the connection closed without a close frame; never sent. */
	public static final int ABNORMAL = 1006;

	/** 1007: a message's data is not of its type (text that is not UTF-8, bad compressed data). */
	public static final int INVALID_PAYLOAD = 1007;

	/** 1008: a message breaks the endpoint's policy. */
	public static final int POLICY_VIOLATION = 1008;

	/** 1009: a frame or a message is larger than the endpoint accepts. */
	public static final int MESSAGE_TOO_BIG = 1009;

	/** 1010: the client expected an extension the server did not agree to. */
	public static final int MANDATORY_EXTENSION = 1010;

	/** 1011: the server met a condition that prevented it from fulfilling the request. */
	public static final int INTERNAL_ERROR = 1011;

	/** 1012: the service is restarting. */
	public static final int SERVICE_RESTART = 1012;

	/** 1013: try again later (the server is overloaded). */
	public static final int TRY_AGAIN_LATER = 1013;

	/** 1014: a gateway got an invalid response upstream. */
	public static final int BAD_GATEWAY = 1014;

	/** 1015: the TLS handshake failed; never sent. */
	public static final int TLS_HANDSHAKE = 1015;

	private CloseCode() {
	}

	/**
	 * Returns whether a close frame may carry the code, sent or received.
	 * @param code the code
	 * @return whether it is one of 1000-1003, 1007-1014, 3000-4999
	 */
	public static boolean isValid(int code) {
		if (code >= 3000 && code <= 4999) {
			return true;
		}
		return (code >= NORMAL && code <= UNSUPPORTED_DATA) || (code >= INVALID_PAYLOAD && code <= BAD_GATEWAY);
	}

}
