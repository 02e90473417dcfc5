package dev.ariadne.server.websocket;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import dev.ariadne.http.Headers;
import dev.ariadne.websocket.WebSocketLimits;

/**
 * One open WebSocket connection, as the application sends on it. Every method may be called
 * from any thread but a selector's.
 *
 * <p><b>Sending with back-pressure.</b> A send writes its frame at once (never waiting for the
 * client in {@code event-loop}; in the socket models the writing thread waits for the socket, as
 * a response's writes do) and returns a stage that completes once the connection may take more:
 * at once while fewer than 64 KiB wait for the client, else once they have drained below
 * 16 KiB. One message is sent at a time: a text or binary send (whole, or the next piece of a
 * message) made before the stage of the previous one completed fails with
 * {@link IllegalStateException}, so that a client that does not read never makes the server hold
 * more than one message beyond that. Pings, pongs and the close go out whenever asked for. A send
 * after the session closed fails its stage with {@link java.io.IOException}.
 *
 * <p><b>Closing.</b> {@link #close} sends a close frame and waits, within 5 seconds, for the
 * client's; a client's close is answered with the same code. Either way the server closes the
 * connection once the handshake is done, and {@link WebSocketListener#onClose} is called once.
 */
public interface WebSocketSession {

	/**
	 * Sends a text message.
	 * @param text the message
	 * @return completes when the session may send the next message
	 * @throws IllegalStateException if a message is being sent
	 */
	CompletionStage<Void> sendText(CharSequence text);

	/**
	 * Sends a binary message; the buffer is consumed (its position moves to its limit) before
	 * this returns.
	 * @param data the message
	 * @return completes when the session may send the next message
	 * @throws IllegalStateException if a message is being sent
	 */
	CompletionStage<Void> sendBinary(ByteBuffer data);

	/**
	 * Sends a piece of a text message: the first starts it, the one with {@code last} ends it. A
	 * piece holds whole characters.
	 * @param text the piece
	 * @param last whether it ends the message
	 * @return completes when the session may send the next piece
	 * @throws IllegalStateException if the previous send has not completed, or a binary message is
	 * under way
	 */
	CompletionStage<Void> sendText(CharSequence text, boolean last);

	/**
	 * Sends a text message, or a piece of one, from UTF-8 the caller encoded: the bytes go out as
	 * they are, unchecked, and are consumed before this returns. For an adapter whose messages
	 * are UTF-8 already, which spares decoding and encoding them again.
	 * @param utf8 the message or the piece, valid UTF-8 (a piece may end inside a character
	 * that the next completes)
	 * @param last whether it ends the message
	 * @return completes when the session may send the next message or piece
	 * @throws IllegalStateException if the previous send has not completed, or a binary message is
	 * under way
	 */
	CompletionStage<Void> sendText(ByteBuffer utf8, boolean last);

	/**
	 * Sends a piece of a binary message, consumed before this returns.
	 * @param data the piece
	 * @param last whether it ends the message
	 * @return completes when the session may send the next piece
	 * @throws IllegalStateException if the previous send has not completed, or a text message is
	 * under way
	 */
	CompletionStage<Void> sendBinary(ByteBuffer data, boolean last);

	/**
	 * Sends a ping; the client's pong comes to {@link WebSocketListener#onPong}.
	 * @param payload at most 125 bytes, consumed
	 * @return completes once the ping is written or queued
	 * @throws IllegalArgumentException if the payload is longer than 125 bytes
	 */
	CompletionStage<Void> sendPing(ByteBuffer payload);

	/**
	 * Sends a pong that answers no ping (a heartbeat); pings are answered by the session itself.
	 * @param payload at most 125 bytes, consumed
	 * @return completes once the pong is written or queued
	 * @throws IllegalArgumentException if the payload is longer than 125 bytes
	 */
	CompletionStage<Void> sendPong(ByteBuffer payload);

	/**
	 * Starts the closing handshake; does nothing once it has started.
	 * @param code a code a close frame may carry (1000, 1001, 1003, 1008, 1011, 3000-4999, ...)
	 * @param reason at most 123 bytes of UTF-8, possibly empty
	 * @return completes once the close frame is written or queued
	 * @throws IllegalArgumentException if the code may not be sent or the reason is too long
	 */
	CompletionStage<Void> close(int code, String reason);

	/**
	 * Closes the connection now, without a closing handshake (the client sees 1006).
	 */
	void abort();

	/**
	 * Returns whether messages may still be sent: no close frame sent or received, and the
	 * connection open.
	 * @return whether open
	 */
	boolean isOpen();

	/**
	 * Returns the subprotocol the handshake agreed to.
	 * @return the subprotocol, or {@code null} when none
	 */
	String subprotocol();

	/**
	 * Returns whether permessage-deflate was agreed: messages of some size are sent compressed,
	 * and the client may send compressed ones.
	 * @return whether compression was agreed
	 */
	boolean compressed();

	/**
	 * Returns the handshake request's path.
	 * @return the decoded path, without the query
	 */
	String path();

	/**
	 * Returns the handshake request's query.
	 * @return the raw query, or {@code null} when none
	 */
	String query();

	/**
	 * Returns the handshake request's header fields.
	 * @return a copy of the fields
	 */
	Headers handshakeHeaders();

	/**
	 * Returns the client's address.
	 * @return the remote address
	 */
	InetSocketAddress remoteAddress();

	/**
	 * Returns whether the connection is encrypted ({@code wss}).
	 * @return whether over TLS
	 */
	boolean secure();

	/**
	 * Sets how long this session may pass without a frame either way before the server closes
	 * it with 1001, instead of {@code websocket.idle-timeout}; looked at as often as the server's
	 * own timeout is (a quarter of it, at least every second).
	 * @param timeout the timeout, {@link Duration#ZERO} for none
	 */
	void idleTimeout(Duration timeout);

	/**
	 * Sets what the client may send from its next message on, instead of
	 * {@code websocket.max-frame-size} and {@code websocket.max-message-size}: a message under way
	 * keeps the limit it began with.
	 * @param limits the limits
	 */
	void limits(WebSocketLimits limits);

	/**
	 * Returns the application's own values for this session, safe to use from any thread.
	 * @return a mutable, thread-safe map
	 */
	Map<String, Object> attributes();

}
