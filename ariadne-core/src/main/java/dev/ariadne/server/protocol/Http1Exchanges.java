package dev.ariadne.server.protocol;

import java.io.IOException;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.HttpExchange;
import dev.ariadne.server.routing.RouteMatch;

/**
 * What the thread that runs an HTTP/1.1 exchange does with the connection, the same in every
 * model: the exchange; then, while the connection stays open, the pipelined requests already
 * buffered that belong to the same pool, so that their responses leave in one write and the
 * connection does not go back and forth to the wire's thread per request; then the flush and
 * the hand-back to the wire's thread ({@link Wire#execute}). The end of a suspended exchange
 * goes on from here too, on a worker of its pool.
 *
 * <p>Thread ownership: the thread running the exchange owns the exchange, the output, the input
 * and the reader until it hands the connection back; it reads nothing from the connection but
 * the bodies. {@link #workerPool()} and {@link #inExchange()} are read by any thread: a body's
 * wait, the watchdog, the write queue's stall limit.
 */
final class Http1Exchanges {

	/** Most pipelined requests one worker runs in a row before handing the connection back. */
	private static final int MAX_INLINE = 64;

	private final Http1Protocol protocol;

	private final Wire wire;

	private final Http1Reader reader;

	private final Http1Body body;

	private final HttpExchange exchange;

	private final ConnectionOutput out;

	/** The pool whose worker runs (or last ran) the connection's exchange; any thread reads it. */
	private volatile String workerPool;

	/** Whether a thread runs the current exchange's handler. */
	private volatile boolean inExchange;

	/**
	 * How long the connection waited for a worker before its first request ({@code blocking}),
	 * counted with that request's wait.
	 */
	private long connectionWait;

	Http1Exchanges(Http1Protocol protocol, Wire wire, Http1Reader reader, Http1Body body, HttpExchange exchange,
			ConnectionOutput out) {
		this.protocol = protocol;
		this.wire = wire;
		this.reader = reader;
		this.body = body;
		this.exchange = exchange;
		this.out = out;
	}

	/**
	 * Counts how long the connection waited for a worker, with its first request's wait.
	 * @param nanos the time waited
	 */
	void waitedForWorker(long nanos) {
		this.connectionWait = nanos;
	}

	/**
	 * Returns the pool whose worker runs, or last ran, the connection's exchange.
	 * @return the pool's name, or {@code null} before the first exchange
	 */
	String workerPool() {
		return this.workerPool;
	}

	/**
	 * Returns whether a thread runs the current exchange's handler now.
	 * @return whether inside an exchange
	 */
	boolean inExchange() {
		return this.inExchange;
	}

	/**
	 * Returns what the request's pool runs for a dispatched request; the wire's own thread.
	 * @param head the request's head
	 * @param start when its head was complete
	 * @param dispatched when it was dispatched
	 * @param match its route
	 * @return the task
	 */
	Runnable dispatched(RequestHead head, long start, long dispatched, RouteMatch match) {
		this.workerPool = match.pool();
		return () -> runDispatched(head, start, dispatched, match);
	}

	private void runDispatched(RequestHead head, long start, long dispatched, RouteMatch match) {
		try {
			long waited = this.connectionWait + (System.nanoTime() - dispatched);
			this.connectionWait = 0;
			boolean keep = run(head, start, waited, match);
			goOn(keep, match.pool());
		}
		catch (Throwable ex) {
			// an Error in the server's own code (out of memory): the connection must not stay
			// dispatched for ever; the wire closes it
			this.protocol.discardOutput();
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
			// a handler that left its interrupt status set must not cost the connection: a
			// channel closes when a thread blocked in it is interrupted
			Thread.interrupted();
		}
	}

	/**
	 * After an exchange, on the thread that ran or ended it: unless it is suspended, the
	 * pipelined requests of the same pool, then the hand-back to the wire's thread.
	 * @param kept whether the connection may carry another request
	 * @param pool the pool of the exchange
	 */
	void goOn(boolean kept, String pool) {
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
				this.protocol.readAhead(next);
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
	 * The handler suspended the exchange and returned: the worker goes back to its pool, and
	 * the connection stays with the exchange (no read timeout) until it ends. An input buffer
	 * that nothing reads any more goes back to the wire meanwhile; the end comes through the
	 * wire's host ({@link dev.ariadne.server.connection.AsyncHost#resume}), after that.
	 */
	private void suspended() {
		if (this.body.finished() && !this.reader.hasInput()) {
			this.wire.execute(this.reader::releaseEmptyBuffer);
		}
	}

	/**
	 * Ends a turn with the connection: flushes the responses, gives the output buffer back and
	 * hands the connection back to the wire's thread.
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
		this.wire.execute(() -> this.protocol.afterExchange(kept, invalid));
	}

}
