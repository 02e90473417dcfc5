package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.channels.ByteChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Status;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.AsyncHost;
import dev.ariadne.server.connection.BodyClock;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.HttpExchange;
import dev.ariadne.server.connection.LowResources;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.connection.RequestBody;
import dev.ariadne.server.connection.TrackedConnection;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.routing.RouteMatch;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.RequestEvent;
import dev.ariadne.server.tls.PlaintextRequestException;
import dev.ariadne.server.tls.TlsChannel;

/**
 * One connection of the event-loop model, attached to its selection key: reads and parses
 * heads on the selector, reads on the selector the rest of a body that fits the input buffer,
 * hands each request to a worker of its pool then (at once if it expects {@code 100 Continue}),
 * and writes through its {@link WriteQueue}. A body that arrives slowly thus holds a buffer, not
 * a worker, within its limits ({@link BodyClock}).
 *
 * <p>Thread ownership: the selector thread owns the key, the input buffer and the
 * {@link RequestReader}; once a head is complete the request is handed to a worker, which owns
 * the exchange, the {@link ConnectionOutput}, and the input and reader (to read the body from
 * the socket as the handler asks for it, {@link ChannelBody}, and to parse pipelined requests
 * ahead), until it hands the connection back with a selector task ({@link #complete}). The
 * selector reads nothing while a request is with a worker, except when the worker asks for
 * more of its body ({@link #demandRead}); so pipelined requests are answered in order, and
 * neither they nor a body are ever buffered beyond the one input buffer.
 *
 * <p>On a TLS listener, reads and writes go through a {@link TlsChannel} over the socket: its
 * handshake runs on the selector as the connection reads, within the handshake timeout; the
 * connection only watches for writability while handshake or close_notify bytes wait, and
 * reads again when the channel holds input the socket will not signal.
 */
final class EventLoopConnection implements TrackedConnection, AsyncHost, WriteQueue.Stalls {

	private static final Logger logger = System.getLogger(EventLoopConnection.class.getName());

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

	/** What reads and writes go through: the socket, or TLS over it. */
	private final ByteChannel io;

	/** TLS over the socket, or {@code null} on a plaintext listener. */
	private final TlsChannel tls;

	private final ConnectionContext context;

	private final ServerConfig config;

	private final PoolEntry<RuntimeException> entry;

	private final WriteQueue writes;

	private final ConnectionOutput out;

	private final RequestReader reader;

	private final ChannelBody body;

	private final BodyClock clock;

	private final HttpExchange exchange;

	private final long writeTimeoutNanos;

	/** The pool whose worker runs (or last ran) the connection's exchange; any thread reads it. */
	private volatile String workerPool;

	// ---- selector thread only

	private SelectionKey key;

	private Phase phase = Phase.READING;

	private boolean idle;

	private long deadline;

	private boolean keepAfterExchange;

	/**
	 * Whether the request whose head was read waits on the selector for the rest of its body,
	 * before it is dispatched: a body that arrives slowly then holds a buffer, not a worker.
	 */
	private boolean bodyPending;

	/** A pipelined request the worker found malformed, answered once the connection is back. */
	private HttpParseException invalidNext;

	/** The route of a pipelined request the worker parsed ahead and left for its own pool. */
	private RouteMatch routed;

	/** What to tell once input arrives, for a worker waiting for more of a body; or {@code null}. */
	private Runnable readDemand;

	/**
	 * When a non-blocking reader of a body gives up waiting for more, by the body's clock; 0 when
	 * the waiting thread keeps its own time.
	 */
	private long demandDeadline;

