package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Arrays;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.RequestParser;
import dev.ariadne.http.RequestSink;
import dev.ariadne.http.Status;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.HttpExchange;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.connection.RequestBody;
import dev.ariadne.server.connection.TrackedConnection;
import dev.ariadne.server.routing.RouteMatch;
import dev.ariadne.server.stats.RequestEvent;

/**
 * One connection of the event-loop model, attached to its selection key.
 *
 * <p>Thread ownership: the selector thread owns the key, the input buffer, the parser and the
 * request being read; once a request is complete it is handed to a worker, which owns the
 * exchange and the {@link ConnectionOutput} until it hands the connection back with a selector
 * task. The write queue ({@code pending}) is shared and guarded by {@code lock}: whoever writes
 * holds it, so bytes leave in order whichever thread sends them. Reading stops while a request
 * is with a worker, so pipelined requests are answered in order and never buffered without
 * bound.
 */
final class EventLoopConnection implements RequestSink, TrackedConnection {

	private static final Logger logger = System.getLogger(EventLoopConnection.class.getName());

	/** Most bytes queued for a slow client before the writing worker waits. */
	static final int HIGH_WATER = 64 * 1024;

	private static final int INITIAL_BODY_BUFFER = 16 * 1024;

	/** Most pipelined requests one worker runs in a row before handing the connection back. */
	private static final int MAX_INLINE = 64;

	private enum Phase {

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

	private final SelectorLoop loop;

	private final SocketChannel channel;

	private final ConnectionContext context;

	private final ServerConfig config;

	private final PoolEntry<RuntimeException> entry;

	private final RequestParser parser;

	private final ConnectionOutput out;

	private final HttpExchange exchange;

	private final Object lock = new Object();

	// ---- selector thread only

	private SelectionKey key;

	private ByteBuffer in;

	private Phase phase = Phase.READING;

	private boolean idle;

	private long deadline;

	private boolean keepAfterExchange;

	/** A pipelined request the worker found malformed, answered once the connection is back. */
	private HttpParseException invalidNext;

	/** The route of a pipelined request the worker parsed ahead and left for its own pool. */
	private RouteMatch routed;

	/** Whether the parser runs on a worker (between pipelined exchanges) rather than the selector. */
	private boolean parsingOnWorker;

	private RequestHead head;

	private long headNanos;

	private byte[] body;

	private int bodyLength;

	private boolean messageDone;

	// ---- guarded by lock

	private final ArrayDeque<ByteBuffer> pending = new ArrayDeque<>();

	private int pendingBytes;

	private boolean writeInterest;

	private boolean closed;

	private long lastWriteNanos;

	EventLoopConnection(SelectorLoop loop, SocketChannel channel, ConnectionContext context,
			PoolEntry<RuntimeException> entry) throws IOException {
		this.loop = loop;
		this.channel = channel;
		this.context = context;
		this.config = context.config();
		this.entry = entry;
		this.parser = new RequestParser(this.config.limits(), this);
		this.out = new ConnectionOutput(this::transmit, context.outputBuffers());
		this.exchange = new HttpExchange(context, this.out, (InetSocketAddress) channel.getRemoteAddress(),
				(InetSocketAddress) channel.getLocalAddress(), () -> false);
	}

	/** Returns the selector loop that owns this connection. */
	SelectorLoop loop() {
		return this.loop;
	}

	/** Registers with the loop's selector; selector thread. */
	void register() {
		try {
			this.key = this.channel.register(this.loop.selector(), SelectionKey.OP_READ, this);
		}
		catch (IOException ex) {
			close();
			return;
		}
		if (this.context.registry().shuttingDown()) {
			close();
			return;
		}
		setIdle(true);
		this.deadline = this.loop.now() + this.config.headerTimeout().toNanos();
	}

