package dev.ariadne.http2;

import java.nio.ByteBuffer;

import dev.ariadne.http.Headers;
import dev.ariadne.http.RequestHead;

/**
 * Receives what a {@link Http2Session} makes of the client's frames: requests, their content and
 * trailers, resets, and room to write. Calls happen on the thread that called
 * {@link Http2Session#receive}, during that call, and must not block.
 *
 * <p>Everything about the connection itself (settings, pings, flow control, stream states, the
 * errors and their {@code RST_STREAM} or {@code GOAWAY}) the session handles; the listener sees
 * streams only.
 */
public interface SessionListener {

	/**
	 * A new stream's request head, validated (RFC 9113 §8).
	 * @param streamId the stream
	 * @param head the request head, a new instance per stream
	 * @param endStream whether the request has no content and no trailers
	 */
	void request(int streamId, RequestHead head, boolean endStream);

	/**
	 * A new stream whose header list is larger than {@link Http2Limits#maxHeaderListSize()}: the
	 * listener answers it (431) or resets it. The block was decoded, so the connection goes on.
	 * @param streamId the stream
	 * @param endStream whether the request has no content
	 */
	void headersTooLarge(int streamId, boolean endStream);

	/**
	 * A piece of a request's content. The bytes count against the stream's window until the
	 * listener calls {@link Http2Session#consumed}.
	 * @param streamId the stream
	 * @param content a view valid only during the call, possibly empty when {@code endStream}
	 * @param endStream whether the request ends after it
	 */
	void data(int streamId, ByteBuffer content, boolean endStream);

	/**
	 * The request's trailers, which end it.
	 * @param streamId the stream
	 * @param trailers the trailer fields
	 */
	void trailers(int streamId, Headers trailers);

	/**
	 * A stream the listener knows ended abnormally: the client reset it, or the session reset it
	 * for a stream error after its request was delivered. Nothing more will be sent on it.
	 * @param streamId the stream
	 * @param error the error code
	 * @param byPeer whether the client sent the {@code RST_STREAM}
	 */
	void reset(int streamId, ErrorCode error, boolean byPeer);

	/**
	 * Flow control lets more be written: a {@code WINDOW_UPDATE} or a larger initial window.
	 * @param streamId the stream, or 0 when the connection window grew (every stream may write)
	 */
	void writable(int streamId);

	/**
	 * The client sent {@code GOAWAY}: it opens no more streams.
	 * @param lastStreamId the last stream it says it processed
	 * @param error its error code
	 */
	void goAway(int lastStreamId, ErrorCode error);

}