	EventLoopConnection(SelectorLoop loop, SocketChannel channel, ConnectionContext context,
			PoolEntry<RuntimeException> entry) throws IOException {
		this.loop = loop;
		this.channel = channel;
		this.context = context;
		this.config = context.config();
		this.entry = entry;
		this.tls = (context.tls() != null) ? context.tls().channel(channel, this::handshaken) : null;
		this.io = (this.tls != null) ? this.tls : channel;
		this.writeTimeoutNanos = this.config.keepAliveTimeout().toNanos();
		this.writes = new WriteQueue(this.io, loop, this::watchWritable, this.config.keepAliveTimeout(),
				context.budget(), this);
		this.out = new ConnectionOutput(this.writes, context.outputBuffers());
		this.reader = new RequestReader(this.config, loop);
		this.clock = new BodyClock(this.config);
		this.body = new ChannelBody(this, this.io, this.reader, this.out, this.writes, this.clock);
		this.exchange = new HttpExchange(context, this.out, (InetSocketAddress) channel.getRemoteAddress(),
				(InetSocketAddress) channel.getLocalAddress(), () -> false, this);
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
		long timeout = (this.tls != null) ? this.context.tls().handshakeTimeoutNanos()
				: this.config.headerTimeout().toNanos();
		this.deadline = this.loop.now() + timeout;
	}

