package dev.ariadne.server.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;

import javax.net.ssl.SSLSession;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.Status;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.BodyClock;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.HttpExchange;
import dev.ariadne.server.routing.RouteMatch;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.RequestEvent;

/**
 * HTTP/1.1 on a connection, the same in every I/O model: heads parsed on the wire's own thread
 * as bytes arrive, the rest of a body that fits the input buffer read there too before the
 * request is dispatched (a body arriving slowly then holds a buffer, not a worker), each request
 * sent to its pool through the model's entry ({@link Http1Dispatch}); pipelined requests of the
 * same pool run by the thread that ran the exchange before it ({@link Http1Exchanges}), and the
 * connection handed back to the wire's thread once an exchange ends ({@link Wire#execute});
 * persistence, refusals, and the timeouts of heads, bodies and idle connections
 * ({@link Http1Deadlines}).
 *
 * <p>Thread ownership: the wire's own thread (a selector, or the connection's thread) calls
 * {@link #onInput}, {@link #checkTimeout} and the rest of the reading side; once a head is
 * complete, the thread that runs the exchange owns the exchange, the output, and the input and
 * reader (to read the body as the handler asks for it, and to parse pipelined requests ahead),
 * until it hands the connection back. In the socket models the two are one thread.
 */
public final class Http1Protocol implements Protocol, HostedExchange {

	private final Wire wire;

	private final ConnectionContext context;

	private final ConnectionOutput out;

	private final Http1Reader reader;

	private final Http1Deadlines deadlines;

	private final Http1Body body;

	private final HttpExchange exchange;

	private final Http1Exchanges exchanges;

	// ---- the wire's own thread only

	private Phase phase = Phase.READING;

	private boolean keepAfterExchange;

	/** A pipelined request the worker found malformed, answered once the connection is back. */
	private HttpParseException invalidNext;

	/** ALPN's h2, the h2c preface or an h2c upgrade: what hands the connection to HTTP/2. */
	private final Http2Handover http2;

	private final Http1Dispatch dispatch;

	/**
	 * Creates the protocol of a connection.
	 * @param wire the connection's transport
	 */
	public Http1Protocol(Wire wire) {
		this.wire = wire;
		this.context = wire.context();
		ServerConfig config = this.context.config();
		this.out = new ConnectionOutput(wire.transmitter(), this.context.outputBuffers());
		this.reader = new Http1Reader(config, wire);
		BodyClock clock = new BodyClock(config);
		this.deadlines = new Http1Deadlines(wire, config, clock);
		this.body = new Http1Body(this, wire, this.reader, clock);
		this.exchange = new HttpExchange(this.context, this.out, wire.remoteAddress(), wire.localAddress(),
				wire::releaseConnection, wire.host(this));
		this.exchanges = new Http1Exchanges(this, wire, this.reader, this.body, this.exchange, this.out);
		this.http2 = new Http2Handover(wire, config, this.reader, this.out, this::handingOver);
		this.dispatch = new Http1Dispatch(this, wire, this.reader, this.deadlines, this.body, this.exchange,
				this.exchanges, this.http2);
	}

	// ---- what the wire asks

	@Override
	public String name() {
		Http1Tunnel tunnel = this.body.tunnelled();
		return (tunnel != null) ? tunnel.protocol() : "http/1.1";
	}

	@Override
	public Phase phase() {
		return this.phase;
	}

	@Override
	public ConnectionOutput out() {
		return this.out;
	}

	@Override
	public boolean isIdle() {
		return this.deadlines.isIdle();
	}

	@Override
	public long readDeadline() {
		return this.deadlines.readDeadline();
	}

	@Override
	public boolean inExchange() {
		return this.exchanges.inExchange();
	}

	@Override
	public boolean holdsInput() {
		return this.reader.holdsBuffer();
	}

	// ---- the reading side (the wire's own thread)

	/**
	 * The connection is registered: it is idle until its first bytes, within a deadline.
	 * @param deadline the {@link System#nanoTime()} by which the first request must begin
	 * @param waitedNanos how long the connection waited for a worker before it was served
	 * ({@code blocking}), counted with its first request's wait; else 0
	 */
	@Override
	public void start(long deadline, long waitedNanos) {
		this.deadlines.start(deadline);
		this.exchanges.waitedForWorker(waitedNanos);
	}