	/** Handles readiness; selector thread. */
	void onSelected(SelectionKey key) {
		if (!key.isValid()) {
			close();
			return;
		}
		int ready = key.readyOps();
		if ((ready & SelectionKey.OP_WRITE) != 0) {
			onWritable();
		}
		if ((ready & SelectionKey.OP_READ) != 0) {
			if (this.phase == Phase.READING) {
				onReadable();
			}
			else if (this.phase == Phase.CLOSING) {
				discardInput();
			}
			else {
				// the client sent more while a worker has the connection (pipelining): stop
				// watching until resume(). Read interest is dropped only here, lazily, so the
				// usual request-response turn changes no interest at all (no epoll_ctl)
				key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
			}
		}
	}

	private void onReadable() {
		if (this.in == null) {
			this.in = this.loop.buffers().borrow();
		}
		ByteBuffer in = this.in;
		int read;
		try {
			in.compact();
			read = this.channel.read(in);
			in.flip();
		}
		catch (IOException ex) {
			close();
			return;
		}
		if (read < 0) {
			close();
			return;
		}
		if (read == 0) {
			releaseEmptyBuffer();
			return;
		}
		long now = this.loop.now();
		if (this.idle) {
			setIdle(false);
			this.deadline = now + this.config.headerTimeout().toNanos();
		}
		else if (this.head != null) {
			// a body arrives: the timeout bounds the gap between reads
			this.deadline = now + this.config.headerTimeout().toNanos();
		}
		processInput();
	}

	/** Parses what is buffered; dispatches a complete request. Selector thread. */
	private void processInput() {
		try {
			while (this.phase == Phase.READING && this.in != null && this.in.hasRemaining()) {
				if (this.parser.parse(this.in) && this.messageDone) {
					dispatch();
					return;
				}
			}
		}
		catch (HttpParseException ex) {
			refuse(ex.status(), ex.reason(), RequestEvent.INVALID);
			return;
		}
		if (this.phase == Phase.READING) {
			releaseEmptyBuffer();
			if (this.parser.isIdle() && this.head == null && !this.idle) {
				goIdle();
			}
		}
	}

	private void goIdle() {
		if (this.context.registry().shuttingDown()) {
			close();
			return;
		}
		setIdle(true);
		this.deadline = this.loop.now() + this.config.keepAliveTimeout().toNanos();
	}

	private void releaseInput() {
		if (this.in != null) {
			this.loop.buffers().release(this.in);
			this.in = null;
		}
	}

	private void releaseEmptyBuffer() {
		if (this.in != null && !this.in.hasRemaining()) {
			releaseInput();
		}
	}

	/** Sends the complete request to its pool; selector thread. */
	private void dispatch() {
		this.phase = Phase.DISPATCHED;
		RequestHead head = this.head;
		RequestBody body = requestBody();
		long start = this.headNanos;
		long dispatched = this.loop.now();
		// routed once: here, or on the worker that parsed it ahead and left it for its own pool
		RouteMatch match = (this.routed != null) ? this.routed : this.exchange.route(head);
		this.routed = null;
		if (!this.exchange.dispatch(head, match, this.entry,
				() -> runExchanges(head, body, start, dispatched, match))) {
			closeAfterAnswer();
		}
	}

	/**
	 * Runs on a worker of the request's pool: the exchange, then, while the connection stays
	 * open, the pipelined requests already buffered that belong to the same pool, so their
	 * responses leave in one write and the connection does not go back and forth to the
	 * selector per request. Reads nothing from the socket: the buffered input and the parser
	 * belong to this worker until it hands the connection back.
	 */
	private void runExchanges(RequestHead head, RequestBody body, long start, long dispatched, RouteMatch match) {
		boolean keep = this.exchange.run(head, body, start, System.nanoTime() - dispatched, match);
		HttpParseException invalid = null;
		for (int inline = 0; keep; inline++) {
			try {
				if (!parseAhead()) {
					break;
				}
			}
			catch (HttpParseException ex) {
				invalid = ex;
				break;
			}
			RouteMatch next = this.exchange.route(this.head);
			if (inline == MAX_INLINE || !next.pool().equals(match.pool())) {
				// the selector dispatches it to its own pool
				this.routed = next;
				break;
			}
			keep = this.exchange.run(this.head, requestBody(), this.headNanos, 0, next);
		}
		complete(keep, invalid);
	}

