package dev.ariadne.server;

import java.io.OutputStream;
import java.util.function.Supplier;

import dev.ariadne.http.Headers;

/**
 * The response to one request, filled in by its handler. Valid only while its handler runs,
 * and only on that thread, unless the handler suspends the exchange ({@link #suspend()}).
 *
 * <p>A response is committed when its head has been encoded: by {@link #send} or by the first
 * write to {@link #outputStream()}. Status and headers can no longer change after that.
 * The server frames the body itself: {@code Content-Length} for {@link #send}, and for the
 * stream either the length the handler set or {@code chunked} (close-delimited for HTTP/1.0).
 * {@code HEAD} requests and 1xx/204/304 statuses never get a body.
 */
public interface Response {

	/**
	 * Sets the status code.
	 * @param code from 200 to 999
	 * @return this response
	 * @throws IllegalStateException if the response is committed
	 */
	Response status(int code);

	/**
	 * Returns the status code, 200 unless set.
	 * @return the status code
	 */
	int status();

	/**
	 * Adds a header field.
	 * @param name the field name, a token
	 * @param value the value, without CR, LF or other control characters
	 * @return this response
	 * @throws IllegalArgumentException if the field would break the framing; it is never written
	 * @throws IllegalStateException if the response is committed
	 */
	Response header(String name, String value);

	/**
	 * Sets the {@code Content-Type}.
	 * @param contentType the media type
	 * @return this response
	 */
	Response contentType(String contentType);

	/**
	 * Returns the header fields set so far.
	 * @return the headers; changing them after commit has no effect
	 */
	Headers headers();

	/**
	 * Sends the whole body with a {@code Content-Length}, committing the response.
	 * @param body the body
	 * @throws IllegalStateException if the response is already committed
	 */
	void send(byte[] body);

	/**
	 * Sends text encoded as UTF-8, with {@code text/plain; charset=utf-8} unless a content type
	 * was set.
	 * @param body the text
	 * @throws IllegalStateException if the response is already committed
	 */
	void send(String body);

	/**
	 * Returns a stream for a body of any size, written as it is produced, never buffered whole.
	 * Writes block while the client is slower than the handler. Closing the stream ends the
	 * body; the server closes it otherwise when the handler returns.
	 * @return the body stream
	 */
	OutputStream outputStream();

	/**
	 * Sends trailer fields after the content: HTTP/1.1 chunks end with them, an HTTP/2 stream
	 * with a {@code HEADERS} frame. A response with trailers is always delimited by the protocol,
	 * so its {@code Content-Length} is not sent. The supplier is called once, on the thread that
	 * ends the body; fields RFC 9110 §6.5.1 keeps out of trailers, and invalid ones, are left out
	 * ({@link dev.ariadne.http.TrailerFields}). Naming them in a {@code Trailer} field is the
	 * application's choice. A response without content ({@code HEAD}, 204, 304) sends none.
	 * @param trailers what to send, called when the body ends; {@code null} for none
	 * @return this response
	 * @throws IllegalStateException if the response is committed, or the request's protocol
	 * cannot carry trailers (HTTP/1.0)
	 */
	Response trailers(Supplier<Headers> trailers);

	/**
	 * Returns whether the head has been encoded.
	 * @return whether committed
	 */
	boolean committed();

	/**
	 * Suspends the exchange: when the handler returns, the response stays open, and the
	 * exchange ends later with {@link AsyncResponse#complete()} or
	 * {@link AsyncResponse#abort(Throwable)}, from any thread but a selector. From then on the
	 * request and the response may be used by the thread the application hands them to, one
	 * thread at a time. What the response buffered so far is sent first. Calling it again
	 * returns the same suspension.
	 * @return the suspended exchange
	 * @throws IllegalStateException if the exchange has ended
	 */
	AsyncResponse suspend();

}
