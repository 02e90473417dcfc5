package dev.ariadne.server.connection;

import java.io.IOException;
import java.nio.ByteBuffer;

import dev.ariadne.http.Headers;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;

/**
 * The body of an HTTP/1.1 request as its handler reads it, the same in every model: parsed from
 * the connection's input buffer as the handler reads (the parser removes the framing), and read
 * from the connection by the reading thread itself once the buffer is used up ({@link #fill}),
 * which each model does its own way. {@code 100 Continue} goes out with the first read. A body
 * whose framing turns out malformed, too large or too slow fails every later read with the
 * same failure, blocking or not, the drain after the response too (which then closes the
 * connection): the parser cannot resume.
 *
 * <p>One instance per connection, {@link #start started} per request; used by the thread
 * running the exchange, and by the connection's thread for a non-blocking reader where a model
 * reads for it.
 */
public abstract class Http1Body extends RequestBody {

	private RequestHead head;

	private boolean hasBody;

	private boolean awaitingContinue;

	/** Why the body's framing was lost: every later read fails with it. */
	private volatile HttpParseException framingLost;

	/** A failure a non-blocking readiness check found, thrown by the next non-blocking read. */
	private volatile IOException failure;

	/**
	 * Starts the body of a newly read request.
	 * @param head the request's head
	 */
	protected void start(RequestHead head) {
		this.head = head;
		this.hasBody = head.hasBody();
		this.awaitingContinue = this.hasBody && head.expectContinue();
		this.framingLost = null;
		this.failure = null;
	}

	// ---- what the model gives the body

	/**
	 * Returns the piece of body the parser found last, read from by the body.
	 * @return a view of the input buffer, or {@code null}
	 */
	protected abstract ByteBuffer content();

	/**
	 * Returns whether the parser has read the whole request, body included.
	 * @return whether the message is complete
	 */
	protected abstract boolean messageDone();

	/**
	 * Returns whether bytes the parser has not seen yet are in the input buffer, or the parser
	 * has read every byte of the body and only reports the end of the message next: either
	 * way, parsing goes on without reading the connection.
	 * @return whether the parser can go on without more input
	 */
	protected abstract boolean parseable();

	/**
	 * Parses the body in the input buffer until the parser finds a piece of it, the end of the
	 * message, or the end of the buffered input.
	 * @throws HttpParseException if the body is malformed or too large
	 */
	protected abstract void parseBody() throws HttpParseException;

	/**
	 * Reads more of the body from the connection into the (fully parsed) input buffer.
	 * @param wait whether to wait for the client when the connection has nothing now
	 * @return whether bytes were read; {@code false} only when not waiting
	 * @throws IOException if reading failed, or (as a {@link BodyException}) the body kept the
	 * server waiting too long
	 */
	protected abstract boolean fill(boolean wait) throws IOException;

	/**
	 * Sends {@code 100 Continue}, before the first read of a body the client holds back.
	 * @param wait whether the reader is a blocking one, which may write through the exchange's
	 * output; a non-blocking reader must not touch an output a writer may be using
	 * @throws IOException if the connection failed
	 */
	protected abstract void sendContinue(boolean wait) throws IOException;

	/**
	 * Returns whether the model reads for a non-blocking reader now, on a thread of its own:
	 * that reader then finds nothing until it is told.
	 * @return whether a read for a non-blocking reader is under way
	 */
	protected boolean fetching() {
		return false;
	}

	// ---- the body as the handler reads it

	@Override
	public boolean finished() {
		return !this.hasBody || messageDone();
	}

	@Override
	public boolean awaitingContinue() {
		return this.awaitingContinue;
	}

	@Override
	public Headers trailers() {
		return this.head.trailers();
	}

	@Override
	public int available() {
		ByteBuffer content = content();
		return (this.hasBody && content != null) ? content.remaining() : 0;
	}

	@Override
	public int read(byte[] bytes, int offset, int length) throws IOException {
		if (length == 0) {
			return 0;
		}
		return copy(advance(true), bytes, offset, length);
	}

	@Override
	public int readNow(byte[] bytes, int offset, int length) throws IOException {
		IOException failure = this.failure;
		if (failure != null) {
			this.failure = null;
			throw failure;
		}
		if (fetching()) {
			// the model reads for this reader, which is told when it is done
			return 0;
		}
		return copy(advance(false), bytes, offset, length);
	}

	@Override
	public boolean readableNow() {
		if (this.failure != null) {
			return true;
		}
		if (fetching()) {
			return false;
		}
		try {
			return advance(false) != 0;
		}
		catch (IOException ex) {
			// the next non-blocking read throws it
			this.failure = ex;
			return true;
		}
	}

	/**
	 * Reads, waiting, until a non-blocking read has something, keeping a failure for it: how a
	 * model whose connection thread reads for a non-blocking reader does it.
	 */
	protected void readAhead() {
		try {
			advance(true);
		}
		catch (IOException ex) {
			this.failure = ex;
		}
	}

	/**
	 * Fails the body: its framing is lost, and every read from now on fails with it.
	 * @param cause what was found, with the status to answer
	 * @return the exception to throw
	 */
	protected IOException lose(HttpParseException cause) {
		this.framingLost = cause;
		return badBody(cause);
	}

	private int copy(int state, byte[] bytes, int offset, int length) {
		if (state <= 0) {
			return state;
		}
		ByteBuffer content = content();
		int n = Math.min(length, content.remaining());
		content.get(bytes, offset, n);
		return n;
	}

	/**
	 * Parses and reads until a piece of the body is there to copy.
	 * @param wait whether to wait for the client when the connection has nothing
	 * @return 1 when content is there, -1 at the end of the body, 0 when there is nothing
	 * without waiting
	 */
	private int advance(boolean wait) throws IOException {
		HttpParseException lost = this.framingLost;
		if (lost != null) {
			throw badBody(lost);
		}
		if (this.awaitingContinue) {
			this.awaitingContinue = false;
			sendContinue(wait);
		}
		while (this.hasBody) {
			ByteBuffer content = content();
			if (content != null && content.hasRemaining()) {
				return 1;
			}
			if (messageDone()) {
				return -1;
			}
			if (!parseable() && !fill(wait)) {
				return 0;
			}
			try {
				parseBody();
			}
			catch (HttpParseException ex) {
				throw lose(ex);
			}
		}
		return -1;
	}

}