	/**
	 * Ends a worker's turn with the connection: flushes the responses, gives the output buffer
	 * back and hands the connection back to the selector. Any thread but the selector.
	 * @param keep whether the connection carries another request
	 * @param invalid a pipelined request found malformed, answered once the connection is back
	 */
	private void complete(boolean keep, HttpParseException invalid) {
		boolean keepAlive = keep;
		try {
			this.out.flush();
		}
		catch (IOException ex) {
			keepAlive = false;
			this.out.discard();
		}
		this.out.release();
		boolean kept = keepAlive;
		this.loop.execute(() -> afterExchange(kept, invalid));
	}

	private RequestBody requestBody() {
		return (this.body != null) ? new BufferedBody(this.head, this.body, this.bodyLength) : RequestBody.EMPTY;
	}

	/**
	 * Starts the next request and parses what is already buffered of it; on a worker, between
	 * two exchanges of a kept connection.
	 * @return whether a whole request was buffered
	 */
	private boolean parseAhead() throws HttpParseException {
		this.parser.reset();
		this.head = null;
		this.body = null;
		this.bodyLength = 0;
		this.messageDone = false;
		this.parsingOnWorker = true;
		try {
			while (this.in != null && this.in.hasRemaining()) {
				if (this.parser.parse(this.in) && this.messageDone) {
					return true;
				}
			}
			return false;
		}
		finally {
			this.parsingOnWorker = false;
		}
	}

	/** The worker handed the connection back; selector thread. */
	private void afterExchange(boolean keep, HttpParseException invalid) {
		if (this.phase == Phase.CLOSED) {
			// close() left the input buffer alone while the worker used it
			releaseInput();
			return;
		}
		this.keepAfterExchange = keep;
		this.invalidNext = invalid;
		this.phase = Phase.FLUSHING;
		if (!hasPending()) {
			resume();
		}
	}

	private void resume() {
		if (!this.keepAfterExchange) {
			// the client may still be sending (pipelined requests): closing with unread input
			// resets the connection, which can destroy the response before the client reads it
			this.phase = Phase.CLOSING;
			this.deadline = this.loop.now() + Answers.LINGER_NANOS;
			releaseInput();
			startLinger();
			return;
		}
		// the worker has already started the next request and parsed what was buffered of it
		this.phase = Phase.READING;
		this.key.interestOps(SelectionKey.OP_READ);
		if (this.invalidNext != null) {
			HttpParseException invalid = this.invalidNext;
			this.invalidNext = null;
			refuse(invalid.status(), invalid.reason(), RequestEvent.INVALID);
		}
		else if (this.messageDone) {
			dispatch();
		}
		else {
			releaseEmptyBuffer();
			if (this.parser.isIdle() && this.head == null) {
				goIdle();
			}
			else {
				this.deadline = this.loop.now() + this.config.headerTimeout().toNanos();
			}
		}
	}

	/** Answers a request the server refuses and closes after the answer; selector thread. */
	private void refuse(Status status, String reason, String route) {
		this.exchange.refuse(status, reason, 0, this.head, route);
		closeAfterAnswer();
	}

	/**
	 * Queues the answer in the output, then closes once it is written and the client had a
	 * moment to read it. Selector thread.
	 */
	private void closeAfterAnswer() {
		this.phase = Phase.CLOSING;
		try {
			this.out.flushTo(this::enqueue);
		}
		catch (IOException ex) {
			close();
			return;
		}
		this.out.release();
		this.deadline = this.loop.now() + Answers.LINGER_NANOS;
		if (!hasPending()) {
			startLinger();
		}
	}

	private void startLinger() {
		try {
			this.channel.shutdownOutput();
			this.key.interestOps(SelectionKey.OP_READ);
		}
		catch (IOException ex) {
			close();
		}
	}

