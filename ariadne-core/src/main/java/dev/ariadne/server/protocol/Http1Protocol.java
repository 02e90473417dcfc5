package dev.ariadne.server.protocol;

import java.io.IOException;

import javax.net.ssl.SSLSession;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Status;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.BodyClock;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.HttpExchange;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.routing.RouteMatch;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.RequestEvent;

/**
 * HTTP/1.1 on a connection, the same in every I/O model: heads parsed on the wire's own thread
 * as bytes arrive, the rest of a body that fits the input buffer read there too before the
 * request is dispatched (a body arriving slowly then holds a buffer, not a worker), each request
 * sent to its pool through the model's entry, pipelined requests of the same pool run by the
 * thread that ran the exchange before it, and the connection handed back to the wire's thread
 * once an exchange ends ({@link Wire#execute}); persistence, refusals and the timeouts of heads,
 * bodies and idle connections.
 *
 * <p>Thread ownership: the wire's own thread (a selector, or the connection's thread) calls
 * {@link #onInput}, {@link #checkTimeout} and the rest of the reading side; once a head is
 * complete, the thread that runs the exchange owns the exchange, the output, and the input and
 * reader (to read the body as the handler asks for it, and to parse pipelined requests ahead),
 * until it hands the connection back. In the socket models the two are one thread.
 */
public final class Http1Protocol {

	/** Most pipelined requests one worker runs in a row before handing the connection back. */
	private static final int MAX_INLINE = 64;

	/** Where the connection is in its life. */
	public enum Phase {

		/** Reading a request (or waiting for one, when idle). */
		READING,

		/** A worker runs the exchange; reading is paused. */
		DISPATCHED,

		/** The exchange is over; the rest of its response is being written. */
		FLUSHING,

		/**
		 * The last response (an error, or one after which the connection closes) is being
		 * written, then input is discarded until the client closes or the linger time is over.
		 */
		CLOSING,

		/** Closed. */
		CLOSED

	}

	private final Wire wire;

	private final ConnectionContext context;

	private final ServerConfig config;

	private final ConnectionOutput out;

	private final Http1Reader reader;

	private final BodyClock clock;

	private final Http1Body body;

	private final HttpExchange exchange;

	/** The pool whose worker runs (or last ran) the connection's exchange; any thread reads it. */
	private volatile String workerPool;

	/** Whether a thread runs the current exchange's handler. */
	private volatile boolean inExchange;

	/**
	 * How long the connection waited for a worker before its first request ({@code blocking}),
	 * counted with that request's wait.
	 */
	private long connectionWait;

	// ---- the wire's own thread only

	private Phase phase = Phase.READING;

	private boolean idle;

	private long deadline;

	private boolean keepAfterExchange;

	/**
	 * Whether the request whose head was read waits for the rest of its body on the wire's
	 * thread, before it is dispatched.
	 */
	private boolean bodyPending;

	/** A pipelined request the worker found malformed, answered once the connection is back. */
	private HttpParseException invalidNext;

	/** The route of a request read ahead or waiting for its body, dispatched once. */
	private RouteMatch routed;

	/**
	 * Creates the protocol of a connection.
	 * @param wire the connection's transport
	 */
	public Http1Protocol(Wire wire) {
		this.wire = wire;
		this.context = wire.context();
		this.config = this.context.config();
		this.out = new ConnectionOutput(wire.transmitter(), this.context.outputBuffers());
		this.reader = new Http1Reader(this.config, wire);
		this.clock = new BodyClock(this.config);
		this.body = new Http1Body(this, wire, this.reader, this.clock);
		this.exchange = new HttpExchange(this.context, this.out, wire.remoteAddress(), wire.localAddress(),
				wire::releaseConnection, wire);
	}

	// ---- what the wire asks

	/**
	 * Returns where the connection is.
	 * @return the phase
	 */
	public Phase phase() {
		return this.phase;
	}

	/**
	 * Returns the connection's output, for the wire to flush before it waits.
	 * @return the output
	 */
	public ConnectionOutput out() {
		return this.out;
	}

	/**
	 * Returns the exchange logic of the connection.
	 * @return the exchange
	 */
	public HttpExchange exchange() {
		return this.exchange;
	}

	/**
	 * Returns whether the connection is between two requests.
	 * @return whether idle
	 */
	public boolean isIdle() {
		return this.idle;
	}

	/**
	 * Returns whether nothing of a request is read and none is under way: the connection waits
	 * for the first byte of its next request.
	 * @return whether the reader waits for a request
	 */
	public boolean awaitingRequest() {
		return this.phase == Phase.READING && this.reader.isIdle();
	}

