package dev.ariadne.server.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Headers;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Status;
import dev.ariadne.http2.ErrorCode;
import dev.ariadne.server.connection.AsyncHost;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.HttpExchange;
import dev.ariadne.server.connection.ResponseEncoder;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.routing.RouteMatch;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.RejectReason;

/**
 * One HTTP/2 stream as an exchange: the same {@link HttpExchange} steps as an HTTP/1.1 request
 * (route, the model's pool entry, the handler, the refusals), its content from
 * {@link Http2StreamBody}, and its response framed on the stream: this class is the exchange's
 * {@link ResponseEncoder} ({@code HEADERS}, then {@code DATA} within the flow-control windows,
 * waiting for credit at most the write timeout) and its {@link AsyncHost} (a suspended exchange's
 * tasks dispatched as the stream was, through {@link Wire#fork}).
 *
 * <p>Thread ownership: made on the wire's thread; the exchange, the encoding and the end on the
 * thread the model runs it on; what the wire's thread tells it ({@link #resetBy}) under the
 * protocol's lock.
 */
final class Http2Stream implements ResponseEncoder, HostedExchange, AsyncHost {

	private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

	/** How often a writer waiting for the client looks again at its limit: the pool may become starved. */
	static final long RECHECK_NANOS = 100_000_000L;

	private final Http2Protocol protocol;

	private final int id;

	private final RequestHead head;

	private final Http2StreamBody body;

	private final long startNanos;

	private final HttpExchange exchange;

	private RouteMatch match;

	/** Whether the handler's turn came (past the model's entry); written once, read by a scrape. */
	private volatile boolean started;

	/** Whether the writer waits for the client's credit or reading; under the lock. */
	private boolean waitingForClient;

	// ---- the response, on the exchange's thread

	private Framing framing;

	private long length;

	private long written;

	/** Whether the stream's end went out with the last frame; set under the lock. */
	private boolean endSent;

	/**
	 * Why the stream ended abnormally, {@code null} while it goes on: written under the lock, read
	 * without it where a stale {@code null} only lets the exchange find out later.
	 */
	private volatile ErrorCode resetBy;

	Http2Stream(Http2Protocol protocol, int id, RequestHead head, boolean endStream, long startNanos) {
		this.protocol = protocol;
		this.id = id;
		this.head = head;
		this.startNanos = startNanos;
		this.body = new Http2StreamBody(protocol, id, endStream);
		Wire wire = protocol.wire;
		// the output a suspended exchange's writes would go through: its content goes on the stream
		ConnectionOutput out = new ConnectionOutput(this::content, protocol.context.outputBuffers());
		// a stream carries one request: nothing of its body is drained, no connection is kept
		this.exchange = new HttpExchange(protocol.context, out, this, wire.remoteAddress(), wire.localAddress(),
				() -> true, this);
		this.exchange.tlsSession(wire.tlsSession());
		this.exchange.stream((wire.tlsSession() != null) ? "h2" : "h2c", id);
	}

	int id() {
		return this.id;
	}

	/**
	 * Returns whether the stream's exchange got its thread: until then it waits for a worker, a
	 * permit or a turn, and counts as queued.
	 * @return whether started
	 */
	boolean started() {
		return this.started;
	}

	Http2StreamBody body() {
		return this.body;
	}

	// ---- the exchange

	/** Routes the request and sends it to its pool; on the thread {@link Wire#fork} gave it. */
	void dispatch() {
		if (wasReset()) {
			// reset while it waited for a thread: nothing runs for it (Rapid Reset)
			finish();
			return;
		}
		this.match = this.exchange.route(this.head);
		long queued = System.nanoTime();
		boolean taken;
		try {
			taken = this.exchange.dispatch(this.head, this.match, this.protocol.wire.entry(), () -> run(queued));
		}
		catch (RuntimeException ex) {
			// the model's entry failed while waiting for a turn (an interrupt at shutdown)
			resetQuietly(ErrorCode.CANCEL);
			finish();
			throw ex;
		}
		if (!taken) {
			// the pool's 503 is framed
			finish();
		}
	}

	/** The stream's thread could not be had (the pool's queue is full): 503, on the wire's thread. */
	void refused() {
		this.exchange.dispatch(this.head, this.exchange.route(this.head),
				(routePool, exchange) -> RejectReason.QUEUE_FULL, () -> {
				});
	}

	private void run(long queued) {
		this.started = true;
		if (wasReset() || this.protocol.streams.refusedWhileClientHoldsWorkers(this, this.match.pool())) {
			// reset while it waited for a worker: its handler does not run
			finish();
			return;
		}
		this.exchange.run(this.head, this.body, this.startNanos, System.nanoTime() - queued, this.match);
		if (!this.exchange.suspended()) {
			finish();
		}
	}

	/**
	 * Returns whether the stream's writer waits for the client now: for credit, or for it to
	 * read what was written.
	 * @return whether waiting; under the lock
	 */
	boolean waitingForClient() {
		return this.waitingForClient;
	}

