package dev.ariadne.websocket;

import dev.ariadne.http.Headers;
import dev.ariadne.http.Status;

/**
 * An upgrade request the server refuses (RFC 6455 §4.2.1, §4.4), carrying the response to answer
 * it with instead of 101: its status and the header fields it must have. The reason is written
 * by Ariadne and never echoes request bytes.
 */
public final class HandshakeException extends Exception {

	private static final long serialVersionUID = 1L;

	private final transient Status status;

	private final transient Headers headers;

	HandshakeException(Status status, String reason, Headers headers) {
		super(reason, null, false, false);
		this.status = status;
		this.headers = headers;
	}

	/**
	 * Returns the status to answer with: 400, 405 (with {@code Allow: GET}) or 426 (with
	 * {@code Sec-WebSocket-Version: 13}).
	 * @return the status
	 */
	public Status status() {
		return this.status;
	}

	/**
	 * Returns the header fields the answer must carry, possibly none.
	 * @return the fields
	 */
	public Headers headers() {
		return this.headers;
	}

	/**
	 * Returns the reason, safe to send to the client.
	 * @return the reason
	 */
	public String reason() {
		return getMessage();
	}

}