	/**
	 * Returns whether the connection waits on the wire's thread for the rest of a body.
	 * @return whether a body is read before its dispatch
	 */
	public boolean bodyPending() {
		return this.bodyPending;
	}

	/**
	 * Returns when the reading of the current head, or of a body read before its dispatch, must
	 * end.
	 * @return the {@link System#nanoTime()} of the deadline
	 */
	public long readDeadline() {
		return this.bodyPending ? this.clock.deadline() : this.deadline;
	}

	/**
	 * Returns whether a thread runs the current exchange's handler now.
	 * @return whether inside an exchange
	 */
	public boolean inExchange() {
		return this.inExchange;
	}

	/**
	 * Returns whether the reader holds an input buffer.
	 * @return whether a buffer is held
	 */
	public boolean holdsInput() {
		return this.reader.holdsBuffer();
	}

	/**
	 * Returns whether unparsed input is buffered.
	 * @return whether input waits in the buffer
	 */
	public boolean hasInput() {
		return this.reader.hasInput();
	}

	// ---- the reading side (the wire's own thread)

	/**
	 * The connection is registered: it is idle until its first bytes, within a deadline.
	 * @param deadline the {@link System#nanoTime()} by which the first request must begin
	 */
	public void start(long deadline) {
		setIdle(true);
		this.deadline = deadline;
	}

	/**
	 * Counts how long the connection waited for a worker before it was served, with its first
	 * request's time waited for a worker ({@code blocking}).
	 * @param nanos the time waited
	 */
	public void waitedForWorker(long nanos) {
		this.connectionWait = nanos;
	}

	/**
	 * The TLS handshake completed: the first request's time starts.
	 * @param session the connection's TLS session
	 */
	public void handshaken(SSLSession session) {
		this.deadline = this.wire.now() + this.config.headerTimeout().toNanos();
		this.exchange.tlsSession(session);
	}

	/**
	 * Reads into the input buffer, borrowing one if none is held.
	 * @param until as {@link Wire#read}: 0 for what is there now
	 * @return the bytes read, or -1 at the end of the stream; 0 as well when no buffer fits the
	 * budget ({@link #holdsInput()} tells)
	 * @throws IOException if reading failed
	 */
	public int fill(long until) throws IOException {
		return this.reader.fill(until);
	}

	/**
	 * Borrows an input buffer again after waiting for the budget.
	 * @return whether a buffer is held now
	 */
	public boolean borrowInput() {
		if (!this.reader.borrowBuffer()) {
			return false;
		}
		if (this.bodyPending) {
			this.clock.startWait(this.wire.now());
		}
		return true;
	}

	/**
	 * The wire waits for a buffer of the budget: a body's clock stops meanwhile, since the
	 * server does not ask for its bytes.
	 */
	public void awaitingInputBuffer() {
		if (this.bodyPending) {
			this.clock.endWait(this.wire.now(), 0);
		}
	}

	/** Gives the input buffer back once everything in it is parsed. */
	public void releaseEmptyInput() {
		this.reader.releaseEmptyBuffer();
	}

	/** Gives the input buffer back. */
	public void releaseInput() {
		this.reader.releaseInput();
	}

	/**
	 * Bytes were read into the input buffer while the connection reads: parses them, and
	 * dispatches a complete request.
	 * @param read how many, more than 0
	 */
	public void onInput(int read) {
		if (this.idle) {
			setIdle(false);
			this.deadline = this.wire.now() + this.config.headerTimeout().toNanos();
		}
		else if (this.bodyPending) {
			this.clock.endWait(this.wire.now(), read);
		}
		processInput();
	}

	/** The client sent plaintext HTTP to a TLS port: 400, saying so, then close. */
	public void plaintextOnTls() {
		setIdle(false);
		refuse(Status.BAD_REQUEST_400, Answers.TLS_REQUIRED, RequestEvent.INVALID);
	}

	/** Parses what is buffered; dispatches a complete request. */
	private void processInput() {
		try {
			if (this.bodyPending || this.reader.read()) {
				headRead();
				return;
			}
		}
		catch (HttpParseException ex) {
			refuse(ex.status(), ex.reason(), RequestEvent.INVALID);
			return;
		}
		this.reader.releaseEmptyBuffer();
		if (this.reader.isIdle() && !this.idle) {
			goIdle();
		}
	}

