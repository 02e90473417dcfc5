package dev.ariadne.http;

import java.nio.ByteBuffer;

/**
 * Receives what {@link RequestParser} recognises, in order: one {@link #headComplete}, then any
 * number of {@link #content} calls, then one {@link #messageComplete}, per request.
 *
 * <p>Calls happen on the thread that called {@link RequestParser#parse}, during that call. Each
 * method returns whether the parser should return to its caller straight after it, leaving the
 * rest of the input unread: a transport returns {@code true} when it has work to do with what it
 * was given (dispatch the request, hand content to a reader) before parsing further.
 * Implementations must not block.
 */
public interface RequestSink {

	/**
	 * Called when the request line and header section have been read and validated.
	 * @param head the parsed head, a new instance per request
	 * @return whether {@link RequestParser#parse} should return now
	 */
	boolean headComplete(RequestHead head);

	/**
	 * Called with a piece of the decoded body (chunk framing removed).
	 * @param content a view of the caller's input buffer: valid until the caller changes that
	 * buffer's contents; copy it to keep it longer
	 * @return whether {@link RequestParser#parse} should return now
	 */
	boolean content(ByteBuffer content);

	/**
	 * Called when the whole request, body and trailers included, has been read.
	 * @return whether {@link RequestParser#parse} should return now
	 */
	boolean messageComplete();

}
