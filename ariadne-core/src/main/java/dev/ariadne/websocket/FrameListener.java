package dev.ariadne.websocket;

import java.nio.ByteBuffer;

/**
 * Receives what {@link FrameReader} reads from a client, in wire order, on the thread that
 * called {@link FrameReader#read}, during that call.
 *
 * <p><b>Messages</b> arrive as they are read, never buffered whole: a text or binary message is
 * a run of {@link #text} or {@link #binary} calls, the first of them starting the message and the
 * one with {@code last} ending it, with control frames ({@link #ping}, {@link #pong}) possibly
 * between them (RFC 6455 §5.4). A piece ends where the frame or the input buffer ended, or, for
 * a compressed message, where a chunk of inflated data did; every frame ends with a call with
 * {@code frameEnd} (possibly empty), except frames of a compressed message, whose inflated data
 * need not follow frame boundaries. What is delivered has passed every check the reader makes:
 * the limits of {@link WebSocketLimits}, and for text, UTF-8, up to the last byte delivered (a
 * piece may end inside a code point, which the next piece completes; the message as a whole
 * is valid UTF-8). {@link MessageAssembler} turns pieces into whole messages.
 *
 * <p><b>Buffers</b> passed here are read-only views, valid only during the call: copy what must
 * outlive it. A listener may consume them (move their position) freely.
 *
 * <p><b>Errors.</b> A method may throw {@link WebSocketException} to fail the connection with its
 * close code; the reader then stops and passes it on to its caller, as it does for the errors it
 * finds itself. After {@link #close}, the reader reports nothing more.
 */
public interface FrameListener {

	/**
	 * A piece of a text message, UTF-8, unmasked and decompressed.
	 * @param data the piece, possibly empty
	 * @param frameEnd whether the piece ends a frame (always {@code true} with {@code last})
	 * @param last whether the piece ends the message
	 * @throws WebSocketException to fail the connection
	 */
	void text(ByteBuffer data, boolean frameEnd, boolean last) throws WebSocketException;

	/**
	 * A piece of a binary message, unmasked and decompressed.
	 * @param data the piece, possibly empty
	 * @param frameEnd whether the piece ends a frame (always {@code true} with {@code last})
	 * @param last whether the piece ends the message
	 * @throws WebSocketException to fail the connection
	 */
	void binary(ByteBuffer data, boolean frameEnd, boolean last) throws WebSocketException;

	/**
	 * A ping, which the endpoint answers with a pong of the same payload unless it has sent its
	 * close frame (RFC 6455 §5.5.2; several pings may be answered by one pong, for the latest).
	 * @param payload the application data, at most 125 bytes
	 * @throws WebSocketException to fail the connection
	 */
	void ping(ByteBuffer payload) throws WebSocketException;

	/**
	 * A pong, solicited or not (RFC 6455 §5.5.3).
	 * @param payload the application data, at most 125 bytes
	 * @throws WebSocketException to fail the connection
	 */
	void pong(ByteBuffer payload) throws WebSocketException;

	/**
	 * The client's close frame, its code and reason checked (a code {@link CloseCode#isValid}
	 * accepts, a reason of valid UTF-8). The reader ignores whatever follows; the endpoint
	 * answers with its own close frame unless it has sent one (see {@link CloseHandshake}).
	 * @param code the code, or {@link CloseCode#NO_STATUS} when the frame had none
	 * @param reason the reason, empty when none
	 * @throws WebSocketException to fail the connection instead
	 */
	void close(int code, String reason) throws WebSocketException;

}