	@Override
	public void handshaken(SSLSession session) {
		this.http2.handshaken();
		this.deadlines.awaitHead();
		this.exchange.tlsSession(session);
	}

	@Override
	public void takeOver(ByteBuffer unread) {
		SSLSession session = this.wire.tlsSession();
		if (session != null) {
			this.exchange.tlsSession(session);
		}
		start(this.wire.now() + this.context.config().headerTimeout().toNanos(), 0);
		if (unread == null) {
			return;
		}
		this.reader.adopt(unread);
		if (unread.hasRemaining()) {
			onInput(unread.remaining());
		}
		else {
			this.reader.releaseEmptyBuffer();
		}
	}

	@Override
	public void reject(String reason, int retryAfterSeconds) throws IOException {
		this.exchange.refuse(Status.SERVICE_UNAVAILABLE_503, reason, retryAfterSeconds, null, RequestEvent.REJECTED);
		this.out.flush();
	}

	@Override
	public int fill(long until) throws IOException {
		return this.reader.fill(until);
	}

	@Override
	public boolean borrowInput() {
		if (!this.reader.borrowBuffer()) {
			return false;
		}
		this.deadlines.bufferBorrowed();
		return true;
	}

	@Override
	public void awaitingInputBuffer() {
		this.deadlines.awaitingBuffer();
	}

	@Override
	public void releaseEmptyInput() {
		this.reader.releaseEmptyBuffer();
	}

	@Override
	public void parkIdleInput() {
		Http1Tunnel tunnel = this.body.tunnelled();
		if (tunnel != null) {
			tunnel.park();
		}
	}

	@Override
	public boolean unparkInput() {
		Http1Tunnel tunnel = this.body.tunnelled();
		return tunnel == null || tunnel.unpark();
	}

	@Override
	public void onInput(int read) {
		this.deadlines.input(read);
		processInput();
	}

	/** The client sent plaintext HTTP to a TLS port: 400, saying so, then close. */
	@Override
	public void plaintextOnTls() {
		this.deadlines.active();
		refuse(Status.BAD_REQUEST_400, Answers.TLS_REQUIRED, RequestEvent.INVALID);
	}

	/** Parses what is buffered; dispatches a complete request. */
	private void processInput() {
		if (this.http2.start() != Http2Handover.Start.HTTP_1_1) {
			return;
		}
		try {
			if (this.deadlines.bodyAhead() || this.reader.read()) {
				this.dispatch.headRead();
				return;
			}
		}
		catch (HttpParseException ex) {
			refuse(ex.status(), ex.reason(), RequestEvent.INVALID);
			return;
		}
		this.reader.releaseEmptyBuffer();
		if (this.reader.isIdle() && !this.deadlines.isIdle()) {
			goIdle();
		}
	}

	/** The connection goes to HTTP/2: this side stops reading it. */
	private void handingOver() {
		this.phase = Phase.CLOSED;
		this.deadlines.active();
	}

	private void goIdle() {
		if (this.context.registry().shuttingDown()) {
			this.wire.close();
			return;
		}
		this.deadlines.awaitRequest();
	}

	@Override
	public void endSuspended(String pool) {
		this.exchanges.goOn(this.exchange.endSuspended(), pool);
	}

	/**
	 * The exchange's thread parsed the next request ahead and leaves it to the wire's thread:
	 * for its own pool, or for the rest of its body. Ordered before the wire's thread reads it
	 * by the hand-back.
	 * @param match the request's route, dispatched once
	 */
	void readAhead(RouteMatch match) {
		this.dispatch.readAhead(match);
	}

