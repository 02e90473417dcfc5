package dev.ariadne.server.eventloop;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.locks.LockSupport;

import dev.ariadne.http.Headers;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Status;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.RequestBody;

/**
 * The body of an event-loop request, read as the handler reads it: parsed from the bytes
 * already in the connection's input buffer, then read from the socket by the reading thread
 * itself. The buffer is the only memory it uses, so a handler that reads slowly holds one
 * buffer and the client waits in its TCP window: the selector never reads a dispatched
 * connection on its own.
 *
 * <p>When the socket has nothing, the reading thread asks the selector to watch for input
 * ({@link EventLoopConnection#demandRead}) and waits for its signal, at most
 * {@code request.header-timeout} per gap; a longer gap is answered 408 unless the response
 * is committed. {@code 100 Continue} goes out with the first read, before the first wait. A
 * non-blocking reader ({@link #readNow}) never waits: the exchange asks the selector for a
 * callback instead, which the selector also gives at the end of the gap (the read then
 * fails with 408).
 *
 * <p>One instance per connection, reset per request; used by the thread running the exchange.
 * The cheap path, a body already in the input buffer when the head completes, takes no lock
 * and no signal.
 */
final class ChannelBody extends RequestBody {

	private final EventLoopConnection connection;

	private final ReadableByteChannel channel;

	private final RequestReader reader;

	private final ConnectionOutput out;

	private final WriteQueue writes;

	private final long gapNanos;

	/** Signals the thread waiting for input; created once, handed to the selector per wait. */
	private final Runnable wake = this::wake;

	private RequestHead head;

	private boolean hasBody;

	private boolean awaitingContinue;

	/** A failure a non-blocking readiness check found, thrown by the next non-blocking read. */
	private IOException failure;

	/**
	 * Why the body's framing was lost: the parser cannot resume, so every later read fails with
	 * it, blocking or not, the drain after the response too (which then closes the connection).
	 */
	private HttpParseException framingLost;

	private volatile boolean timedOut;

	private volatile Thread waiting;

	private volatile boolean signalled;

	ChannelBody(EventLoopConnection connection, ReadableByteChannel channel, RequestReader reader, ConnectionOutput out,
			WriteQueue writes, long gapNanos) {
		this.connection = connection;
		this.channel = channel;
		this.reader = reader;
		this.out = out;
		this.writes = writes;
		this.gapNanos = gapNanos;
	}

	/**
	 * Starts the body of a newly read request.
	 * @param head the request's head
	 * @return this body
	 */
	ChannelBody reset(RequestHead head) {
		this.head = head;
		this.hasBody = head.hasBody();
		this.awaitingContinue = this.hasBody && head.expectContinue();
		this.failure = null;
		this.framingLost = null;
		this.timedOut = false;
		return this;
	}

	@Override
	public boolean finished() {
		return !this.hasBody || this.reader.messageDone();
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
		ByteBuffer content = this.reader.content();
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
		return copy(advance(false), bytes, offset, length);
	}

	@Override
	public boolean readableNow() {
		if (this.failure != null) {
			return true;
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

	private int copy(int state, byte[] bytes, int offset, int length) {
		if (state <= 0) {
			return state;
		}
		ByteBuffer content = this.reader.content();
		int n = Math.min(length, content.remaining());
		content.get(bytes, offset, n);
		return n;
	}

	/**
	 * Parses and reads until a piece of the body is there to copy.
	 * @param wait whether to wait for the client when the socket has nothing
	 * @return 1 when content is there, -1 at the end of the body, 0 when there is nothing
	 * without waiting
	 */
	private int advance(boolean wait) throws IOException {
		if (this.framingLost != null) {
			throw badBody(this.framingLost);
		}
		if (this.awaitingContinue) {
			this.awaitingContinue = false;
			if (wait) {
				this.out.append(Answers.CONTINUE);
			}
			else {
				// a non-blocking reader must not touch the output a writer may be using
				this.writes.offer(Answers.CONTINUE, 0, Answers.CONTINUE.length);
			}
		}
		RequestReader reader = this.reader;
		while (this.hasBody) {
			ByteBuffer content = reader.content();
			if (content != null && content.hasRemaining()) {
				return 1;
			}
			if (reader.messageDone()) {
				return -1;
			}
			if (!reader.hasInput() && !reader.bodyParsed() && !fill(wait)) {
				return 0;
			}
			try {
				reader.parseBody();
			}
			catch (HttpParseException ex) {
				this.framingLost = ex;
				throw badBody(ex);
			}
		}
		return -1;
	}

	/**
	 * Reads more of the body from the socket into the (fully parsed) buffer.
	 * @param wait whether to wait for the client when the socket has nothing
	 * @return whether bytes were read; {@code false} only when not waiting
	 */
	private boolean fill(boolean wait) throws IOException {
		long deadline = 0;
		while (true) {
			if (this.timedOut) {
				throw lateBody();
			}
			int read = this.reader.fillHeld(this.channel);
			if (read > 0) {
				return true;
			}
			if (read < 0) {
				throw new EOFException("Connection closed in the middle of a request body");
			}
			if (!wait) {
				return false;
			}
			if (deadline == 0) {
				// what is due to the client (a 100 Continue) leaves before the wait
				this.out.flush();
				deadline = System.nanoTime() + this.gapNanos;
			}
			awaitInput(deadline);
		}
	}

	private void awaitInput(long deadline) throws IOException {
		this.signalled = false;
		this.waiting = Thread.currentThread();
		this.connection.demandRead(this.wake);
		try {
			while (!this.signalled) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					throw lateBody();
				}
				LockSupport.parkNanos(this, left);
				if (Thread.currentThread().isInterrupted()) {
					throw new IOException("Interrupted while waiting for the request body");
				}
			}
		}
		finally {
			this.waiting = null;
		}
	}

	/**
	 * A gap in the body longer than the header timeout: 408, as in every model, unless
	 * committed; the rest of the body is lost with it.
	 */
	private IOException lateBody() {
		this.framingLost = new HttpParseException(Status.REQUEST_TIMEOUT_408, Answers.BODY_TIMEOUT);
		return badBody(this.framingLost);
	}

	/**
	 * The client sent nothing of the body for the header timeout while a reader waited for it;
	 * the selector, before it signals the reader.
	 */
	void timeOut() {
		this.timedOut = true;
	}

	/** The selector saw input, or the connection closed; any thread. */
	private void wake() {
		this.signalled = true;
		Thread thread = this.waiting;
		if (thread != null) {
			LockSupport.unpark(thread);
		}
	}

}
