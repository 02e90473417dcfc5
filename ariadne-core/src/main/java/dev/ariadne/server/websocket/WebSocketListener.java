package dev.ariadne.server.websocket;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletionStage;

/**
 * What a {@link WebSocketSession} tells the application, each method with a default that does
 * nothing, so a listener implements what it needs.
 *
 * <p><b>Threads.</b> The message, ping, pong and error calls run on a worker of the route's pool
 * (in {@code blocking}, the connection's own worker, which reads for the session; in
 * {@code virtual-threads}, the connection's virtual thread, with a permit), one call at a time,
 * in the order of the frames, never on a selector thread: a listener may block, at the price of
 * the worker it holds. {@link #onOpen} runs on the thread that ran the handshake, before any
 * other call. {@link #onClose} runs on the thread that ended the session: the reader's, the one
 * that called {@link WebSocketSession#close}, a worker after a timeout, or, when the pool refuses
 * that task (the server is stopping), the server's WebSocket timer thread; it should not block.
 *
 * <p><b>Back-pressure.</b> A message method may return a {@link CompletionStage}: nothing more is
 * delivered, and nothing more is read from the connection (the client then waits in its TCP
 * window), until it completes, normally or not. {@code null}, or a stage already complete, lets
 * delivery go on at once. An echo that returns the stage of its send reads no faster than its
 * client reads: {@code return session.sendText(text);}.
 *
 * <p><b>Whole messages or pieces.</b> By default a message is delivered whole
 * ({@link #onText}, {@link #onBinary}), gathered up to {@code websocket.max-message-size}. A
 * listener whose {@link #partialMessages()} returns {@code true} gets the pieces as they arrive
 * instead ({@link #onTextPart}, {@link #onBinaryPart}), and the session holds none of them.
 *
 * <p><b>Buffers</b> passed to the piece, ping and pong methods are read-only views valid only
 * during the call: copy what must outlive it. A whole binary message's buffer is the listener's
 * to keep.
 */
public interface WebSocketListener {

	/**
	 * The session is open: the {@code 101} has gone out. Sending from here is allowed.
	 * @param session the session
	 */
	default void onOpen(WebSocketSession session) {
	}

	/**
	 * A whole text message.
	 * @param session the session
	 * @param text the message
	 * @return a stage to complete before the next delivery, or {@code null}
	 */
	default CompletionStage<?> onText(WebSocketSession session, String text) {
		return null;
	}

	/**
	 * A whole binary message.
	 * @param session the session
	 * @param data the message
	 * @return a stage to complete before the next delivery, or {@code null}
	 */
	default CompletionStage<?> onBinary(WebSocketSession session, ByteBuffer data) {
		return null;
	}

	/**
	 * Returns whether messages are delivered in pieces as they arrive ({@link #onTextPart},
	 * {@link #onBinaryPart}) rather than whole. Asked as each message begins.
	 * @return {@code true} for pieces
	 */
	default boolean partialMessages() {
		return false;
	}

	/**
	 * A piece of a text message, as UTF-8: valid so far, though a piece may end inside a
	 * character that the next one completes.
	 * @param session the session
	 * @param utf8 the piece, possibly empty
	 * @param last whether it ends the message
	 * @return a stage to complete before the next delivery, or {@code null}
	 */
	default CompletionStage<?> onTextPart(WebSocketSession session, ByteBuffer utf8, boolean last) {
		return null;
	}

	/**
	 * A piece of a binary message.
	 * @param session the session
	 * @param data the piece, possibly empty
	 * @param last whether it ends the message
	 * @return a stage to complete before the next delivery, or {@code null}
	 */
	default CompletionStage<?> onBinaryPart(WebSocketSession session, ByteBuffer data, boolean last) {
		return null;
	}

	/**
	 * A ping from the client, which the session has answered already with a pong of the same
	 * payload (or will, once the connection takes it: of several pings waiting, the latest).
	 * @param session the session
	 * @param payload the ping's data, at most 125 bytes
	 */
	default void onPing(WebSocketSession session, ByteBuffer payload) {
	}

	/**
	 * A pong from the client: the answer to a ping, or a heartbeat of its own.
	 * @param session the session
	 * @param payload the pong's data, at most 125 bytes
	 */
	default void onPong(WebSocketSession session, ByteBuffer payload) {
	}

	/**
	 * Something went wrong: the client broke the protocol (the session closes with 1002, 1007
	 * or 1009, a {@link dev.ariadne.websocket.WebSocketException} says which), a listener method
	 * threw (1011), or the connection failed. {@link #onClose} follows.
	 * @param session the session
	 * @param failure what went wrong
	 */
	default void onError(WebSocketSession session, Throwable failure) {
	}

	/**
	 * The session is over, called once: its connection is closed or closing, nothing more is
	 * delivered and sends fail.
	 * @param session the session
	 * @param code the code of the client's close frame when one came ({@code 1005} for one
	 * without a code); else the code the server closed with (1001 on shutdown or idle timeout,
	 * 1002, 1007, 1009, 1011 on a failure); {@code 1006} when the connection ended without either
	 * @param reason the close frame's reason, possibly empty
	 */
	default void onClose(WebSocketSession session, int code, String reason) {
	}

}