	void waitingForClient(boolean waiting) {
		this.waitingForClient = waiting;
	}

	/**
	 * The exchange ended: a response that did not end its stream resets it (a failure after the
	 * head, a short body), as does one that left request content unread (RFC 9113 §8.1).
	 */
	private void finish() {
		boolean framed;
		this.protocol.lock.lock();
		try {
			if (this.resetBy == null) {
				if (!this.endSent) {
					this.protocol.session.reset(this.id, ErrorCode.INTERNAL_ERROR);
				}
				else if (!this.body.finished()) {
					this.protocol.session.reset(this.id, ErrorCode.NO_ERROR);
				}
			}
			// forgotten first, so that no more content is kept for it, then its content goes
			this.protocol.ended(this);
			this.body.releaseHeld();
			// whoever frames writes: left to this stream only what it framed, or what a writer
			// that holds the turn has yet to take
			framed = this.protocol.session.hasOutput();
		}
		finally {
			this.protocol.lock.unlock();
		}
		if (framed) {
			flushQuietly();
		}
	}

	private boolean wasReset() {
		return this.resetBy != null;
	}

	/** Writes what is framed; a failed connection is found closed by the end of the exchange. */
	private void flushQuietly() {
		try {
			this.protocol.output.flush();
		}
		catch (IOException ex) {
			// the connection failed: its wire closes it
		}
	}

	/** The client reset the stream, or the connection closes; under the lock. */
	void resetBy(ErrorCode error) {
		if (this.resetBy == null) {
			this.resetBy = error;
			this.body.failed("The stream was reset (" + error + ")");
			this.exchange.connectionClosed(false);
		}
	}

	/** Resets the stream from the server's side, unless it was reset already. */
	void resetQuietly(ErrorCode error) {
		this.protocol.lock.lock();
		try {
			if (this.resetBy == null) {
				this.resetBy = error;
				this.protocol.session.reset(this.id, error);
			}
		}
		finally {
			this.protocol.lock.unlock();
		}
	}

	// ---- the encoder (the exchange's thread)

	@Override
	public void head(Status status, Headers headers, Framing framing, long length, boolean keepAlive,
			boolean headRequest) {
		this.framing = framing;
		this.length = length;
		this.written = 0;
		Headers fields = new Headers();
		for (int i = 0; i < headers.size(); i++) {
			String name = headers.name(i);
			if (!name.equalsIgnoreCase(HeaderName.CONTENT_LENGTH) && !name.equalsIgnoreCase(HeaderName.DATE)) {
				fields.add(name, headers.value(i));
			}
		}
		fields.add(HeaderName.DATE, this.protocol.context.clock().value());
		if (framing == Framing.LENGTH) {
			fields.add(HeaderName.CONTENT_LENGTH, Long.toString(length));
		}
		boolean end = framing == Framing.NONE || headRequest || (framing == Framing.LENGTH && length == 0);
		writeHeaders(status.code(), fields, end);
	}

	private void writeHeaders(int status, Headers fields, boolean end) {
		this.protocol.lock.lock();
		try {
			if (this.resetBy == null && this.protocol.session.writeHeaders(this.id, status, fields, end)) {
				this.endSent = end;
			}
		}
		finally {
			this.protocol.lock.unlock();
		}
		if (end) {
			flushQuietly();
		}
	}

	@Override
	public void content(byte[] bytes, int offset, int length) throws IOException {
		boolean last = this.framing == Framing.LENGTH && this.written + length == this.length;
		this.written += length;
		writeData(ByteBuffer.wrap(bytes, offset, length), last);
	}

	@Override
	public void flush() throws IOException {
		this.protocol.output.flush();
	}

	@Override
	public void end(Headers trailers) throws IOException {
		if (trailers == null || trailers.isEmpty()) {
			writeData(EMPTY.duplicate(), true);
			return;
		}
		this.protocol.lock.lock();
		try {
			if (this.resetBy != null) {
				throw new IOException("The stream was reset (" + this.resetBy + ")");
			}
			if (!this.protocol.session.writeTrailers(this.id, trailers)) {
				throw new IOException("The stream can no longer be written");
			}
			this.endSent = true;
		}
		finally {
			this.protocol.lock.unlock();
		}
		this.protocol.output.flush();
	}

	/**
	 * Frames content within the windows, waiting for credit and for the output to drain (each at
	 * most {@link #waitLimit}), and writes it.
	 */
	private void writeData(ByteBuffer content, boolean last) throws IOException {
		long start = System.nanoTime();
		while (true) {
			boolean room;
			this.protocol.lock.lock();
			try {
				if (this.resetBy != null) {
					throw new IOException("The stream was reset (" + this.resetBy + ")");
				}
				// looked at under the same lock as the framing: one lock for a response that fits
				room = this.protocol.session.pendingOutput() < Http2Protocol.OUTPUT_HIGH;
				if (room) {
					int queued = this.protocol.session.writeData(this.id, content, last);
					if (queued < 0) {
						throw new IOException("The stream can no longer be written");
					}
					if (!content.hasRemaining()) {
						this.endSent = last;
					}
					else if (queued == 0) {
						awaitCredit(start);
						continue;
					}
				}
			}
			finally {
				this.protocol.lock.unlock();
			}
			if (!room) {
				this.protocol.output.awaitOutputRoom(this);
				continue;
			}
			this.protocol.output.flush();
			if (!content.hasRemaining()) {
				return;
			}
		}
	}

