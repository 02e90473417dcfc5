package dev.ariadne.server.protocol;

import dev.ariadne.http.RequestHead;
import dev.ariadne.server.connection.HttpExchange;
import dev.ariadne.server.routing.RouteMatch;

/**
 * An HTTP/1.1 request's way from its read head to its pool, on the wire's own thread: an
 * {@code Upgrade: h2c} handed to HTTP/2; the rest of a body that fits the input buffer read
 * first (a body arriving slowly then holds a buffer, not a worker); the request routed once and
 * sent through the model's entry. The route of a request the exchange's thread parsed ahead waits
 * here for its dispatch too.
 */
final class Http1Dispatch {

	private final Http1Protocol protocol;

	private final Wire wire;

	private final Http1Reader reader;

	private final Http1Deadlines deadlines;

	private final Http1Body body;

	private final HttpExchange exchange;

	private final Http1Exchanges exchanges;

	private final Http2Handover http2;

	/** The route of a request read ahead or waiting for its body, dispatched once. */
	private RouteMatch routed;

	Http1Dispatch(Http1Protocol protocol, Wire wire, Http1Reader reader, Http1Deadlines deadlines, Http1Body body,
			HttpExchange exchange, Http1Exchanges exchanges, Http2Handover http2) {
		this.protocol = protocol;
		this.wire = wire;
		this.reader = reader;
		this.deadlines = deadlines;
		this.body = body;
		this.exchange = exchange;
		this.exchanges = exchanges;
		this.http2 = http2;
	}

	/**
	 * A request's head is read (and perhaps some of its body): reads the rest of a body that
	 * fits the input buffer on the wire's thread first, then dispatches the request. A request
	 * that expects {@code 100 Continue} goes at once: its handler decides whether it wants the
	 * body.
	 */
	void headRead() {
		RequestHead head = this.reader.head();
		if (this.http2.upgrade(head)) {
			return;
		}
		boolean ahead = this.deadlines.bodyAhead();
		if (!ahead) {
			this.body.start(head);
		}
		if (head.hasBody() && !head.expectContinue() && !this.reader.bodyBuffered() && !this.reader.bufferFull()) {
			if (!ahead && this.routed == null) {
				// routed once, here: a refusal of the body names the route
				this.routed = this.exchange.route(head);
			}
			this.deadlines.awaitBody();
			this.reader.releaseEmptyBuffer();
			return;
		}
		this.deadlines.bodyRead();
		dispatch();
	}

	/** Sends the complete request to its pool. */
	private void dispatch() {
		this.protocol.dispatching();
		RequestHead head = this.reader.head();
		long start = this.reader.headNanos();
		long dispatched = this.wire.now();
		// routed once: here, or on the worker that parsed it ahead and left it for its own pool
		RouteMatch match = (this.routed != null) ? this.routed : this.exchange.route(head);
		this.routed = null;
		if (!this.exchange.dispatch(head, match, this.wire.entry(),
				this.exchanges.dispatched(head, start, dispatched, match))) {
			this.protocol.closeAfterAnswer();
		}
	}

	/**
	 * Keeps the route of the request the exchange's thread parsed ahead, for its dispatch.
	 * @param match the route
	 */
	void readAhead(RouteMatch match) {
		this.routed = match;
	}

	/**
	 * Returns the route of the request whose body is read before its dispatch.
	 * @return the route, while the body is awaited
	 */
	RouteMatch routed() {
		return this.routed;
	}

}