	private void discardInput() {
		ByteBuffer scrap = this.loop.scratch();
		try {
			while (true) {
				scrap.clear();
				int n = this.channel.read(scrap);
				if (n < 0) {
					close();
					return;
				}
				if (n == 0) {
					return;
				}
			}
		}
		catch (IOException ex) {
			close();
		}
	}

	// ---- writing

	private boolean hasPending() {
		synchronized (this.lock) {
			return this.pendingBytes > 0;
		}
	}

	/**
	 * Sends bytes from a worker: writes directly while the socket takes them, queues the rest,
	 * and waits while more than {@link #HIGH_WATER} bytes are queued, so a slow reader costs
	 * bounded memory. Fails when no byte could be written for {@code keep-alive.timeout}.
	 */
	private void transmit(byte[] bytes, int offset, int length) throws IOException {
		int position = offset;
		int end = offset + length;
		while (position < end) {
			int slice = Math.min(end - position, HIGH_WATER);
			synchronized (this.lock) {
				writeOrQueue(bytes, position, slice);
				awaitBelowHighWater();
			}
			position += slice;
		}
	}

	/** Queues bytes written by the selector thread (error responses); never waits. */
	private void enqueue(byte[] bytes, int offset, int length) throws IOException {
		synchronized (this.lock) {
			writeOrQueue(bytes, offset, length);
		}
	}

	private void writeOrQueue(byte[] bytes, int offset, int length) throws IOException {
		// caller holds lock
		if (this.closed) {
			throw new ClosedChannelException();
		}
		int written = 0;
		if (this.pending.isEmpty()) {
			ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
			while (buffer.hasRemaining() && this.channel.write(buffer) > 0) {
				// keep writing while the socket takes bytes
			}
			written = buffer.position() - offset;
		}
		if (written < length) {
			this.pending.addLast(ByteBuffer.wrap(Arrays.copyOfRange(bytes, offset + written, offset + length)));
			this.pendingBytes += length - written;
			this.lastWriteNanos = System.nanoTime();
			if (!this.writeInterest) {
				this.writeInterest = true;
				this.loop.execute(this::enableWriteInterest);
			}
		}
	}

