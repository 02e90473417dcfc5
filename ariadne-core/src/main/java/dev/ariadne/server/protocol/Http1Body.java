package dev.ariadne.server.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

import dev.ariadne.http.Headers;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.BodyClock;
import dev.ariadne.server.connection.RequestBody;
import dev.ariadne.server.stats.Defence;

/**
 * The body of an HTTP/1.1 request as its handler reads it, the same in every model: parsed from
 * the connection's input buffer as the handler reads (the parser removes the framing), then read
 * from the connection by the reading thread itself through its {@link Wire}, within the body's
 * limits ({@link BodyClock}: a pause, the minimum data rate, and while a worker of a starved pool
 * waits the low-resources stall timeout). {@code 100 Continue} goes out with the first read,
 * before the first wait. A body whose framing turns out malformed, too large or too slow fails
 * every later read with the same failure, blocking or not, the drain after the response too
 * (which then closes the connection): the parser cannot resume.
 *
 * <p>A non-blocking reader ({@link #readNow}) never waits: the exchange asks the wire for a
 * callback instead, which comes at input or when the body's limits run out ({@link #timeOut});
 * where the wire reads for such a reader on a thread of its own ({@link #fetch}), the reader
 * finds nothing until it is told.
 *
 * <p>Once its exchange switches protocols ({@link #tunnel()}), the body is the connection's own
 * bytes, as {@link Http1Tunnel} reads them, for as long as the connection lasts.
 *
 * <p>One instance per connection, {@link #start started} per request; used by the thread
 * running the exchange. The cheap path, a body already in the input buffer when the request is
 * dispatched, reads no clock and takes no lock.
 */
final class Http1Body extends RequestBody {

	private final Http1Protocol protocol;

	private final Wire wire;

	private final Http1Reader reader;

	private final BodyClock clock;

	private RequestHead head;

	private boolean hasBody;

	private boolean awaitingContinue;

	/** Why the body's framing was lost: every later read fails with it. */
	private volatile HttpParseException framingLost;

	/** A failure a non-blocking readiness check found, thrown by the next non-blocking read. */
	private volatile IOException failure;

	/** Set when a non-blocking reader's wait ran out; thrown by the next read. */
	private volatile BodyClock.Expiry expired;

	/** Whether the wire's thread is reading for a non-blocking reader. */
	private volatile boolean fetching;

	/**
	 * The connection's bytes once the exchange switched protocols, or {@code null}: for good, since
	 * the connection carries no other request. Any thread reads it.
	 */
	private volatile Http1Tunnel tunnel;

	Http1Body(Http1Protocol protocol, Wire wire, Http1Reader reader, BodyClock clock) {
		this.protocol = protocol;
		this.wire = wire;
		this.reader = reader;
		this.clock = clock;
	}

	/**
	 * Starts the body of a newly read request.
	 * @param head the request's head
	 * @return this body
	 */
	Http1Body start(RequestHead head) {
		this.head = head;
		this.hasBody = head.hasBody();
		this.awaitingContinue = this.hasBody && head.expectContinue();
		this.framingLost = null;
		this.failure = null;
		this.expired = null;
		this.clock.reset();
		return this;
	}

	/**
	 * The client sent too little of the body while a non-blocking reader waited for it; before
	 * the reader is called back.
	 * @param expiry what ended the body
	 */
	void timeOut(BodyClock.Expiry expiry) {
		this.expired = expiry;
	}

	/**
	 * Starts the wait of a non-blocking reader for more of the body.
	 * @return when it ends by the body's limits
	 */
	long nonBlockingReadWait() {
		// the protocol a connection switched to keeps its own time
		return (this.tunnel != null) ? 0 : this.clock.startWait(System.nanoTime());
	}

	/**
	 * A non-blocking reader's wait for more of the body ran out, by the wire's account: unless
	 * bytes came meanwhile and it waits anew, the body fails and the reader is to be called
	 * back. The wire's own thread.
	 * @param now the time
	 * @return whether the body failed
	 */
	boolean nonBlockingReadExpired(long now) {
		BodyClock.Expiry expiry = this.clock.expiry(now, Long.MAX_VALUE);
		if (expiry == BodyClock.Expiry.NONE) {
			return false;
		}
		expired(expiry);
		timeOut(expiry);
		return true;
	}

	/**
	 * Returns when the wait of a non-blocking reader for more of the body ends.
	 * @return the {@link System#nanoTime()}, or 0 when it waits no more
	 */
	long nonBlockingReadDeadline() {
		return this.clock.waiting() ? this.clock.deadline() : 0;
	}

	/**
	 * Reads, waiting, until a non-blocking read has something, keeping a failure for it: how a
	 * wire whose own thread reads for a non-blocking reader does it.
	 */
	void fetch() {
		Http1Tunnel tunnel = this.tunnel;
		if (tunnel != null) {
			tunnel.fetch();
			return;
		}
		this.fetching = true;
		try {
			advance(true);
		}
		catch (IOException ex) {
			this.failure = ex;
		}
		finally {
			this.fetching = false;
		}
	}