	/** The TLS handshake completed (selector thread): the first request's time starts. */
	private void handshaken() {
		this.deadline = this.loop.now() + this.config.headerTimeout().toNanos();
		this.exchange.tlsSession(this.tls.session());
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
			else if (this.readDemand != null) {
				// the worker reading a body waits for this: it reads the bytes itself
				Runnable demand = this.readDemand;
				this.readDemand = null;
				demand.run();
			}
			else {
				// the client sent more while a worker has the connection (pipelining, or a body
				// nobody reads yet): stop watching until resume() or a demand. Read interest is
				// dropped only here, lazily, so the usual request-response turn changes no
				// interest at all (no epoll_ctl)
				key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
			}
		}
	}

	private void onReadable() {
		int read;
		try {
			read = this.reader.fill(this.io);
		}
		catch (PlaintextRequestException ex) {
			setIdle(false);
			refuse(Status.BAD_REQUEST_400, Answers.TLS_REQUIRED, RequestEvent.INVALID);
			return;
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
			if (!this.reader.holdsBuffer()) {
				// at the buffer budget: read no more until a buffer is free (back-pressure); a
				// body's clock stops meanwhile, since the server does not ask for its bytes
				this.key.interestOps(this.key.interestOps() & ~SelectionKey.OP_READ);
				if (this.bodyPending) {
					this.clock.endWait(this.loop.now(), 0);
				}
				this.loop.awaitBuffer(this);
				return;
			}
			this.reader.releaseEmptyBuffer();
			watchTlsWrites();
			return;
		}
		if (this.idle) {
			setIdle(false);
			this.deadline = this.loop.now() + this.config.headerTimeout().toNanos();
		}
		else if (this.bodyPending) {
			this.clock.endWait(this.loop.now(), read);
		}
		watchTlsWrites();
		processInput();
		if (this.tls != null && this.phase == Phase.READING && this.tls.hasBufferedInput()) {
			// decrypted input waits that the socket will not signal again
			this.loop.execute(this::readBuffered);
		}
	}

	private void readBuffered() {
		if (this.phase == Phase.READING) {
			onReadable();
		}
	}

	/** Handshake messages wait for the socket: watch for writability until they leave. */
	private void watchTlsWrites() {
		if (this.tls != null && this.tls.wantsWrite()) {
			watchWritable();
		}
	}

	/**
	 * Reads again after waiting for an input buffer, if one can be borrowed now; selector
	 * thread.
	 * @return whether the connection waits no more (it got a buffer, or reads nothing any more)
	 */
	boolean resumeReading() {
		if (this.phase != Phase.READING) {
			return true;
		}
		if (!this.reader.borrowBuffer()) {
			return false;
		}
		this.key.interestOps(this.key.interestOps() | SelectionKey.OP_READ);
		if (this.bodyPending) {
			this.clock.startWait(this.loop.now());
		}
		return true;
	}

	/** Parses what is buffered; dispatches a complete request. Selector thread. */
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
			close();
			return;
		}
		setIdle(true);
		this.deadline = this.loop.now() + this.config.keepAliveTimeout().toNanos();
	}

	/**
	 * A request's head is read (and perhaps some of its body): reads the rest of a body that
	 * fits the input buffer on the selector first, then dispatches the request. A request that
	 * expects {@code 100 Continue} goes at once: its handler decides whether it wants the body.
	 * Selector thread.
	 */
	private void headRead() {
		RequestHead head = this.reader.head();
		if (!this.bodyPending) {
			this.body.reset(head);
		}
		long now = this.loop.now();
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

	/** Sends the complete request to its pool; selector thread. */
	private void dispatch() {
		this.phase = Phase.DISPATCHED;
		RequestHead head = this.reader.head();
		RequestBody body = this.body;
		long start = this.reader.headNanos();
		long dispatched = this.loop.now();
		// routed once: here, or on the worker that parsed it ahead and left it for its own pool
		RouteMatch match = (this.routed != null) ? this.routed : this.exchange.route(head);
		this.routed = null;
		this.workerPool = match.pool();
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
		try {
			runAndComplete(head, body, start, dispatched, match);
		}
		catch (Throwable ex) {
			// an Error in the server's own code (out of memory): the connection must not stay
			// dispatched for ever; the selector closes it
			this.out.discard();
			this.out.release();
			this.loop.workerFailed(ex, this::abandon);
		}
	}

	private void runAndComplete(RequestHead head, RequestBody body, long start, long dispatched, RouteMatch match) {
		boolean keep = this.exchange.run(head, body, start, System.nanoTime() - dispatched, match);
		goOn(keep, match.pool());
	}

	/**
	 * After an exchange, on the worker that ran or ended it: unless it is suspended, the
	 * pipelined requests of the same pool, then the hand-back to the selector.
	 */
	private void goOn(boolean kept, String pool) {
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
				// the selector dispatches it to its own pool, or reads the rest of its body first
				this.routed = next;
				break;
			}
			keep = this.exchange.run(head, this.body.reset(head), this.reader.headNanos(), 0, next);
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
	 * that nothing reads any more goes back to the loop's pool meanwhile; the end comes through
	 * the selector ({@link #resume}), after that.
	 */
	private void suspended() {
		if (this.body.finished() && !this.reader.hasInput()) {
			this.loop.execute(this.reader::releaseEmptyBuffer);
		}
	}

	// ---- a suspended exchange (any thread but the selector)

	@Override
	public boolean execute(TaskPool routePool, Runnable task) {
		return this.entry.enter(routePool, task) == null;
	}

	@Override
	public void resume(TaskPool routePool) {
		String pool = (routePool != null) ? routePool.name() : Route.DEFAULT_POOL;
		this.loop.execute(() -> {
			if (this.entry.enter(routePool, () -> goOn(this.exchange.endSuspended(), pool)) != null) {
				abandonSuspended();
			}
		});
	}

	@Override
	public void awaitReadable(TaskPool routePool, Runnable task) {
		// a non-blocking reader holds no worker while it waits: the body's own limits apply
		long deadline = this.clock.startWait(System.nanoTime());
		demandRead(() -> {
			if (this.entry.enter(routePool, task) != null) {
				this.exchange.taskRefused();
			}
		}, deadline);
	}

	@Override
	public boolean writable(TaskPool routePool, Runnable task) {
		return this.writes.writable(() -> {
			if (this.entry.enter(routePool, task) != null) {
				this.exchange.taskRefused();
			}
		});
	}

	/** The pool refused the end of a suspended exchange (it is stopping): close; selector thread. */
	private void abandonSuspended() {
		logger.log(Level.WARNING, "The pool refused to end a suspended exchange; closing its connection");
		close();
		this.exchange.abandonSuspended();
		this.out.discard();
		this.out.release();
		this.reader.releaseInput();
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

	/** The worker handed the connection back; selector thread. */
	private void afterExchange(boolean keep, HttpParseException invalid) {
		if (this.phase == Phase.CLOSED) {
			// close() left the input buffer alone while the worker used it
			this.reader.releaseInput();
			return;
		}
		this.keepAfterExchange = keep;
		this.invalidNext = invalid;
		this.phase = Phase.FLUSHING;
		if (!this.writes.hasPending()) {
			resume();
		}
	}

	private void resume() {
		if (!this.keepAfterExchange) {
			// the client may still be sending (pipelined requests): closing with unread input
			// resets the connection, which can destroy the response before the client reads it
			this.phase = Phase.CLOSING;
			this.deadline = this.loop.now() + Answers.LINGER_NANOS;
			this.reader.releaseInput();
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
		else if (this.reader.headReady()) {
			headRead();
		}
		else {
			this.reader.releaseEmptyBuffer();
			if (this.reader.isIdle()) {
				goIdle();
			}
			else {
				this.deadline = this.loop.now() + this.config.headerTimeout().toNanos();
			}
			if (this.tls != null && this.phase == Phase.READING && this.tls.hasBufferedInput()) {
				onReadable();
			}
		}
	}

	/** Answers a request the server refuses and closes after the answer; selector thread. */
	private void refuse(Status status, String reason, String route) {
		this.exchange.refuse(status, reason, 0, this.reader.head(), route);
		closeAfterAnswer();
	}

	/**
	 * Queues the answer in the output, then closes once it is written and the client had a
	 * moment to read it. Selector thread.
	 */
	private void closeAfterAnswer() {
		this.phase = Phase.CLOSING;
		try {
			this.out.flushTo(this.writes::enqueue);
		}
		catch (IOException ex) {
			close();
			return;
		}
		this.out.release();
		this.deadline = this.loop.now() + Answers.LINGER_NANOS;
		if (!this.writes.hasPending()) {
			startLinger();
		}
	}

	private void startLinger() {
		try {
			if (this.tls != null && !this.tls.closeOutbound()) {
				// close_notify waits for the socket: onWritable comes back here
				watchWritable();
				return;
			}
			this.channel.shutdownOutput();
			this.key.interestOps(SelectionKey.OP_READ);
		}
		catch (IOException ex) {
			close();
		}
	}

	private void discardInput() {
		try {
			if (!this.loop.discardInput(this.channel)) {
				close();
			}
		}
		catch (IOException ex) {
			close();
		}
	}

	// ---- reading a body (the worker asks, the selector watches)

	/**
	 * Asks the selector to tell the thread reading this connection's body once input arrives
	 * (or the connection closes). Any thread but the selector, while the exchange holds the
	 * connection; the reader then reads the socket itself.
	 * @param wake what to run on the selector thread; it must not block
	 * @param deadline when to give up, by the body's clock, for a non-blocking reader; 0 for a
	 * thread that waits and keeps its own time
	 */
	void demandRead(Runnable wake, long deadline) {
		this.loop.execute(() -> watchInput(wake, deadline));
	}

	private void watchInput(Runnable wake, long deadline) {
		if (this.phase == Phase.CLOSED) {
			wake.run();
			return;
		}
		this.readDemand = wake;
		this.demandDeadline = deadline;
		this.key.interestOps(this.key.interestOps() | SelectionKey.OP_READ);
	}

	/** Tells a non-blocking reader of a body that waited for more past its deadline; selector thread. */
	private void demandExpired(long now) {
		BodyClock.Expiry expiry = this.clock.expiry(now, Long.MAX_VALUE);
		if (expiry == BodyClock.Expiry.NONE) {
			// bytes came in the meantime and the reader waits again: its new deadline holds
			this.demandDeadline = this.clock.waiting() ? this.clock.deadline() : 0;
			return;
		}
		bodyExpired(expiry);
		this.body.timeOut(expiry);
		Runnable demand = this.readDemand;
		this.readDemand = null;
		demand.run();
	}

	// ---- slow clients (any thread)

	/**
	 * Returns the low-resources mode of the connection's server.
	 * @return the mode
	 */
	LowResources lowResources() {
		return this.context.lowResources();
	}

	/**
	 * Returns the longest the client may keep the exchange's worker waiting now.
	 * @return the stall timeout while the worker's pool is starved, else {@link Long#MAX_VALUE}
	 */
	long stallNanos() {
		return this.context.lowResources().stallNanos(this.workerPool);
	}

	/**
	 * Counts a body that kept the server waiting too long.
	 * @param expiry what ended it
	 */
	void bodyExpired(BodyClock.Expiry expiry) {
		this.context.registry().defended(Defence.SLOW_BODY, expiry == BodyClock.Expiry.STALL);
	}

	@Override
	public long writeLimitNanos() {
		return Math.min(this.writeTimeoutNanos, stallNanos());
	}

	@Override
	public long pollNanos() {
		return this.context.lowResources().pollNanos();
	}

	@Override
	public void writeCut(boolean lowResources) {
		this.context.registry().defended(Defence.SLOW_READER, lowResources);
	}

	// ---- writing (selector thread)

	/** Watches the socket for writability: bytes wait in the write queue. */
	private void watchWritable() {
		if (this.key != null && this.key.isValid()) {
			this.key.interestOps(this.key.interestOps() | SelectionKey.OP_WRITE);
		}
	}

	private void onWritable() {
		boolean drained;
		try {
			drained = (this.tls == null || this.tls.flush()) && this.writes.flush();
		}
		catch (IOException ex) {
			close();
			return;
		}
		if (this.key.isValid()) {
			this.key.interestOps(this.key.interestOps() & ~SelectionKey.OP_WRITE | (drained ? 0 : SelectionKey.OP_WRITE));
		}
		if (!drained) {
			if (this.writes.isClosed()) {
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

	// ---- timeouts, idle, close (selector thread)

	/**
	 * Returns whether {@link #checkTimeout} has something to do: a cheap test the loop's
	 * periodic scan applies to every connection, without side effects.
	 */
	boolean isDue(long now) {
		return switch (this.phase) {
			case READING -> this.bodyPending ? this.clock.waiting() && now - this.clock.deadline() >= 0
					: now - this.deadline >= 0;
			case FLUSHING, CLOSING -> true;
			case DISPATCHED -> this.readDemand != null && this.demandDeadline != 0 && now - this.demandDeadline >= 0;
			default -> false;
		};
	}

	/** Enforces this connection's deadline; called by the loop's periodic scan. */
	void checkTimeout(long now) {
		switch (this.phase) {
			case READING -> {
				if (this.bodyPending) {
					BodyClock.Expiry expiry = this.clock.expiry(now, Long.MAX_VALUE);
					if (expiry != BodyClock.Expiry.NONE) {
						bodyExpired(expiry);
						refuse(Status.REQUEST_TIMEOUT_408, Answers.lateBody(expiry).reason(), this.routed.route());
					}
				}
				else if (now - this.deadline >= 0) {
					if (this.idle || this.reader.isIdle()) {
						close();
					}
					else {
						this.context.registry().defended(Defence.SLOW_HEAD, false);
						refuse(Status.REQUEST_TIMEOUT_408, Answers.HEAD_TIMEOUT, RequestEvent.INVALID);
					}
				}
			}
			case FLUSHING, CLOSING -> {
				if (this.writes.stalled(now)) {
					writeCut(false);
					close();
				}
				else if (this.phase == Phase.CLOSING && now - this.deadline >= 0) {
					close();
				}
			}
			case DISPATCHED -> {
				if (this.readDemand != null && this.demandDeadline != 0 && now - this.demandDeadline >= 0) {
					demandExpired(now);
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
		this.writes.close();
		if (this.readDemand != null) {
			// the reader finds the channel closed
			Runnable demand = this.readDemand;
			this.readDemand = null;
			demand.run();
		}
		setIdle(false);
		if (this.key != null) {
			this.key.cancel();
		}
		try {
			this.io.close();
		}
		catch (IOException ex) {
			logger.log(Level.DEBUG, "Closing a connection failed", ex);
		}
		if (dispatched) {
			// a suspended exchange learns it here; its worker (or its end) releases the input
			this.exchange.connectionClosed(false);
		}
		else {
			// a worker may be parsing ahead in it; afterExchange releases it then
			this.reader.releaseInput();
		}
		this.loop.forget(this);
		this.context.registry().closed(this);
	}

	/** A worker failed with the connection and left it: closes it; selector thread. */
	private void abandon() {
		close();
		// close() leaves the input to a worker that has the connection, and this one is done
		this.reader.releaseInput();
	}

	@Override
	public boolean closeIfIdle() {
		// the loop closes idle connections itself once a shutdown has begun
		return false;
	}

	@Override
	public void abort() {
		// a suspended exchange is told here, on the thread that stops the server, before the
		// pools stop: they may drop what is queued then
		this.exchange.connectionClosed(true);
		this.loop.execute(this::close);
	}

}