	/**
	 * The exchange's thread handed the connection back; the wire's own thread.
	 * @param keep whether the connection carries another request
	 * @param invalid a pipelined request found malformed, to answer now
	 */
	void afterExchange(boolean keep, HttpParseException invalid) {
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
	@Override
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
			this.dispatch.headRead();
		}
		else {
			this.reader.releaseEmptyBuffer();
			if (this.reader.isIdle()) {
				goIdle();
			}
			else {
				this.deadlines.awaitHead();
			}
		}
	}

	/** Answers a request the server refuses and closes after the answer. */
	private void refuse(Status status, String reason, String route) {
		this.exchange.refuse(status, reason, 0, this.reader.head(), route);
		closeAfterAnswer();
	}

	/** The request goes to its pool: the thread that runs it owns the connection until it hands it back. */
	void dispatching() {
		this.phase = Phase.DISPATCHED;
	}

	/** Sends the answer in the output, then closes once it is written and the client read it. */
	void closeAfterAnswer() {
		this.phase = Phase.CLOSING;
		this.wire.closeAfterAnswer(this.out, true);
	}

	// ---- timeouts (the wire's own thread)

	@Override
	public boolean isDue(long now) {
		return this.deadlines.isDue(now);
	}

	/**
	 * Enforces the deadline of the request being read, or of the idle connection: 408 for a
	 * head or a body that did not arrive in time, a close for an idle connection. While the
	 * wire's thread is a worker of a starved pool ({@code blocking}), a head that began longer
	 * ago than the stall timeout is cut off too.
	 * @param now the time
	 */
	@Override
	public void checkTimeout(long now) {
		if (this.phase != Phase.READING) {
			return;
		}
		if (this.deadlines.bodyAhead()) {
			BodyClock.Expiry expiry = this.deadlines.bodyExpiry(now);
			if (expiry != BodyClock.Expiry.NONE) {
				this.body.expired(expiry);
				refuse(Status.REQUEST_TIMEOUT_408, Answers.lateBody(expiry).reason(), this.dispatch.routed().route());
			}
			return;
		}
		Http1Deadlines.Due due = this.deadlines.due(now, this.reader.isIdle());
		if (due == Http1Deadlines.Due.CLOSE) {
			this.wire.close();
		}
		else if (due != Http1Deadlines.Due.NONE) {
			this.context.registry().defended(Defence.SLOW_HEAD, due.lowResources());
			refuse(Status.REQUEST_TIMEOUT_408, due.reason(), RequestEvent.INVALID);
		}
	}

	/** An HTTP/1.1 connection between requests is closed without a word. */
	@Override
	public void goAway() {
	}

	@Override
	public boolean saysGoodbye() {
		return false;
	}

	// ---- slow clients (any thread)

	@Override
	public String workerPool() {
		return this.exchanges.workerPool();
	}

	@Override
	public boolean nonBlockingReadExpired(long now) {
		return this.body.nonBlockingReadExpired(now);
	}

	@Override
	public long nonBlockingReadDeadline() {
		return this.body.nonBlockingReadDeadline();
	}

	@Override
	public long nonBlockingReadWait() {
		return this.body.nonBlockingReadWait();
	}

	@Override
	public void fetchBody() {
		this.body.fetch();
	}

	// ---- life cycle (the wire's own thread)

	/**
	 * The wire closed the connection: a suspended exchange is told; a buffer nobody uses goes
	 * back.
	 */
	@Override
	public void closed() {
		if (this.phase == Phase.CLOSED) {
			return;
		}
		boolean dispatched = this.phase == Phase.DISPATCHED;
		this.phase = Phase.CLOSED;
		Http1Tunnel tunnel = this.body.tunnelled();
		if (tunnel != null) {
			tunnel.closed();
		}
		this.deadlines.active();
		if (dispatched) {
			// a suspended exchange learns it here; its worker (or its end) releases the input
			this.exchange.connectionClosed(false);
		}
		else {
			// a worker may be parsing ahead in it; afterExchange releases it then
			this.reader.releaseInput();
		}
	}

	@Override
	public void abandoned() {
		this.wire.close();
		this.reader.releaseInput();
	}

	@Override
	public void abort(boolean beforePoolsStop) {
		this.exchange.connectionClosed(beforePoolsStop);
	}

	@Override
	public void taskRefused() {
		this.exchange.taskRefused();
	}

	/** Gives up a suspended exchange whose end cannot run: the wire closes the connection. */
	@Override
	public void abandonSuspended() {
		this.exchange.abandonSuspended();
		discardOutput();
		this.reader.releaseInput();
	}

	/** Throws away the output of an exchange whose thread failed. */
	public void discardOutput() {
		this.out.discard();
		this.out.release();
	}

}