	/**
	 * Reads more of the body from the connection into the (fully parsed) input buffer.
	 * @param wait whether to wait for the client when the connection has nothing now
	 * @return whether bytes were read; {@code false} only when not waiting
	 */
	private boolean fill(boolean wait) throws IOException {
		BodyClock.Expiry expired = this.expired;
		if (expired != null) {
			throw late(expired);
		}
		int read = this.reader.fillHeld(0);
		if (read == 0 && wait) {
			// what is due to the client (a 100 Continue) leaves before the wait
			this.protocol.out().flush();
			read = await();
		}
		if (read > 0) {
			this.clock.endWait(System.nanoTime(), read);
			return true;
		}
		if (read < 0) {
			throw new EOFException("Connection closed in the middle of a request body");
		}
		// a non-blocking reader waits from now on, for a callback
		this.clock.startWait(System.nanoTime());
		return false;
	}

	/**
	 * Waits for bytes within the body's limits; while the thread holds a worker it looks again
	 * every poll whether its pool starved, since the pool may starve while it waits.
	 * @return the bytes read, or -1 at the end of the stream
	 */
	private int await() throws IOException {
		BodyClock clock = this.clock;
		long deadline = clock.startWait(System.nanoTime());
		boolean inExchange = this.protocol.inExchange();
		long poll = this.wire.holdsWorker(inExchange) ? this.wire.context().lowResources().pollNanos()
				: Long.MAX_VALUE;
		while (true) {
			long now = System.nanoTime();
			BodyClock.Expiry expiry = clock.expiry(now, this.wire.stallNanos(this.protocol.workerPool(), inExchange));
			if (expiry != BodyClock.Expiry.NONE) {
				expired(expiry);
				throw late(expiry);
			}
			int read = this.reader.fillHeld((poll < deadline - now) ? now + poll : deadline);
			if (read != 0) {
				return read;
			}
		}
	}

	/**
	 * Counts a body that kept the server waiting too long.
	 * @param expiry what ended it
	 */
	void expired(BodyClock.Expiry expiry) {
		this.wire.context().registry().defended(Defence.SLOW_BODY, expiry == BodyClock.Expiry.STALL);
	}

	/**
	 * A body that kept the server waiting too long: 408, as in every model, unless committed;
	 * the rest of the body is lost with it.
	 */
	private IOException late(BodyClock.Expiry expiry) {
		return lose(Answers.lateBody(expiry));
	}

	/**
	 * Fails the body: its framing is lost, and every read from now on fails with it.
	 * @param cause what was found, with the status to answer
	 * @return the exception to throw
	 */
	private IOException lose(HttpParseException cause) {
		this.framingLost = cause;
		return badBody(cause);
	}

	private ByteBuffer content() {
		return this.reader.content();
	}

	private boolean messageDone() {
		return this.reader.messageDone();
	}

	// ---- the body as the handler reads it

	@Override
	public boolean tunnel() {
		this.tunnel = new Http1Tunnel(this.reader, this.head);
		this.wire.tunnel();
		return true;
	}

	/**
	 * Returns the connection's bytes once the exchange switched protocols.
	 * @return the tunnel, or {@code null}
	 */
	Http1Tunnel tunnelled() {
		return this.tunnel;
	}

	@Override
	public boolean finished() {
		Http1Tunnel tunnel = this.tunnel;
		if (tunnel != null) {
			return tunnel.finished();
		}
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
		Http1Tunnel tunnel = this.tunnel;
		if (tunnel != null) {
			return tunnel.available();
		}
		ByteBuffer content = content();
		return (this.hasBody && content != null) ? content.remaining() : 0;
	}

	@Override
	public int read(byte[] bytes, int offset, int length) throws IOException {
		if (length == 0) {
			return 0;
		}
		Http1Tunnel tunnel = this.tunnel;
		if (tunnel != null) {
			return tunnel.read(bytes, offset, length);
		}
		return copy(advance(true), bytes, offset, length);
	}

	@Override
	public int readNow(byte[] bytes, int offset, int length) throws IOException {
		Http1Tunnel tunnel = this.tunnel;
		if (tunnel != null) {
			return tunnel.readNow(bytes, offset, length);
		}
		IOException failure = this.failure;
		if (failure != null) {
			this.failure = null;
			throw failure;
		}
		if (this.fetching) {
			// the wire reads for this reader, which is told when it is done
			return 0;
		}
		return copy(advance(false), bytes, offset, length);
	}

	@Override
	public boolean readableNow() {
		Http1Tunnel tunnel = this.tunnel;
		if (tunnel != null) {
			return tunnel.readable();
		}
		if (this.failure != null) {
			return true;
		}
		if (this.fetching) {
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
			if (wait) {
				this.protocol.out().append(Answers.CONTINUE);
			}
			else {
				// a non-blocking reader must not touch the output a writer may be using
				this.wire.transmitter().offer(Answers.CONTINUE, 0, Answers.CONTINUE.length);
			}
		}
		while (this.hasBody) {
			ByteBuffer content = content();
			if (content != null && content.hasRemaining()) {
				return 1;
			}
			if (messageDone()) {
				return -1;
			}
			if (!this.reader.hasInput() && !this.reader.bodyParsed() && !fill(wait)) {
				return 0;
			}
			try {
				this.reader.parseBody();
			}
			catch (HttpParseException ex) {
				throw lose(ex);
			}
		}
		return -1;
	}

}
