package dev.ariadne.http2;

import java.nio.ByteBuffer;

/**
 * Receives the frames {@link FrameReader} recognises, in wire order, on the thread that called
 * {@link FrameReader#read}, during that call.
 *
 * <p>The reader checks each frame's own format (RFC 9113 §6: its length, whether it may be on
 * stream 0, its padding) and nothing that needs a connection's state: stream states, the order
 * of {@code CONTINUATION} frames and flow control are the listener's. A {@link ByteBuffer} passed
 * here is a view of the reader's input, valid only during the call, not to be written to. A method throws {@link Http2Exception}
 * only for a connection error, which ends reading; the reader passes it on to its caller.
 */
public interface FrameListener {

	/**
	 * A {@code DATA} frame's header has been read; its content follows in {@link #data} calls.
	 * @param streamId the stream, never 0
	 * @param flowLength the whole payload length, padding included: what flow control counts
	 * @param endStream whether {@code END_STREAM} is set
	 * @throws Http2Exception for a connection error
	 */
	void dataFrame(int streamId, int flowLength, boolean endStream) throws Http2Exception;

	/**
	 * A piece of the current {@code DATA} frame's content, padding removed.
	 * @param streamId the stream
	 * @param content the piece, possibly empty when {@code endOfFrame}
	 * @param endOfFrame whether this is the frame's last piece (then {@code END_STREAM}, if set
	 * on the frame, applies after it)
	 * @throws Http2Exception for a connection error
	 */
	void data(int streamId, ByteBuffer content, boolean endOfFrame) throws Http2Exception;

	/**
	 * A whole {@code HEADERS} frame, padding and priority fields removed.
	 * @param streamId the stream, never 0
	 * @param fragment the header block fragment
	 * @param dependency the stream this one depends on when {@code PRIORITY} is set, else -1
	 * @param endHeaders whether {@code END_HEADERS} is set
	 * @param endStream whether {@code END_STREAM} is set
	 * @throws Http2Exception for a connection error
	 */
	void headers(int streamId, ByteBuffer fragment, int dependency, boolean endHeaders, boolean endStream)
			throws Http2Exception;

	/**
	 * A whole {@code CONTINUATION} frame.
	 * @param streamId the stream, never 0
	 * @param fragment the header block fragment
	 * @param endHeaders whether {@code END_HEADERS} is set
	 * @throws Http2Exception for a connection error
	 */
	void continuation(int streamId, ByteBuffer fragment, boolean endHeaders) throws Http2Exception;

	/**
	 * A {@code PRIORITY} frame.
	 * @param streamId the stream, never 0
	 * @param dependency the stream it depends on
	 * @throws Http2Exception for a connection error
	 */
	void priority(int streamId, int dependency) throws Http2Exception;

	/**
	 * A {@code RST_STREAM} frame.
	 * @param streamId the stream, never 0
	 * @param errorCode the error code as sent (see {@link ErrorCode#of})
	 * @throws Http2Exception for a connection error
	 */
	void rstStream(int streamId, int errorCode) throws Http2Exception;

	/**
	 * A {@code SETTINGS} frame that is not an acknowledgement, its values checked (§6.5.2).
	 * @param settings the values the frame carries; only those it carries are present
	 * @throws Http2Exception for a connection error
	 */
	void settings(Settings settings) throws Http2Exception;

	/**
	 * A {@code SETTINGS} frame with {@code ACK}.
	 * @throws Http2Exception for a connection error
	 */
	void settingsAck() throws Http2Exception;

	/**
	 * A {@code PUSH_PROMISE} frame, which a server never accepts; its payload is skipped.
	 * @param streamId the stream it was sent on
	 * @throws Http2Exception for a connection error
	 */
	void pushPromise(int streamId) throws Http2Exception;

	/**
	 * A {@code PING} frame.
	 * @param ack whether {@code ACK} is set
	 * @param payload the 8 opaque bytes
	 * @throws Http2Exception for a connection error
	 */
	void ping(boolean ack, long payload) throws Http2Exception;

	/**
	 * A {@code GOAWAY} frame.
	 * @param lastStreamId the last stream the peer may have processed
	 * @param errorCode the error code as sent
	 * @param debug the additional debug data, possibly empty
	 * @throws Http2Exception for a connection error
	 */
	void goAway(int lastStreamId, int errorCode, ByteBuffer debug) throws Http2Exception;

	/**
	 * A {@code WINDOW_UPDATE} frame.
	 * @param streamId the stream, or 0 for the connection
	 * @param increment the increment as sent, possibly 0 (an error the listener reports)
	 * @throws Http2Exception for a connection error
	 */
	void windowUpdate(int streamId, int increment) throws Http2Exception;

	/**
	 * A frame of a type this codec does not know, which RFC 9113 §4.1 says to ignore; its payload
	 * is skipped. Reported because it still breaks a header block's sequence of frames.
	 * @param type the frame type
	 * @param streamId the stream
	 * @throws Http2Exception for a connection error
	 */
	void unknownFrame(int type, int streamId) throws Http2Exception;

	/**
	 * A frame whose format is wrong in a way RFC 9113 makes a stream error (a {@code PRIORITY}
	 * frame of the wrong length); the frame has been skipped.
	 * @param streamId the stream to reset
	 * @param error the code for the {@code RST_STREAM}
	 * @param reason a short explanation
	 * @throws Http2Exception for a connection error
	 */
	void streamError(int streamId, ErrorCode error, String reason) throws Http2Exception;

}
