package dev.ariadne.server.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;

import dev.ariadne.http.ChunkedScanner;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.RequestParser;
import dev.ariadne.http.RequestSink;
import dev.ariadne.server.ServerConfig;

/**
 * The request an HTTP/1.1 connection is reading: its input buffer (the wire's, held only while
 * bytes are in it where the wire pools buffers), its parser, and what the parser reported so far
 * (the head and when it arrived, the piece of body the parser just found, whether the message is
 * complete). The parser stops at each complete head: the request is dispatched then, and its
 * body is parsed as its handler reads it ({@link Http1Body}).
 *
 * <p>Used by one thread at a time: the wire's own thread while the connection reads a head, or
 * the thread running the exchange (which reads the body and parses pipelined requests ahead);
 * the connection's hand-off between them orders the accesses. The input buffer is borrowed and
 * goes back to the wire on the wire's own thread only.
 */
final class Http1Reader implements RequestSink {

	private final RequestParser parser;

	private final ServerConfig config;

	/** Follows a chunked body that is read before its request is dispatched; made at the first. */
	private ChunkedScanner chunks;

	private final Wire wire;

	private ByteBuffer in;

	/** Whether the parser runs on the exchange's thread (between pipelined exchanges). */
	private boolean onWorker;

	private RequestHead head;

	private long headNanos;

	/** The piece of body the parser found last: a view of the input buffer. */
	private ByteBuffer content;

	private boolean messageDone;

	Http1Reader(ServerConfig config, Wire wire) {
		this.parser = new RequestParser(config.limits(), this);
		this.config = config;
		this.wire = wire;
	}

	/**
	 * Reads into the input buffer, borrowing one if none is held; the wire's own thread, or
	 * (waiting) the thread that owns the buffer.
	 * @param until as {@link Wire#read}: 0 for what is there now
	 * @return the bytes read, or -1 at the end of the stream; 0 as well when no buffer can be
	 * borrowed within the memory budget ({@link #holdsBuffer()} tells)
	 * @throws IOException if the read failed
	 */
	int fill(long until) throws IOException {
		if (!borrowBuffer()) {
			return 0;
		}
		return this.wire.read(this.in, until);
	}

	/**
	 * Reads into the buffer this reader holds; by the thread that owns it.
	 * @param until as {@link Wire#read}
	 * @return the bytes read, 0 when none, or -1 at the end of the stream
	 * @throws IOException if the read failed
	 */
	int fillHeld(long until) throws IOException {
		return this.wire.read(this.in, until);
	}

	/**
	 * Borrows an input buffer unless one is held; the wire's own thread.
	 * @return whether a buffer is held now; {@code false} when none fits the budget
	 */
	boolean borrowBuffer() {
		if (this.in == null) {
			this.in = this.wire.borrowInput();
		}
		return this.in != null;
	}

	/**
	 * Takes over an input buffer that holds bytes the connection's previous protocol read and did
	 * not use; the reader holds none yet.
	 * @param buffer the buffer, in read mode, borrowed from the wire
	 */
	void adopt(ByteBuffer buffer) {
		this.in = buffer;
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

	/** Gives the input buffer back to the wire; the wire's own thread. */
	void releaseInput() {
		if (this.in != null) {
			this.wire.releaseInput(this.in);
			this.in = null;
		}
	}

	/** Gives the input buffer back once everything in it is parsed; the wire's own thread. */
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
		next();
		this.onWorker = true;
		try {
			return read();
		}
		finally {
			this.onWorker = false;
		}
	}

	/** Starts the next request: nothing of it is read yet. */
	void next() {
		this.parser.reset();
		this.head = null;
		this.content = null;
		this.messageDone = false;
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
			if (in == null) {
				return false;
			}
			if (this.chunks == null) {
				this.chunks = new ChunkedScanner(this.config.limits());
			}
			return this.chunks.ended(in.array(), in.arrayOffset() + in.position(), in.arrayOffset() + in.limit());
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
	 * Returns the input buffer held, for the wire's reads of a body.
	 * @return the buffer, or {@code null}
	 */
	ByteBuffer buffer() {
		return this.in;
	}

	/**
	 * Returns the head of the request being read.
	 * @return the head, or {@code null} while it is incomplete
	 */
	RequestHead head() {
		return this.head;
	}

	/**
	 * Returns when the head was complete: on the wire's thread, when its bytes were there to read.
	 * @return the {@link System#nanoTime()}
	 */
	long headNanos() {
		return this.headNanos;
	}

	// ---- parser events

	@Override
	public boolean headComplete(RequestHead head) {
		this.head = head;
		if (this.chunks != null) {
			this.chunks.reset();
		}
		this.headNanos = this.onWorker ? System.nanoTime() : this.wire.now();
		// the request is dispatched now, or once its body is buffered; its body is parsed as
		// the handler reads it
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