	private void goIdle() {
		if (this.context.registry().shuttingDown()) {
			this.wire.close();
			return;
		}
		setIdle(true);
		this.deadline = this.wire.now() + this.config.keepAliveTimeout().toNanos();
	}

	/**
	 * A request's head is read (and perhaps some of its body): reads the rest of a body that
	 * fits the input buffer on the wire's thread first, then dispatches the request. A request
	 * that expects {@code 100 Continue} goes at once: its handler decides whether it wants the
	 * body.
	 */
	private void headRead() {
		RequestHead head = this.reader.head();
		if (!this.bodyPending) {
			this.body.start(head);
		}
		long now = this.wire.now();
		if (head.hasBody() && !head.expectContinue() && !this.reader.bodyBuffered() && !this.reader.bufferFull()) {
			if (!this.bodyPending) {
				this.bodyPending = true;
				if (this.routed == null) {
					// routed once, here: a refusal of the body names the route
					this.routed = this.exchange.route(head);
				}
			}
			this.clock.startWait(now);
			this.reader.releaseEmptyBuffer();
			return;
		}
		if (this.bodyPending) {
			this.bodyPending = false;
			this.clock.endWait(now, 0);
		}
		dispatch();
	}

	/** Sends the complete request to its pool. */
	private void dispatch() {
		this.phase = Phase.DISPATCHED;
		RequestHead head = this.reader.head();
		long start = this.reader.headNanos();
		long dispatched = this.wire.now();
		// routed once: here, or on the worker that parsed it ahead and left it for its own pool
		RouteMatch match = (this.routed != null) ? this.routed : this.exchange.route(head);
		this.routed = null;
		this.workerPool = match.pool();
		if (!this.exchange.dispatch(head, match, this.wire.entry(),
				() -> runExchanges(head, start, dispatched, match))) {
			closeAfterAnswer();
		}
	}

	/**
	 * Runs on a worker of the request's pool: the exchange, then, while the connection stays
	 * open, the pipelined requests already buffered that belong to the same pool, so their
	 * responses leave in one write and the connection does not go back and forth to the wire's
	 * thread per request. Reads nothing from the connection but the bodies: the buffered input
	 * and the parser belong to this thread until it hands the connection back.
	 */
	private void runExchanges(RequestHead head, long start, long dispatched, RouteMatch match) {
		try {
			long waited = this.connectionWait + (System.nanoTime() - dispatched);
			this.connectionWait = 0;
			boolean keep = run(head, start, waited, match);
			goOn(keep, match.pool());
		}
		catch (Throwable ex) {
			// an Error in the server's own code (out of memory): the connection must not stay
			// dispatched for ever; the wire closes it
			discardOutput();
			this.wire.exchangeFailed(ex);
		}
	}

	private boolean run(RequestHead head, long start, long queueWaitNanos, RouteMatch match) {
		this.inExchange = true;
		try {
			return this.exchange.run(head, this.body, start, queueWaitNanos, match);
		}
		finally {
			this.inExchange = false;
		}
	}

	/**
	 * After an exchange, on the thread that ran or ended it: unless it is suspended, the
	 * pipelined requests of the same pool, then the hand-back to the wire's thread.
	 * @param kept whether the connection may carry another request
	 * @param pool the pool of the exchange
	 */
	public void goOn(boolean kept, String pool) {
		if (this.exchange.suspended()) {
			suspended();
			return;
		}
		boolean keep = kept;
		HttpParseException invalid = null;
		for (int inline = 0; keep; inline++) {
			try {
				if (!this.reader.readAhead()) {
					break;
				}
			}
			catch (HttpParseException ex) {
				invalid = ex;
				break;
			}
			RequestHead head = this.reader.head();
			RouteMatch next = this.exchange.route(head);
			if (inline == MAX_INLINE || !next.pool().equals(pool)
					|| head.hasBody() && !head.expectContinue() && !this.reader.bodyBuffered()) {
				// the wire's thread dispatches it to its own pool, or reads the rest of its body first
				this.routed = next;
				break;
			}
			this.body.start(head);
			keep = run(head, this.reader.headNanos(), 0, next);
			if (this.exchange.suspended()) {
				suspended();
				return;
			}
		}
		complete(keep, invalid);
	}

	/**
	 * Ends a suspended exchange, on a worker of its pool, and goes on as after any exchange.
	 * @param pool the pool of the exchange
	 */
	public void endSuspended(String pool) {
		goOn(this.exchange.endSuspended(), pool);
	}

