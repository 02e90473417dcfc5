package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

import dev.ariadne.http.ChunkedScanner;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.RequestParser;
import dev.ariadne.http.RequestSink;
import dev.ariadne.server.ServerConfig;

/**
 * The request an event-loop connection is reading: its input buffer, borrowed from the loop's
 * pool only while bytes are in it, its parser, and what the parser reported so far (the head
 * and when it arrived, the piece of body the parser just found, whether the message is
 * complete). The parser stops at each complete head: the request is dispatched then, and its
 * body is parsed as its handler reads it ({@link ChannelBody}).
 *
 * <p>Used by one thread at a time: the selector thread while the connection reads a head, or
 * the thread running the exchange (which reads the body and parses pipelined requests ahead);
 * the connection's hand-off between them orders the accesses. The input buffer is borrowed
 * and goes back to the pool on the selector thread only, since the pool is the loop's.
 */
final class RequestReader implements RequestSink {

	private final RequestParser parser;

	/** Follows a chunked body that is read before its request is dispatched. */
	private final ChunkedScanner chunks;

	private final SelectorLoop loop;

	private ByteBuffer in;

	/** Whether the parser runs on a worker (between pipelined exchanges) rather than the selector. */
	private boolean onWorker;

	private RequestHead head;

	private long headNanos;

	/** The piece of body the parser found last: a view of the input buffer. */
	private ByteBuffer content;

	private boolean messageDone;

	RequestReader(ServerConfig config, SelectorLoop loop) {
		this.parser = new RequestParser(config.limits(), this);
		this.chunks = new ChunkedScanner(config.limits());
		this.loop = loop;
	}

	/**
	 * Reads what the socket has into the input buffer, borrowing one if none is held; selector
	 * thread.
	 * @param channel the socket, or TLS over it
	 * @return the bytes read, or -1 at the end of the stream; 0 as well when no buffer can be
	 * borrowed within the memory budget ({@link #holdsBuffer()} tells)
	 * @throws IOException if the read failed
	 */
	int fill(ReadableByteChannel channel) throws IOException {
		if (!borrowBuffer()) {
			return 0;
		}
		return fillHeld(channel);
	}

	/**
	 * Borrows an input buffer unless one is held; selector thread.
	 * @return whether a buffer is held now; {@code false} when none fits the budget
	 */
	boolean borrowBuffer() {
		if (this.in == null) {
			this.in = this.loop.buffers().borrow();
		}
		return this.in != null;
	}

	/**
	 * Reads what the socket has into the input buffer this reader holds, after what is left in
	 * it; by the thread that owns the reader (the selector, or the exchange's thread reading a
	 * body).
	 * @param channel the socket, non-blocking, or TLS over it
	 * @return the bytes read, or -1 at the end of the stream
	 * @throws IOException if the read failed
	 */
	int fillHeld(ReadableByteChannel channel) throws IOException {
		ByteBuffer in = this.in;
		in.compact();
		try {
			return channel.read(in);
		}
		finally {
			in.flip();
		}
	}

	/**
	 * Returns whether the reader holds an input buffer.
	 * @return whether a buffer is borrowed
	 */
	boolean holdsBuffer() {
		return this.in != null;
	}

	/**
	 * Returns whether unparsed bytes are in the input buffer.
	 * @return whether input is buffered
	 */
	boolean hasInput() {
		return this.in != null && this.in.hasRemaining();
	}

	/** Gives the input buffer back to the loop's pool; selector thread. */
	void releaseInput() {
		if (this.in != null) {
			this.loop.releaseBuffer(this.in);
			this.in = null;
		}
	}

	/** Gives the input buffer back once everything in it is parsed; selector thread. */
	void releaseEmptyBuffer() {
		if (this.in != null && !this.in.hasRemaining()) {
			releaseInput();
		}
	}

	/**
	 * Parses buffered input until a request head is complete or the input is used up.
	 * @return whether a request head was read
	 * @throws HttpParseException if the request is malformed
	 */
	boolean read() throws HttpParseException {
		ByteBuffer in = this.in;
		while (in != null && in.hasRemaining()) {
			if (this.parser.parse(in) && this.head != null) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Starts the next request and parses what is already buffered of its head; on the thread
	 * of an exchange that just ended, for a kept connection.
	 * @return whether a whole head was buffered
	 * @throws HttpParseException if the request is malformed
	 */
	boolean readAhead() throws HttpParseException {
		this.parser.reset();
		this.head = null;
		this.content = null;
		this.messageDone = false;
		this.onWorker = true;
		try {
			return read();
		}
		finally {
			this.onWorker = false;
		}
	}

	/**
	 * Parses the body of the dispatched request until the parser finds a piece of it, the end
	 * of the message, or the end of the buffered input; by the thread reading the body.
	 * @throws HttpParseException if the body is malformed or too large
	 */
	void parseBody() throws HttpParseException {
		ByteBuffer in = this.in;
		if (in != null) {
			this.parser.parse(in);
		}
	}

	/**
	 * Returns whether the whole body of the request whose head was read last is in the input
	 * buffer, unparsed; by the thread that owns the reader.
	 * @return whether the body needs no more bytes from the client
	 */
	boolean bodyBuffered() {
		ByteBuffer in = this.in;
		if (this.head.chunked()) {
			int start = (in != null) ? in.arrayOffset() + in.position() : 0;
			return in != null && this.chunks.ended(in.array(), start, in.arrayOffset() + in.limit());
		}
		return in != null && in.remaining() >= this.head.contentLength();
	}

	/**
	 * Returns whether the input buffer is full: no more of a body fits before it is read.
	 * @return whether nothing more can be read into the buffer
	 */
	boolean bufferFull() {
		return this.in != null && this.in.remaining() == this.in.capacity();
	}

	/**
	 * Returns whether the parser has read the whole body and only reports the end of the
	 * message next, which needs no input.
	 * @return whether the body's bytes are all parsed
	 */
	boolean bodyParsed() {
		return this.parser.state() == RequestParser.State.MESSAGE_END;
	}

	/**
	 * Returns whether nothing of a next request has been read.
	 * @return whether the reader waits for a request
	 */
	boolean isIdle() {
		return this.parser.isIdle() && this.head == null;
	}

	/**
	 * Returns whether the head read last is complete, so the request can be dispatched.
	 * @return whether a head is ready
	 */
	boolean headReady() {
		return this.head != null;
	}

	/**
	 * Returns whether the request read last is complete, body included.
	 * @return whether a whole request was read
	 */
	boolean messageDone() {
		return this.messageDone;
	}

	/**
	 * Returns the piece of body found last, read from by the body stream.
	 * @return a view of the input buffer, or {@code null}
	 */
	ByteBuffer content() {
		return this.content;
	}

	/**
	 * Returns the head of the request being read.
	 * @return the head, or {@code null} while it is incomplete
	 */
	RequestHead head() {
		return this.head;
	}

	/**
	 * Returns when the head was complete: on the selector, when its bytes were there to read.
	 * @return the {@link System#nanoTime()}
	 */
	long headNanos() {
		return this.headNanos;
	}

	// ---- parser events

	@Override
	public boolean headComplete(RequestHead head) {
		this.head = head;
		this.chunks.reset();
		this.headNanos = this.onWorker ? System.nanoTime() : this.loop.now();
		// the request is dispatched now; its body is parsed as the handler reads it
		return true;
	}

	@Override
	public boolean content(ByteBuffer content) {
		this.content = content;
		return true;
	}

	@Override
	public boolean messageComplete() {
		this.messageDone = true;
		return true;
	}

}