	private void awaitBelowHighWater() throws IOException {
		// caller holds lock
		long timeout = this.config.keepAliveTimeout().toNanos();
		while (this.pendingBytes > HIGH_WATER && !this.closed) {
			long waited = System.nanoTime() - this.lastWriteNanos;
			if (waited >= timeout) {
				throw new IOException("Write timed out: the client read nothing for " + this.config.keepAliveTimeout());
			}
			try {
				long millis = Math.max(1, (timeout - waited) / 1_000_000);
				this.lock.wait(millis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException("Interrupted while waiting to write", ex);
			}
		}
		if (this.closed) {
			throw new ClosedChannelException();
		}
	}

	private void enableWriteInterest() {
		if (this.key != null && this.key.isValid()) {
			this.key.interestOps(this.key.interestOps() | SelectionKey.OP_WRITE);
		}
	}

	private void onWritable() {
		boolean drained;
		synchronized (this.lock) {
			try {
				while (!this.pending.isEmpty()) {
					ByteBuffer head = this.pending.peekFirst();
					int written = this.channel.write(head);
					if (written > 0) {
						this.pendingBytes -= written;
						this.lastWriteNanos = System.nanoTime();
					}
					if (head.hasRemaining()) {
						break;
					}
					this.pending.pollFirst();
				}
			}
			catch (IOException ex) {
				this.closed = true;
				this.lock.notifyAll();
				drained = false;
				this.pending.clear();
				this.pendingBytes = 0;
			}
			drained = this.pending.isEmpty() && !this.closed;
			if (this.pending.isEmpty()) {
				this.writeInterest = false;
			}
			this.lock.notifyAll();
		}
		if (this.key.isValid()) {
			this.key.interestOps(this.key.interestOps() & ~SelectionKey.OP_WRITE | (drained ? 0 : SelectionKey.OP_WRITE));
		}
		if (!drained) {
			if (isClosedForWriting()) {
				close();
			}
			return;
		}
		if (this.phase == Phase.FLUSHING) {
			resume();
		}
		else if (this.phase == Phase.CLOSING) {
			startLinger();
		}
	}

	private boolean isClosedForWriting() {
		synchronized (this.lock) {
			return this.closed;
		}
	}

	// ---- timeouts, idle, close (selector thread)

	/**
	 * Returns whether {@link #checkTimeout} has something to do: a cheap test the loop's
	 * periodic scan applies to every connection, without side effects.
	 */
	boolean isDue(long now) {
		return switch (this.phase) {
			case READING -> now - this.deadline >= 0;
			case FLUSHING, CLOSING -> true;
			default -> false;
		};
	}

	/** Enforces this connection's deadline; called by the loop's periodic scan. */
	void checkTimeout(long now) {
		switch (this.phase) {
			case READING -> {
				if (now - this.deadline >= 0) {
					if (this.idle || this.parser.isIdle() && this.head == null) {
						close();
					}
					else {
						refuse(Status.REQUEST_TIMEOUT_408,
								(this.head == null) ? Answers.HEAD_TIMEOUT : Answers.BODY_TIMEOUT, RequestEvent.INVALID);
					}
				}
			}
			case FLUSHING, CLOSING -> {
				boolean stalled;
				synchronized (this.lock) {
					stalled = this.pendingBytes > 0
							&& now - this.lastWriteNanos >= this.config.keepAliveTimeout().toNanos();
				}
				if (stalled || (this.phase == Phase.CLOSING && now - this.deadline >= 0)) {
					close();
				}
			}
			default -> {
			}
		}
	}

	private void setIdle(boolean idle) {
		if (this.idle != idle) {
			this.idle = idle;
			this.context.registry().idle(idle ? 1 : -1);
		}
	}

	boolean isIdle() {
		return this.idle;
	}

	/** Closes now; selector thread. */
	void close() {
		if (this.phase == Phase.CLOSED) {
			return;
		}
		boolean dispatched = this.phase == Phase.DISPATCHED;
		this.phase = Phase.CLOSED;
		synchronized (this.lock) {
			this.closed = true;
			this.pending.clear();
			this.pendingBytes = 0;
			this.lock.notifyAll();
		}
		setIdle(false);
		if (this.key != null) {
			this.key.cancel();
		}
		try {
			this.channel.close();
		}
		catch (IOException ex) {
			logger.log(Level.DEBUG, "Closing a connection failed", ex);
		}
		if (!dispatched) {
			// a worker may be parsing ahead in it; afterExchange releases it then
			releaseInput();
		}
		this.loop.forget(this);
		this.context.registry().closed(this);
	}

	@Override
	public boolean closeIfIdle() {
		// the loop closes idle connections itself once a shutdown has begun
		return false;
	}

	@Override
	public void abort() {
		this.loop.execute(this::close);
	}

	// ---- parser events (selector thread)

	@Override
	public boolean headComplete(RequestHead head) {
		this.head = head;
		// on the selector, the time the bytes were there to read
		this.headNanos = this.parsingOnWorker ? System.nanoTime() : this.loop.now();
		if (head.hasBody()) {
			// grows as bytes arrive: a declared length alone allocates no more than this
			long length = head.contentLength();
			this.body = new byte[(int) Math.min((length > 0) ? length : 1024, INITIAL_BODY_BUFFER)];
			if (head.expectContinue()) {
				if (this.parsingOnWorker) {
					// after the responses still buffered on this worker, in order
					this.out.append(Answers.CONTINUE);
				}
				else {
					try {
						enqueue(Answers.CONTINUE, 0, Answers.CONTINUE.length);
					}
					catch (IOException ex) {
						return false;
					}
				}
			}
		}
		return false;
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