	/**
	 * The handler suspended the exchange and returned: the worker goes back to its pool, and
	 * the connection stays with the exchange (no read timeout) until it ends. An input buffer
	 * that nothing reads any more goes back to the wire meanwhile; the end comes through the
	 * wire ({@link Wire#resume}), after that.
	 */
	private void suspended() {
		if (this.body.finished() && !this.reader.hasInput()) {
			this.wire.execute(this.reader::releaseEmptyBuffer);
		}
	}

	/**
	 * Ends a turn with the connection: flushes the responses, gives the output buffer back and
	 * hands the connection back to the wire's thread. On the thread that ran the exchange.
	 * @param keep whether the connection carries another request
	 * @param invalid a pipelined request found malformed, answered once the connection is back
	 */
	private void complete(boolean keep, HttpParseException invalid) {
		boolean keepAlive = keep;
		this.wire.exchangeEnded();
		try {
			this.out.flush();
		}
		catch (IOException ex) {
			keepAlive = false;
			this.out.discard();
		}
		this.out.release();
		boolean kept = keepAlive;
		this.wire.execute(() -> afterExchange(kept, invalid));
	}

	/** The exchange's thread handed the connection back; the wire's own thread. */
	private void afterExchange(boolean keep, HttpParseException invalid) {
		if (this.phase == Phase.CLOSED) {
			// close() left the input buffer alone while the exchange used it
			this.reader.releaseInput();
			return;
		}
		this.keepAfterExchange = keep;
		this.invalidNext = invalid;
		this.phase = Phase.FLUSHING;
		if (!this.wire.hasPendingWrites()) {
			flushed();
		}
	}

	/**
	 * The response of the last exchange is written: reads the next request, or closes. The
	 * wire's own thread.
	 */
	public void flushed() {
		if (!this.keepAfterExchange) {
			// the client may still be sending (pipelined requests): closing with unread input
			// resets the connection, which can destroy the response before the client reads it
			this.phase = Phase.CLOSING;
			this.wire.closeAfterAnswer(this.out, false);
			this.reader.releaseInput();
			return;
		}
		// the worker has already started the next request and parsed what was buffered of it
		this.phase = Phase.READING;
		this.wire.readAgain();
		if (this.invalidNext != null) {
			HttpParseException invalid = this.invalidNext;
			this.invalidNext = null;
			refuse(invalid.status(), invalid.reason(), RequestEvent.INVALID);
		}
		else if (this.reader.headReady()) {
			headRead();
		}
		else {
			this.reader.releaseEmptyBuffer();
			if (this.reader.isIdle()) {
				goIdle();
			}
			else {
				this.deadline = this.wire.now() + this.config.headerTimeout().toNanos();
			}
		}
	}

	/** Answers a request the server refuses and closes after the answer. */
	private void refuse(Status status, String reason, String route) {
		this.exchange.refuse(status, reason, 0, this.reader.head(), route);
		closeAfterAnswer();
	}

	/** Sends the answer in the output, then closes once it is written and the client read it. */
	private void closeAfterAnswer() {
		this.phase = Phase.CLOSING;
		this.wire.closeAfterAnswer(this.out, true);
	}

	// ---- timeouts (the wire's own thread)

	/**
	 * Returns whether {@link #checkTimeout} has something to do while the connection reads: a
	 * cheap test, without side effects.
	 * @param now the time
	 * @return whether a deadline passed
	 */
	public boolean isDue(long now) {
		return this.bodyPending ? this.clock.waiting() && now - this.clock.deadline() >= 0
				: now - this.deadline >= 0;
	}

	/**
	 * Enforces the deadline of the request being read, or of the idle connection: 408 for a
	 * head or a body that did not arrive in time, a close for an idle connection. While the
	 * wire's thread is a worker of a starved pool ({@code blocking}), a head that began longer
	 * ago than the stall timeout is cut off too.
	 * @param now the time
	 */
	public void checkTimeout(long now) {
		if (this.phase != Phase.READING) {
			return;
		}
		if (this.bodyPending) {
			// a body read before its dispatch holds a worker only where the wire's thread is one
			long stall = this.wire.pinsWorker() ? this.wire.stallNanos(Route.DEFAULT_POOL, false) : Long.MAX_VALUE;
			BodyClock.Expiry expiry = this.clock.expiry(now, stall);
			if (expiry != BodyClock.Expiry.NONE) {
				bodyExpired(expiry);
				refuse(Status.REQUEST_TIMEOUT_408, Answers.lateBody(expiry).reason(), this.routed.route());
			}
			return;
		}
		if (now - this.deadline >= 0) {
			if (this.idle || this.reader.isIdle()) {
				this.wire.close();
			}
			else {
				this.context.registry().defended(Defence.SLOW_HEAD, false);
				refuse(Status.REQUEST_TIMEOUT_408, Answers.HEAD_TIMEOUT, RequestEvent.INVALID);
			}
			return;
		}
		if (!this.idle && !this.reader.isIdle() && this.wire.pinsWorker()) {
			long begun = this.deadline - this.config.headerTimeout().toNanos();
			if (now - begun >= this.wire.stallNanos(Route.DEFAULT_POOL, false)) {
				this.context.registry().defended(Defence.SLOW_HEAD, true);
				refuse(Status.REQUEST_TIMEOUT_408, Answers.STALLED, RequestEvent.INVALID);
			}
		}
	}

