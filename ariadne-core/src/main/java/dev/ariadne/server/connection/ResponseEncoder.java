package dev.ariadne.server.connection;

import java.io.IOException;

import dev.ariadne.http.Headers;
import dev.ariadne.http.Status;
import dev.ariadne.http.Version;

/**
 * How a protocol puts one response on the wire: its head, its content, its end, and the answers
 * the server chooses itself. The response object keeps the state and the API's checks (status,
 * fields, committed, the declared length) and decides the framing; the encoder writes what that
 * framing means in its protocol: HTTP/1.1 text with {@code Content-Length} or {@code chunked}
 * ({@link Http1Encoder}), or HTTP/2 frames on a stream.
 *
 * <p>Used by the thread that runs the exchange, one response at a time.
 */
public interface ResponseEncoder {

	/** How a response's content is delimited. */
	enum Framing {

		/** No content may follow (HEAD, 1xx, 204, 304). */
		NONE,

		/** The declared length ({@code Content-Length}). */
		LENGTH,

		/** Delimited by the protocol: HTTP/1.1 chunks, HTTP/2 frames. */
		DELIMITED,

		/** The content ends when the connection closes (HTTP/1.0 without a length). */
		CLOSE

	}

	/**
	 * A response to a request begins; by default nothing.
	 * @param version the request's version
	 */
	default void start(Version version) {
	}

	/**
	 * Writes a response head.
	 * @param status the status
	 * @param headers the handler's fields, validated; framing fields among them are ignored
	 * @param framing how the content is delimited, as if the request were not {@code HEAD}
	 * @param length the declared length when {@link Framing#LENGTH}
	 * @param keepAlive whether the connection carries another request after this one (HTTP/1.1)
	 * @param headRequest whether the request was {@code HEAD}: no content follows
	 */
	void head(Status status, Headers headers, Framing framing, long length, boolean keepAlive, boolean headRequest);

	/**
	 * Writes content, after the head.
	 * @param bytes the array
	 * @param offset where the content starts
	 * @param length how many bytes, more than 0
	 * @throws IOException if the connection failed
	 */
	void content(byte[] bytes, int offset, int length) throws IOException;

	/**
	 * Sends what is buffered of the response so far.
	 * @throws IOException if the connection failed
	 */
	void flush() throws IOException;

	/**
	 * Ends the content (the last chunk, the end of the stream), with trailer fields when there
	 * are some; the head was written with {@link Framing#DELIMITED}.
	 * @param trailers the fields to send after the content, valid and allowed in a trailer
	 * section; {@code null} or empty for none
	 * @throws IOException if the connection failed
	 */
	void end(Headers trailers) throws IOException;

	/**
	 * Writes a whole answer the server chose itself, in the place of a response: plain text, the
	 * reason and a line feed; the connection (HTTP/1.1) or the stream ends after it.
	 * @param status the status
	 * @param reason the text, safe to echo
	 * @param retryAfterSeconds a {@code Retry-After} value, or 0 for none
	 * @param headRequest whether the request was {@code HEAD}: the text is left out
	 */
	void answer(Status status, String reason, int retryAfterSeconds, boolean headRequest);

}
