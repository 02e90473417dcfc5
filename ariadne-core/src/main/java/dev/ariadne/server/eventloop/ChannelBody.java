package dev.ariadne.server.eventloop;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.locks.LockSupport;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.BodyClock;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.Http1Body;

/**
 * The body of an event-loop request, read as the handler reads it: parsed from the bytes
 * already in the connection's input buffer (the selector reads a body that fits the buffer
 * before it dispatches the request), then read from the socket by the reading thread itself.
 * The buffer is the only memory it uses, so a handler that reads slowly holds one buffer and the
 * client waits in its TCP window: the selector never reads a dispatched connection on its own.
 *
 * <p>When the socket has nothing, the reading thread asks the selector to watch for input
 * ({@link EventLoopConnection#demandRead}) and waits for its signal within the body's limits
 * ({@link BodyClock}: a pause, the minimum data rate, and while the worker's pool is starved the
 * low-resources stall timeout); past them the body is answered 408 unless the response is
 * committed. {@code 100 Continue} goes out with the first read, before the first wait. A
 * non-blocking reader ({@link #readNow}) never waits: the exchange asks the selector for a
 * callback instead, which the selector also gives when the body's limits run out (the read then
 * fails with 408).
 *
 * <p>One instance per connection, reset per request; used by the thread running the exchange.
 * The cheap path, a body already in the input buffer when the request is dispatched, takes no
 * lock and no signal.
 */
final class ChannelBody extends Http1Body {

	private final EventLoopConnection connection;

	private final ReadableByteChannel channel;

	private final RequestReader reader;

	private final ConnectionOutput out;

	private final WriteQueue writes;

	private final BodyClock clock;

	/** Signals the thread waiting for input; created once, handed to the selector per wait. */
	private final Runnable wake = this::wake;

	/** Set by the selector when a non-blocking reader's wait ran out; thrown by the next read. */
	private volatile BodyClock.Expiry expired;

	private volatile Thread waiting;

	private volatile boolean signalled;

	ChannelBody(EventLoopConnection connection, ReadableByteChannel channel, RequestReader reader, ConnectionOutput out,
			WriteQueue writes, BodyClock clock) {
		this.connection = connection;
		this.channel = channel;
		this.reader = reader;
		this.out = out;
		this.writes = writes;
		this.clock = clock;
	}

	/**
	 * Starts the body of a newly read request.
	 * @param head the request's head
	 * @return this body
	 */
	ChannelBody reset(RequestHead head) {
		start(head);
		this.expired = null;
		this.clock.reset();
		return this;
	}

	@Override
	protected ByteBuffer content() {
		return this.reader.content();
	}

	@Override
	protected boolean messageDone() {
		return this.reader.messageDone();
	}

	@Override
	protected boolean parseable() {
		return this.reader.hasInput() || this.reader.bodyParsed();
	}

	@Override
	protected void parseBody() throws HttpParseException {
		this.reader.parseBody();
	}

	@Override
	protected void sendContinue(boolean wait) throws IOException {
		if (wait) {
			this.out.append(Answers.CONTINUE);
		}
		else {
			this.writes.offer(Answers.CONTINUE, 0, Answers.CONTINUE.length);
		}
	}

	@Override
	protected boolean fill(boolean wait) throws IOException {
		boolean flushed = false;
		while (true) {
			BodyClock.Expiry expired = this.expired;
			if (expired != null) {
				throw late(expired);
			}
			int read = this.reader.fillHeld(this.channel);
			if (read > 0) {
				this.clock.endWait(System.nanoTime(), read);
				return true;
			}
			if (read < 0) {
				throw new EOFException("Connection closed in the middle of a request body");
			}
			if (!wait) {
				// a non-blocking reader waits from now on, for a callback
				this.clock.startWait(System.nanoTime());
				return false;
			}
			if (!flushed) {
				// what is due to the client (a 100 Continue) leaves before the wait
				this.out.flush();
				flushed = true;
			}
			awaitInput();
		}
	}

	/**
	 * Waits for the selector's signal that input arrived, within the body's limits; while the
	 * worker's pool is starved, within the stall timeout too, which it looks at again every
	 * poll, since the pool may starve while the worker waits.
	 */
	private void awaitInput() throws IOException {
		this.signalled = false;
		this.waiting = Thread.currentThread();
		long deadline = this.clock.startWait(System.nanoTime());
		// the worker keeps its own time: the selector only tells it when input arrives
		this.connection.demandRead(this.wake, 0);
		long poll = this.connection.lowResources().pollNanos();
		try {
			while (!this.signalled) {
				long now = System.nanoTime();
				BodyClock.Expiry expiry = this.clock.expiry(now, this.connection.stallNanos());
				if (expiry != BodyClock.Expiry.NONE) {
					this.connection.bodyExpired(expiry);
					throw late(expiry);
				}
				long left = deadline - now;
				LockSupport.parkNanos(this, (poll < left) ? poll : left);
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
	 * A body that kept the server waiting too long: 408, as in every model, unless committed;
	 * the rest of the body is lost with it.
	 */
	private IOException late(BodyClock.Expiry expiry) {
		return lose(Answers.lateBody(expiry));
	}

	/**
	 * Returns the clock of this connection's bodies.
	 * @return the clock
	 */
	BodyClock clock() {
		return this.clock;
	}

	/**
	 * The client sent too little of the body while a non-blocking reader waited for it; the
	 * selector, before it calls the reader back.
	 * @param expiry what ended the body
	 */
	void timeOut(BodyClock.Expiry expiry) {
		this.expired = expiry;
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
