package dev.ariadne.websocket;

/**
 * What a server accepts from a WebSocket client, enforced by {@link FrameReader} from the first
 * frame; going over either limit fails the connection with {@link CloseCode#MESSAGE_TOO_BIG}
 * (1009), checked on a frame's header, before any of its payload is read, wherever it can be.
 *
 * @param maxFrameSize the largest payload of one data frame as it is on the wire (compressed,
 * when the message is), in bytes. Control frames have their own limit of 125 bytes (RFC 6455
 * §5.5), whatever this says
 * @param maxMessageSize the largest message, in bytes of its data once decompressed: the sum of
 * its frames' payloads, or, for a compressed message, what inflating it gives, counted as it is
 * inflated (a deflate bomb stops at this size, not at its end)
 */
public record WebSocketLimits(int maxFrameSize, int maxMessageSize) {

	/** The largest message by default: 64 KiB, as Jetty, Netty and Spring's STOMP support. */
	public static final int DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024;

	/**
	 * The largest frame by default: twice the largest message, so that a message of the largest
	 * size fits in one frame even compressed (incompressible data grows a little when deflated).
	 */
	public static final int DEFAULT_MAX_FRAME_SIZE = 2 * DEFAULT_MAX_MESSAGE_SIZE;

	/** The defaults: frames of 128 KiB, messages of 64 KiB. */
	public static final WebSocketLimits DEFAULTS = new WebSocketLimits(DEFAULT_MAX_FRAME_SIZE,
			DEFAULT_MAX_MESSAGE_SIZE);

	/**
	 * Creates limits, each of which must be positive.
	 */
	public WebSocketLimits {
		if (maxFrameSize < 1) {
			throw new IllegalArgumentException("maxFrameSize must be positive, not " + maxFrameSize);
		}
		if (maxMessageSize < 1) {
			throw new IllegalArgumentException("maxMessageSize must be positive, not " + maxMessageSize);
		}
	}

}
