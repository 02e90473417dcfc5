package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.RequestParser;
import dev.ariadne.http.RequestSink;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.RequestBody;

/**
 * The request an event-loop connection is reading: its input buffer, borrowed from the loop's
 * pool only while bytes are in it, its parser, and what the parser reported so far (the head
 * and when it arrived, the body read in full, whether the message is complete).
 *
 * <p>Used by one thread at a time: the selector thread while the connection reads, or the
 * worker that parses pipelined requests ahead between two exchanges; the connection's hand-off
 * between them orders the accesses. The input buffer goes back to the pool on the selector
 * thread only, since the pool is the loop's.
 */
final class RequestReader implements RequestSink {

	private static final int INITIAL_BODY_BUFFER = 16 * 1024;

	private final RequestParser parser;

	private final SelectorLoop loop;

	private final WriteQueue writes;

	private final ConnectionOutput out;

	private ByteBuffer in;

	/** Whether the parser runs on a worker (between pipelined exchanges) rather than the selector. */
	private boolean onWorker;

	private RequestHead head;

	private long headNanos;

	private byte[] body;

	private int bodyLength;

	private boolean messageDone;

	RequestReader(ServerConfig config, SelectorLoop loop, WriteQueue writes, ConnectionOutput out) {
		this.parser = new RequestParser(config.limits(), this);
		this.loop = loop;
		this.writes = writes;
		this.out = out;
	}

	/**
	 * Reads what the socket has into the input buffer, borrowing one if none is held; selector
	 * thread.
	 * @param channel the socket, or TLS over it
	 * @return the bytes read, or -1 at the end of the stream
	 * @throws IOException if the read failed
	 */
	int fill(ReadableByteChannel channel) throws IOException {
		if (this.in == null) {
			this.in = this.loop.buffers().borrow();
		}
		ByteBuffer in = this.in;
		in.compact();
		try {
			return channel.read(in);
		}
		finally {
			in.flip();
		}
	}

	/** Gives the input buffer back to the loop's pool; selector thread. */
	void releaseInput() {
		if (this.in != null) {
			this.loop.buffers().release(this.in);
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
	 * Parses buffered input until a request is complete or the input is used up.
	 * @return whether a whole request was read
	 * @throws HttpParseException if the request is malformed
	 */
	boolean read() throws HttpParseException {
		ByteBuffer in = this.in;
		while (in != null && in.hasRemaining()) {
			if (this.parser.parse(in) && this.messageDone) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Starts the next request and parses what is already buffered of it; on a worker, between
	 * two exchanges of a kept connection.
	 * @return whether a whole request was buffered
	 * @throws HttpParseException if the request is malformed
	 */
	boolean readAhead() throws HttpParseException {
		this.parser.reset();
		this.head = null;
		this.body = null;
		this.bodyLength = 0;
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
	 * Returns whether nothing of a next request has been read.
	 * @return whether the reader waits for a request
	 */
	boolean isIdle() {
		return this.parser.isIdle() && this.head == null;
	}

	/**
	 * Returns whether the request read last is complete.
	 * @return whether a whole request was read
	 */
	boolean messageDone() {
		return this.messageDone;
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

	/**
	 * Returns the body of the complete request.
	 * @return the body, read in full
	 */
	RequestBody body() {
		return (this.body != null) ? new BufferedBody(this.head, this.body, this.bodyLength) : RequestBody.EMPTY;
	}

	// ---- parser events

	@Override
	public boolean headComplete(RequestHead head) {
		this.head = head;
		this.headNanos = this.onWorker ? System.nanoTime() : this.loop.now();
		if (head.hasBody()) {
			// grows as bytes arrive: a declared length alone allocates no more than this
			long length = head.contentLength();
			this.body = new byte[(int) Math.min((length > 0) ? length : 1024, INITIAL_BODY_BUFFER)];
			if (head.expectContinue()) {
				sendContinue();
			}
		}
		return false;
	}

	private void sendContinue() {
		if (this.onWorker) {
			// after the responses still buffered on this worker, in order
			this.out.append(Answers.CONTINUE);
			return;
		}
		try {
			this.writes.enqueue(Answers.CONTINUE, 0, Answers.CONTINUE.length);
		}
		catch (IOException ex) {
			// the connection failed: the selector finds it closed
		}
	}

	@Override
	public boolean content(ByteBuffer content) {
		int length = content.remaining();
		if (this.bodyLength + length > this.body.length) {
			this.body = Arrays.copyOf(this.body, Math.max(this.bodyLength + length, this.body.length * 2));
		}
		content.get(this.body, this.bodyLength, length);
		this.bodyLength += length;
		return false;
	}

	@Override
	public boolean messageComplete() {
		this.messageDone = true;
		return true;
	}

}