	/**
	 * Returns when a wait for the client that began at {@code start} ends: after
	 * {@code http2.write-timeout}, or after the low-resources stall timeout while the stream's
	 * pool is starved (a client that reads slowly then gives back the worker it holds). Asked
	 * again as the wait goes on, since the pool may become starved meanwhile.
	 * @param start when the wait began
	 * @return the {@link System#nanoTime()} at which it ends
	 */
	long waitLimit(long start) {
		long limit = start + this.protocol.writeTimeoutNanos;
		RouteMatch routed = this.match;
		long stall = this.protocol.wire.stallNanos((routed != null) ? routed.pool() : Route.DEFAULT_POOL, true);
		return (stall == Long.MAX_VALUE) ? limit : Math.min(limit, start + stall);
	}

	/** Waits, holding the lock, for flow-control credit; resets the stream when none comes in time. */
	private void awaitCredit(long start) throws IOException {
		this.waitingForClient = true;
		try {
			while (this.protocol.session.writable(this.id) == 0 && this.resetBy == null) {
				long limit = waitLimit(start);
				long left = limit - System.nanoTime();
				if (left <= 0) {
					this.resetBy = ErrorCode.CANCEL;
					this.protocol.session.reset(this.id, ErrorCode.CANCEL);
					boolean lowResources = limit - start < this.protocol.writeTimeoutNanos;
					if (lowResources) {
						this.protocol.streams.cutSlowReader();
					}
					else {
						this.protocol.context.registry().defended(Defence.SLOW_READER, false);
					}
					throw new IOException("The client gave no flow-control credit within "
							+ (lowResources ? "the low-resources stall timeout" : "the write timeout"));
				}
				this.protocol.changed.awaitNanos(Math.min(left, RECHECK_NANOS));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while waiting for flow-control credit", ex);
		}
		finally {
			this.waitingForClient = false;
		}
	}

	@Override
	public void answer(Status status, String reason, int retryAfterSeconds, boolean headRequest) {
		byte[] text = (reason + "\n").getBytes(StandardCharsets.UTF_8);
		Headers fields = new Headers().add(HeaderName.CONTENT_TYPE, "text/plain; charset=utf-8")
			.add(HeaderName.DATE, this.protocol.context.clock().value())
			.add(HeaderName.CONTENT_LENGTH, Integer.toString(text.length));
		if (retryAfterSeconds > 0) {
			fields.add("retry-after", Integer.toString(retryAfterSeconds));
		}
		this.framing = Framing.LENGTH;
		this.protocol.lock.lock();
		try {
			if (this.resetBy == null && this.protocol.session.writeHeaders(this.id, status.code(), fields, headRequest)) {
				// small enough for the smallest window a client starts with; what does not fit is cut
				this.endSent = headRequest || this.protocol.session.writeData(this.id, ByteBuffer.wrap(text), true) == text.length;
			}
		}
		finally {
			this.protocol.lock.unlock();
		}
		flushQuietly();
	}

	// ---- a suspended exchange (HostedExchange, AsyncHost)

	@Override
	public boolean execute(TaskPool routePool, Runnable task) {
		return this.protocol.wire.fork(() -> {
			if (this.protocol.wire.entry().enter(routePool, task) != null) {
				this.exchange.taskRefused();
			}
		});
	}

	@Override
	public void resume(TaskPool routePool) {
		if (!execute(routePool, () -> endSuspended(null))) {
			abandonSuspended();
		}
	}

	@Override
	public void awaitReadable(TaskPool routePool, Runnable task) {
		this.body.onReadable(() -> execute(routePool, task));
	}

	@Override
	public boolean writable(TaskPool routePool, Runnable task) {
		// a write waits for the stream's credit on the writer's thread
		return true;
	}

	@Override
	public void endSuspended(String pool) {
		this.exchange.endSuspended();
		finish();
	}

	@Override
	public void abandonSuspended() {
		this.exchange.abandonSuspended();
		resetQuietly(ErrorCode.CANCEL);
		finish();
	}

	@Override
	public void taskRefused() {
		this.exchange.taskRefused();
	}

	@Override
	public long nonBlockingReadWait() {
		return System.nanoTime() + this.protocol.context.config().headerTimeout().toNanos();
	}

	@Override
	public boolean nonBlockingReadExpired(long now) {
		return false;
	}

	@Override
	public long nonBlockingReadDeadline() {
		return 0;
	}

	@Override
	public void fetchBody() {
		// content arrives in frames, on the wire's thread: a non-blocking reader is called back then
	}

}
