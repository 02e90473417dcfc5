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

	/**
	 * Switches the connection to the protocol the client asked for in its {@code Upgrade} field
	 * (RFC 9110 §7.8), the way a WebSocket handshake does: the response becomes
	 * {@code 101 Switching Protocols} and the exchange is suspended, as {@link #suspend()} does,
	 * with the connection's bytes for its body and its response.
	 * <ul>
	 * <li>The head goes out with the fields the handler set (the new protocol's among them, such as
	 * {@code Upgrade} and {@code Sec-WebSocket-Accept}; {@code Connection: Upgrade} is the
	 * server's, and no {@code Content-Length} or {@code Transfer-Encoding}) at the first write or
	 * flush of {@link #outputStream()}, or when the handler returns: a handler that hands the
	 * response to another thread before it returns flushes it first. When the response lacks an
	 * {@code Upgrade} field, the request's is sent if it names one protocol.</li>
	 * <li>{@link Request#body()} and {@link AsyncResponse#read} then return what the client sends
	 * after its request (bytes it sent along with the request first), as it arrives, until it
	 * closes the connection (-1). No body limit applies: neither the maximum size, nor the pause of
	 * {@code request.header-timeout}, nor the minimum data rate. The new protocol keeps its own
	 * time.</li>
	 * <li>{@link #outputStream()} writes the new protocol's bytes as they are, with the same
	 * back-pressure as a body ({@link AsyncResponse#writable()}); writes wait in the response's
	 * buffer until a flush.</li>
	 * <li>{@link AsyncResponse#complete()} sends what is buffered and closes the connection (it
	 * never carries another request); {@link AsyncResponse#abort} closes it at once.
	 * {@link AsyncResponse#onClose} tells of a connection that closed before (a forced stop, a
	 * failed write); a client that closes its side is seen by the reader as the end (-1).</li>
	 * </ul>
	 * A graceful shutdown waits for an upgraded connection as for any suspended exchange, within
	 * its grace period. The request event reports the handshake ({@code 101}, from the request's
	 * head to the handler's return), not the life of the connection. What each model holds while
	 * the connection is upgraded is what it holds for a suspended exchange
	 * ({@link AsyncResponse}): nothing but the connection in {@code event-loop}; a parked
	 * virtual thread without a permit in {@code virtual-threads}; the connection's worker in
	 * {@code blocking}, which reads for the new protocol and runs its read callbacks, while
	 * {@link AsyncResponse#execute} tasks run on other workers and writes never wait for that
	 * worker.
	 * <p>Only an HTTP/1.1 request that is not {@code HEAD} and has an {@code Upgrade} field can be
	 * upgraded, while its handler runs. What is left of its body is read and discarded first
	 * (the new protocol starts after it), up to 64 KiB; a longer body must be read by the
	 * handler before. An HTTP/2 stream cannot switch protocols (RFC 8441's extended
	 * {@code CONNECT} is not supported). Calling it again returns the same exchange.
	 * @return the suspended exchange, whose body and response are the connection's bytes
	 * @throws IllegalStateException if the response is committed, the handler has returned, the
	 * request is not one that can be upgraded, or more than 64 KiB of its body are left
	 * @throws java.io.UncheckedIOException if reading what was left of the body failed
	 */
	AsyncResponse upgrade();

	/**
	 * Counts a WebSocket session among those of the listener the exchange arrived on, for a
	 * WebSocket implementation other than the server's own routes' (the servlet container's
	 * Jakarta WebSocket), which then switches with {@link #upgrade()} and reports the session's
	 * messages and its end through what this returns. Call it during the handshake, before the
	 * switch, and answer 503 with {@code Retry-After} when it returns {@code null}, as the routes'
	 * handshakes are answered. The place is held until {@link WebSocketTally#end()}, or until the
	 * exchange ends, whichever comes first.
	 * @return the session's tally, or {@code null} when the listener takes no more sessions: as
	 * many are open as {@code websocket.max-sessions} allows, or the server shuts down (the
	 * refusal is counted, with reason {@code websocket-sessions})
	 * @throws IllegalStateException if the exchange has ended
	 */
	WebSocketTally countWebSocket();

}