	// ---- slow clients (any thread)

	/**
	 * Returns the longest the client may keep the exchange's worker waiting now.
	 * @param inExchange whether the wait is inside the exchange
	 * @return the stall timeout while a pool whose worker waits is starved, else
	 * {@link Long#MAX_VALUE}
	 */
	long stallNanos(boolean inExchange) {
		return this.wire.stallNanos(this.workerPool, inExchange);
	}

	/**
	 * Returns the pool whose worker runs, or last ran, the connection's exchange.
	 * @return the pool's name, or {@code null} before the first exchange
	 */
	public String workerPool() {
		return this.workerPool;
	}

	/**
	 * Counts a body that kept the server waiting too long.
	 * @param expiry what ended it
	 */
	void bodyExpired(BodyClock.Expiry expiry) {
		this.context.registry().defended(Defence.SLOW_BODY, expiry == BodyClock.Expiry.STALL);
	}

	/**
	 * A non-blocking reader's wait for more of the body ran out, by the wire's account: unless
	 * bytes came meanwhile and it waits anew, the body fails and the reader is to be called
	 * back. The wire's own thread.
	 * @param now the time
	 * @return the deadline of a new wait, or 0 when the body failed
	 */
	public long nonBlockingReadExpired(long now) {
		BodyClock.Expiry expiry = this.clock.expiry(now, Long.MAX_VALUE);
		if (expiry == BodyClock.Expiry.NONE) {
			return this.clock.waiting() ? this.clock.deadline() : Long.MAX_VALUE;
		}
		bodyExpired(expiry);
		this.body.timeOut(expiry);
		return 0;
	}

	/**
	 * Starts the wait of a non-blocking reader for more of the body.
	 * @return when it ends by the body's limits
	 */
	public long nonBlockingReadWait() {
		return this.clock.startWait(System.nanoTime());
	}

	/**
	 * Reads the body for a non-blocking reader, waiting, on the wire's own thread: how the socket
	 * models emulate readiness.
	 */
	public void fetchBody() {
		this.body.fetch();
	}

	/** Flushes the output, before a wait for the client; the thread that owns it. */
	void flush() throws IOException {
		this.out.flush();
	}

	// ---- life cycle (the wire's own thread)

	private void setIdle(boolean idle) {
		if (this.idle != idle) {
			this.idle = idle;
			this.wire.idle(idle);
		}
	}

	/**
	 * The wire closed the connection: a suspended exchange is told; a buffer nobody uses goes
	 * back.
	 * @return whether an exchange had the connection when it closed
	 */
	public boolean closed() {
		if (this.phase == Phase.CLOSED) {
			return false;
		}
		boolean dispatched = this.phase == Phase.DISPATCHED;
		this.phase = Phase.CLOSED;
		setIdle(false);
		if (dispatched) {
			// a suspended exchange learns it here; its worker (or its end) releases the input
			this.exchange.connectionClosed(false);
		}
		else {
			// a worker may be parsing ahead in it; afterExchange releases it then
			this.reader.releaseInput();
		}
		return dispatched;
	}

	/**
	 * An exchange's worker failed with the connection and left it: closes it, and releases the
	 * input that the worker no longer uses.
	 */
	public void abandoned() {
		this.wire.close();
		this.reader.releaseInput();
	}

	/** Gives up a suspended exchange whose end cannot run: the wire closes the connection. */
	public void abandonSuspended() {
		this.exchange.abandonSuspended();
		this.out.discard();
		this.out.release();
		this.reader.releaseInput();
	}

	/** Throws away the output of an exchange whose thread failed. */
	public void discardOutput() {
		this.out.discard();
		this.out.release();
	}

}
