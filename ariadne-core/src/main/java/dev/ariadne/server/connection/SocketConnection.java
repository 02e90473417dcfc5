package dev.ariadne.server.connection;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import dev.ariadne.http.ChunkedScanner;
import dev.ariadne.http.Headers;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.RequestParser;
import dev.ariadne.http.RequestSink;
import dev.ariadne.http.Status;
import dev.ariadne.server.RateLimitedLogger;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.routing.RouteMatch;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.RequestEvent;
import dev.ariadne.server.tls.PlaintextRequestException;
import dev.ariadne.server.tls.TlsSocket;

/**
 * A connection served by one thread from accept to close, with blocking socket I/O: the
 * {@code blocking} model runs it on a pool worker, the {@code virtual-threads} model on a
 * virtual thread. The thread reads, parses, runs each exchange and writes, in order, so
 * pipelined requests are answered in order. It reads the rest of a body that fits its buffer
 * before the request enters its pool, so that a body arriving slowly holds no permit (and no
 * route pool's worker); bodies and heads keep it waiting within their limits ({@link BodyClock},
 * and while its pool is starved the low-resources stall timeout, {@link LowResources}).
 *
 * <p>While an exchange is suspended, the connection's thread waits for its tasks and runs them
 * through the model's pool entry (a permit, or the route pool), then its end
 * ({@link AsyncHost}).
 *
 * <p>Responses are flushed before every blocking read, so pipelined responses leave in one
 * write while their requests are already buffered, and nothing waits unflushed while the
 * connection waits for input.
 *
 * <p>On a TLS listener the thread runs the handshake first, within the handshake timeout, then
 * reads and writes through {@link TlsSocket}'s streams; plaintext HTTP sent to it is answered
 * 400 in plaintext.
 */
public final class SocketConnection implements RequestSink, TrackedConnection, AsyncHost {

	/** How many bytes a virtual thread reads between yields of its carrier. */
	private static final int YIELD_EVERY = 16 * 1024;

	private static final Logger logger = System.getLogger(SocketConnection.class.getName());

	private static final RateLimitedLogger connectionErrors = RateLimitedLogger.of(logger, Level.ERROR,
			"Connection failed", RateLimitedLogger.DEFAULT_INTERVAL);

	private static final int ACTIVE = 0;

	private static final int IDLE = 1;

	private static final int CLOSED = 2;

	private static final int BUFFER_SIZE = 8192;

	private final ConnectionContext context;

	private final Socket socket;

	private final PoolEntry<InterruptedException> entry;

	/** Runs the current exchange, on this thread or a route pool's worker. */
	private final Runnable runExchange = this::runExchange;

	private final long acceptedNanos;

	private final AtomicInteger state = new AtomicInteger(ACTIVE);

	private final RequestParser parser;

	private final ByteBuffer in = ByteBuffer.allocate(BUFFER_SIZE).flip();

	private final SocketWriter writer;

	private final ConnectionOutput out;

	private final HttpExchange exchange;

	private final SocketBody body = new SocketBody();

	private final BodyClock clock;

	/** Follows a chunked body read before its request is dispatched. */
	private final ChunkedScanner chunks;

	/**
	 * Whether the connection's thread is a worker of the default pool ({@code blocking}), held
	 * from accept to close, rather than a thread of its own that takes a permit per exchange.
	 */
	private final boolean pinsWorker;

	/** Whether a thread runs the current exchange's handler, holding a worker or a permit. */
	private volatile boolean inExchange;

	/** The tasks of a suspended exchange, for this connection's thread. */
	private final LinkedBlockingQueue<Runnable> asyncTasks = new LinkedBlockingQueue<>();

	private InputStream input;

	/** The connection's TLS streams once its handshake completed, or {@code null}. */
	private TlsSocket tls;

	/** When the connection, idle now or next, is closed for its idle time ({@link System#nanoTime()}). */
	private volatile long idleDeadline;

	/** The idle time that {@link #idleDeadline} allows; written just before it. */
	private long idleTimeout;

	/** The thread running {@link #serve()}, for the diagnosis. */
	private volatile Thread thread;

	/** Whether the last read set a socket timeout, which a read for the next request must clear. */
	private boolean socketTimeoutSet;

	private RequestHead head;

	private ByteBuffer content;

	private boolean messageDone;

	// ---- the current exchange, handed to the thread that runs it by the pool entry

	private RouteMatch match;

	private long startNanos;

	private long queueWaitNanos;

	/** Bytes read since a virtual thread last yielded its carrier. */
	private int readSinceYield;

	private boolean keep;

	/**
	 * Creates a connection for an accepted socket; the acceptor registers it, and it counts as
	 * open until {@link #serve()} (or {@link #reject}) ends.
	 * @param context what the server's connections share
	 * @param channel the accepted socket, in blocking mode
	 * @param entry how the model's requests reach their pool
	 * @param releaseConnection whether to release the connection after the current response
	 * @param pinsWorker whether the connection's thread is a worker of the default pool, held
	 * until the connection closes ({@code blocking}), rather than a thread that takes a permit
	 * per exchange ({@code virtual-threads})
	 */
	public SocketConnection(ConnectionContext context, SocketChannel channel, PoolEntry<InterruptedException> entry,
			BooleanSupplier releaseConnection, boolean pinsWorker) {
		this.context = context;
		this.socket = channel.socket();
		this.entry = entry;
		this.pinsWorker = pinsWorker;
		this.clock = new BodyClock(context.config());
		this.acceptedNanos = System.nanoTime();
		this.parser = new RequestParser(context.config().limits(), this);
		this.chunks = new ChunkedScanner(context.config().limits());
		this.writer = new SocketWriter(this.socket, context.budget(), this.asyncTasks::add);
		this.out = new ConnectionOutput(this.writer, context.outputBuffers());
		this.exchange = new HttpExchange(context, this.out, (InetSocketAddress) this.socket.getRemoteSocketAddress(),
				(InetSocketAddress) this.socket.getLocalSocketAddress(), releaseConnection, this);
	}

	/**
	 * Serves the connection until it closes. Runs on the connection's thread; returns when the
	 * connection is closed, whatever happened: an {@link Error} in the server's code (out of
	 * memory, say) closes the connection, is counted and logged, and the thread lives on.
	 */
	public void serve() {
		try {
			serveUntilClosed();
		}
		catch (Error ex) {
			this.context.registry().fatalError();
			connectionErrors.log(() -> "Connection from " + this.socket.getRemoteSocketAddress() + " failed; closed it",
					ex);
		}
	}

	private void serveUntilClosed() {
		this.thread = Thread.currentThread();
		try {
			this.input = this.socket.getInputStream();
			if (this.context.tls() != null) {
				startTls();
			}
			boolean serverEnded = serveRequests();
			this.out.flush();
			if (serverEnded && (this.in.hasRemaining() || this.input.available() > 0)) {
				// the client is still sending (pipelined requests, an unread body): closing with
				// unread input resets the connection, which can destroy the last response before
				// the client reads it. Only then, since lingering holds this thread.
				lingerAndClose();
			}
		}
		catch (HttpParseException ex) {
			refuse(ex.status(), ex.reason());
		}
		catch (PlaintextRequestException ex) {
			refuse(Status.BAD_REQUEST_400, Answers.TLS_REQUIRED);
		}
		catch (SocketTimeoutException ex) {
			if (this.head == null && !this.parser.isIdle()) {
				this.context.registry().defended(Defence.SLOW_HEAD, false);
				refuse(Status.REQUEST_TIMEOUT_408, Answers.HEAD_TIMEOUT);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (IOException | RuntimeException ex) {
			logger.log(Level.DEBUG, () -> "Connection from " + this.socket.getRemoteSocketAddress() + " failed", ex);
		}
		finally {
			close();
		}
	}

	/** Runs the TLS handshake; from then on the connection reads and writes through TLS. */
	private void startTls() throws IOException {
		this.tls = this.context.tls().handshake(this.socket);
		this.input = this.tls.input();
		this.writer.output(this.tls.output());
		this.exchange.tlsSession(this.tls.session());
	}

	/**
	 * Serves requests until the connection ends.
	 * @return whether the server ended it after a response (rather than the client, an idle
	 * timeout or a shutdown between requests)
	 */
	private boolean serveRequests() throws IOException, HttpParseException, InterruptedException {
		// blocking: how long the connection waited for a worker, counted with its first request
		long connectionWait = System.nanoTime() - this.acceptedNanos;
		boolean first = true;
		while (readHead(first)) {
			first = false;
			this.startNanos = System.nanoTime();
			this.queueWaitNanos = connectionWait;
			connectionWait = 0;
			this.match = this.exchange.route(this.head);
			readBodyAhead();
			boolean dispatched = this.exchange.dispatch(this.head, this.match, this.entry, this.runExchange);
			// a handler that left its interrupt status set must not cost the connection: a
			// channel closes when a thread blocked in it is interrupted
			Thread.interrupted();
			if (dispatched && this.exchange.suspended()) {
				awaitEnd();
				Thread.interrupted();
			}
			else {
				endedInline();
			}
			if (!dispatched || !this.keep || !completeMessage()) {
				return true;
			}
			this.parser.reset();
			this.head = null;
		}
		return false;
	}

	/**
	 * Runs the tasks of the suspended exchange as they come, until its end has run. Tasks
	 * given after the end are dropped: the exchange they belong to is over.
	 */
	private void awaitEnd() throws InterruptedException {
		while (this.exchange.suspended()) {
			this.asyncTasks.take().run();
		}
		this.asyncTasks.clear();
	}

	/**
	 * After an exchange that ended on this thread, perhaps with its end asked for while its
	 * handler ran as a suspended one: sends what it offered as a non-blocking writer (the
	 * drain handed to this thread would otherwise wait behind the next request), and drops its
	 * tasks, as {@link #awaitEnd()} does.
	 */
	private void endedInline() throws IOException {
		this.writer.drainQueued();
		this.asyncTasks.clear();
	}

	@Override
	public boolean execute(TaskPool routePool, Runnable task) {
		this.asyncTasks.add(() -> {
			if (!enter(routePool, task)) {
				this.exchange.taskRefused();
			}
		});
		return true;
	}

	@Override
	public void resume(TaskPool routePool) {
		Runnable end = () -> this.keep = this.exchange.endSuspended();
		this.asyncTasks.add(() -> {
			if (!enter(routePool, end)) {
				// the end must run: on this thread, without the permit it could not have
				end.run();
			}
		});
	}

	@Override
	public void awaitReadable(TaskPool routePool, Runnable task) {
		this.asyncTasks.add(() -> {
			this.body.fetch();
			if (!enter(routePool, task)) {
				this.exchange.taskRefused();
			}
		});
	}

	@Override
	public boolean writable(TaskPool routePool, Runnable task) {
		return this.writer.writable(() -> this.asyncTasks.add(() -> {
			if (!enter(routePool, task)) {
				this.exchange.taskRefused();
			}
		}));
	}

	private boolean enter(TaskPool routePool, Runnable task) {
		try {
			return this.entry.enter(routePool, task) == null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** Runs the current exchange, on this thread or on a worker of its route pool. */
	private void runExchange() {
		long waited = this.queueWaitNanos + (System.nanoTime() - this.startNanos);
		this.inExchange = true;
		try {
			this.keep = this.exchange.run(this.head, this.body, this.startNanos, waited, this.match);
		}
		finally {
			this.inExchange = false;
		}
	}

	/**
	 * Reads the rest of a body that fits the input buffer before the request takes a worker of
	 * its pool (in {@code virtual-threads}, its permit), so that a body that arrives slowly
	 * holds this connection's own thread only. A request that expects {@code 100 Continue} goes
	 * at once: its handler decides whether it wants the body.
	 * @throws HttpParseException 408 when the body keeps the server waiting too long
	 */
	private void readBodyAhead() throws IOException, HttpParseException {
		RequestHead head = this.head;
		if (!head.hasBody() || head.expectContinue()) {
			return;
		}
		while (!bodyBuffered() && this.in.remaining() < this.in.capacity()) {
			int read = readBody(true);
			if (read < 0) {
				throw new EOFException("Connection closed in the middle of a request body");
			}
		}
	}

	/** Whether the rest of the current body is in the input buffer. */
	private boolean bodyBuffered() {
		ByteBuffer in = this.in;
		if (this.head.chunked()) {
			return this.chunks.ended(in.array(), in.arrayOffset() + in.position(), in.arrayOffset() + in.limit());
		}
		return in.remaining() >= this.head.contentLength();
	}

	/**
	 * Reads bytes of a body, waiting for them within the body's limits ({@link BodyClock}), and
	 * while this thread holds a worker of a starved pool within the stall timeout too.
	 * @param keep whether to keep what the buffer holds and read after it (a body read ahead),
	 * rather than read into a fully parsed buffer
	 * @return the bytes read, or -1 at the end of the stream
	 * @throws HttpParseException 408 when the body kept the server waiting too long
	 */
	private int readBody(boolean keep) throws IOException, HttpParseException {
		BodyClock clock = this.clock;
		long deadline = clock.startWait(System.nanoTime());
		long poll = this.context.lowResources().pollNanos();
		while (true) {
			long now = System.nanoTime();
			// a thread that holds a worker looks again every poll whether its pool starved
			boolean holds = this.pinsWorker || this.inExchange;
			long until = (holds && poll < deadline - now) ? now + poll : deadline;
			int read;
			try {
				read = keep ? readAfterBuffered(until) : fill(until);
			}
			catch (SocketTimeoutException ex) {
				BodyClock.Expiry expiry = clock.expiry(System.nanoTime(), stallNanos());
				if (expiry == BodyClock.Expiry.NONE) {
					continue;
				}
				this.context.registry().defended(Defence.SLOW_BODY, expiry == BodyClock.Expiry.STALL);
				throw Answers.lateBody(expiry);
			}
			clock.endWait(System.nanoTime(), Math.max(read, 0));
			return read;
		}
	}

	/**
	 * Returns the longest the client may keep this connection's worker (or permit) waiting now.
	 * @return the stall timeout while a pool whose worker waits is starved, else
	 * {@link Long#MAX_VALUE}
	 */
	private long stallNanos() {
		LowResources lowResources = this.context.lowResources();
		boolean holds = this.pinsWorker || this.inExchange;
		long stall = holds ? lowResources.stallNanos(Route.DEFAULT_POOL) : Long.MAX_VALUE;
		RouteMatch match = this.match;
		if (this.inExchange && match != null && !Route.DEFAULT_POOL.equals(match.pool())) {
			stall = Math.min(stall, lowResources.stallNanos(match.pool()));
		}
		return stall;
	}

	/** Reads until a request head is complete; {@code false} when the connection should end. */
	private boolean readHead(boolean first) throws IOException, HttpParseException {
		this.messageDone = false;
		this.content = null;
		long deadline = 0;
		while (true) {
			if (this.in.hasRemaining() && this.parser.parse(this.in) && this.head != null) {
				return true;
			}
			if (this.parser.isIdle()) {
				if (!awaitInput(first)) {
					return false;
				}
				continue;
			}
			if (deadline == 0) {
				deadline = System.nanoTime() + this.context.config().headerTimeout().toNanos();
			}
			if (fillHead(deadline) < 0) {
				if (!this.parser.isIdle()) {
					throw new EOFException("Connection closed in the middle of a request head");
				}
				return false;
			}
		}
	}

	/**
	 * Reads more of a head until its deadline; a worker of the {@code blocking} pool that waits
	 * for a head while the pool is starved gives the client the stall timeout from the head's
	 * first byte, no more.
	 * @throws HttpParseException 408 when the head stalled a worker of a starved pool
	 */
	private int fillHead(long deadline) throws IOException, HttpParseException {
		long poll = this.context.lowResources().pollNanos();
		if (!this.pinsWorker || poll == Long.MAX_VALUE) {
			return fill(deadline);
		}
		long start = deadline - this.context.config().headerTimeout().toNanos();
		while (true) {
			long now = System.nanoTime();
			try {
				return fill((poll < deadline - now) ? now + poll : deadline);
			}
			catch (SocketTimeoutException ex) {
				now = System.nanoTime();
				if (now - deadline >= 0) {
					throw ex;
				}
				if (now - start >= this.context.lowResources().stallNanos(Route.DEFAULT_POOL)) {
					this.context.registry().defended(Defence.SLOW_HEAD, true);
					throw new HttpParseException(Status.REQUEST_TIMEOUT_408, Answers.STALLED);
				}
			}
		}
	}

	/**
	 * Waits for the first bytes of the next request, counted as idle meanwhile. The read blocks
	 * without a socket timeout (a timed read costs a failed read and a poll, or a timer on a
	 * virtual thread, per request): the listener's watchdog closes the connection once it has
	 * been idle past its deadline, as shutdown closes idle connections.
	 * @return whether bytes arrived
	 */
	private boolean awaitInput(boolean first) throws IOException {
		// the response goes out, and the output buffer back to the pool, before going idle
		this.out.flush();
		this.out.release();
		long timeout = (first ? this.context.config().headerTimeout() : this.context.config().keepAliveTimeout())
			.toNanos();
		this.idleTimeout = timeout;
		this.idleDeadline = System.nanoTime() + timeout;
		if (this.context.registry().shuttingDown() || !this.state.compareAndSet(ACTIVE, IDLE)) {
			return false;
		}
		this.context.registry().idle(1);
		int read;
		try {
			if (this.socketTimeoutSet) {
				this.socket.setSoTimeout(0);
				this.socketTimeoutSet = false;
			}
			read = read();
		}
		catch (IOException ex) {
			read = -1;
			if (this.state.get() != CLOSED) {
				throw ex;
			}
		}
		finally {
			this.state.compareAndSet(IDLE, ACTIVE);
			this.context.registry().idle(-1);
		}
		return read > 0 && this.state.get() == ACTIVE;
	}

	/**
	 * Flushes pending output, then reads more input into the (fully consumed) buffer, with a
	 * socket timeout: for the rest of a request, so that a late one can still be answered 408.
	 * @return bytes read, or -1 at end of stream
	 */
	private int fill(long deadlineNanos) throws IOException {
		readTimeout(deadlineNanos);
		return read();
	}

	/**
	 * Flushes pending output, then reads more input after what the buffer holds unparsed (a
	 * body read ahead of its dispatch), with a socket timeout.
	 * @return bytes read, or -1 at end of stream
	 */
	private int readAfterBuffered(long deadlineNanos) throws IOException {
		readTimeout(deadlineNanos);
		ByteBuffer in = this.in;
		in.compact();
		try {
			int read = this.input.read(in.array(), in.arrayOffset() + in.position(), in.remaining());
			if (read > 0) {
				in.position(in.position() + read);
			}
			shareCarrier(read);
			return read;
		}
		finally {
			in.flip();
		}
	}

	/** Flushes pending output, then sets the socket timeout of the next read. */
	private void readTimeout(long deadlineNanos) throws IOException {
		this.out.flush();
		long remaining = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
		if (remaining <= 0) {
			throw new SocketTimeoutException("Read timed out");
		}
		this.socket.setSoTimeout((int) Math.min(remaining, Integer.MAX_VALUE));
		this.socketTimeoutSet = true;
	}

	/** Reads into the (fully consumed) input buffer; returns bytes read, or -1 at end of stream. */
	private int read() throws IOException {
		this.in.clear();
		int read = this.input.read(this.in.array(), 0, this.in.capacity());
		this.in.limit(Math.max(read, 0));
		shareCarrier(read);
		return read;
	}

	/**
	 * On a virtual thread, yields its carrier after every {@value #YIELD_EVERY} bytes read: the
	 * scheduler does not time-slice, and a thread whose reads never wait (a client sending as fast
	 * as it can) would otherwise keep one of the few carriers while others wait for one, for as
	 * long as the client keeps sending. A platform thread is time-sliced by the kernel.
	 */
	private void shareCarrier(int read) {
		if (this.pinsWorker || read <= 0) {
			return;
		}
		this.readSinceYield += read;
		if (this.readSinceYield >= YIELD_EVERY) {
			this.readSinceYield = 0;
			Thread.yield();
		}
	}

	/** Parses past the end of the current request (a body-less request's completion event). */
	private boolean completeMessage() throws IOException, HttpParseException {
		while (!this.messageDone) {
			if (this.parser.state() == RequestParser.State.MESSAGE_END) {
				this.parser.parse(this.in);
				continue;
			}
			return false;
		}
		return true;
	}

	@Override
	public void closeIfExpired(long nowNanos, long writeTimeoutNanos) {
		if (this.state.get() == IDLE && nowNanos - this.idleDeadline >= 0 && closeIfIdle()) {
			return;
		}
		long limit = Math.min(writeTimeoutNanos, stallNanos());
		if (this.writer.stalled(nowNanos, limit)) {
			logger.log(Level.DEBUG, () -> "Closing " + this.socket.getRemoteSocketAddress()
					+ ": it read nothing of its response for " + limit / 1_000_000 + " ms");
			this.context.registry().defended(Defence.SLOW_READER, limit < writeTimeoutNanos);
			abort();
		}
	}

	@Override
	public Thread thread() {
		return this.thread;
	}

	@Override
	public long idleSinceNanos() {
		if (this.state.get() != IDLE) {
			return 0;
		}
		// the deadline is read first: the timeout written before it is then the one it used
		long since = this.idleDeadline - this.idleTimeout;
		return (since != 0) ? since : 1;
	}

	private void refuse(Status status, String reason) {
		try {
			this.out.discard();
			// a request refused for its body (read ahead of its dispatch) was routed: it names the route
			String route = (this.head != null && this.match != null) ? this.match.route() : RequestEvent.INVALID;
			this.exchange.refuse(status, reason, 0, this.head, route);
			this.out.flush();
			lingerAndClose();
		}
		catch (IOException ex) {
			logger.log(Level.DEBUG, "Could not send " + status.code() + " response", ex);
		}
	}

	/**
	 * Half-closes and discards what the client still sends for a moment, so that the error
	 * response is read before the connection resets. Bounded by time only, as in the event
	 * loop: a client still sending a large body would be reset by a close after a byte count.
	 */
	private void lingerAndClose() throws IOException {
		if (this.tls != null) {
			this.writer.watched(this.tls::closeOutbound);
		}
		this.socket.shutdownOutput();
		this.socket.setSoTimeout((int) TimeUnit.NANOSECONDS.toMillis(Answers.LINGER_NANOS));
		long deadline = System.nanoTime() + Answers.LINGER_NANOS;
		byte[] scrap = this.in.array();
		while (System.nanoTime() < deadline) {
			int read = this.input.read(scrap, 0, scrap.length);
			if (read < 0) {
				break;
			}
			shareCarrier(read);
		}
	}

	/**
	 * Answers 503 without reading anything and closes: for a connection that will never get a
	 * worker. Called on the acceptor or shutdown thread, before {@link #serve()} ever ran.
	 * @param reason the body of the response
	 * @param retryAfterSeconds the {@code Retry-After} value, or 0 for none
	 */
	public void reject(String reason, int retryAfterSeconds) {
		if (this.context.tls() != null) {
			// a TLS client cannot read a plaintext answer, and a handshake here costs the
			// thread the refusal is meant to spare
			close();
			return;
		}
		try {
			this.exchange.refuse(Status.SERVICE_UNAVAILABLE_503, reason, retryAfterSeconds, null,
					RequestEvent.REJECTED);
			this.out.flush();
			this.socket.shutdownOutput();
		}
		catch (IOException ex) {
			logger.log(Level.DEBUG, "Could not send 503 response", ex);
		}
		finally {
			close();
		}
	}

	@Override
	public boolean closeIfIdle() {
		if (this.state.compareAndSet(IDLE, CLOSED)) {
			closeSocket();
			return true;
		}
		return false;
	}

	@Override
	public void abort() {
		this.state.set(CLOSED);
		closeSocket();
		// the connection's thread, which waits for the exchange, tells its listeners
		this.exchange.connectionClosed(false);
	}

	private void close() {
		this.state.set(CLOSED);
		closeSocket();
		if (this.tls != null) {
			this.tls.release();
		}
		this.context.registry().closed(this);
	}

	private void closeSocket() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			// nothing left to do with it
		}
	}

	// ---- parser events

	@Override
	public boolean headComplete(RequestHead head) {
		this.head = head;
		this.body.reset(head);
		this.clock.reset();
		this.chunks.reset();
		return true;
	}

	@Override
	public boolean content(ByteBuffer content) {
		this.content = content;
		return true;
	}

	@Override
	public boolean messageComplete() {
		this.messageDone = true;
		return true;
	}

	/** The body, read through the parser from the socket as the handler reads it. */
	private final class SocketBody extends RequestBody {

		private boolean awaitingContinue;

		private boolean hasBody;

		/**
		 * Why the body's framing was lost; every later read fails with it, blocking or not, the
		 * drain too.
		 */
		private volatile HttpParseException framingLost;

		/** A failure a readiness check or a fetch found, thrown by the next non-blocking read. */
		private volatile IOException failure;

		/** Whether the connection's thread is reading for a non-blocking reader. */
		private volatile boolean fetching;

		void reset(RequestHead head) {
			this.hasBody = head.hasBody();
			this.awaitingContinue = this.hasBody && head.expectContinue();
			this.framingLost = null;
			this.failure = null;
		}

		@Override
		public boolean finished() {
			return !this.hasBody || SocketConnection.this.messageDone;
		}

		@Override
		public boolean awaitingContinue() {
			return this.awaitingContinue;
		}

		@Override
		public Headers trailers() {
			return SocketConnection.this.head.trailers();
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
			if (this.fetching) {
				// the connection's thread reads for this reader, which is told when it is done
				return 0;
			}
			return copy(advance(false), bytes, offset, length);
		}

		@Override
		public boolean readableNow() {
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
				this.failure = ex;
				return true;
			}
		}

		/**
		 * Reads, with blocking reads on the connection's thread, until a non-blocking read has
		 * something: the emulation of readiness in the socket models.
		 */
		void fetch() {
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

		private int copy(int state, byte[] bytes, int offset, int length) {
			if (state <= 0) {
				return state;
			}
			ByteBuffer content = SocketConnection.this.content;
			int n = Math.min(length, content.remaining());
			content.get(bytes, offset, n);
			return n;
		}

		/**
		 * Parses and reads until a piece of the body is there to copy: 1 when there is, -1 at
		 * the end, 0 when there is nothing without waiting (only when not waiting).
		 */
		private int advance(boolean wait) throws IOException {
			HttpParseException lost = this.framingLost;
			if (lost != null) {
				// the parser cannot resume: a handler that caught the failure must not read on,
				// nor may the drain after its response wait for bytes that cannot be framed
				throw new BodyException(lost);
			}
			SocketConnection connection = SocketConnection.this;
			if (this.awaitingContinue) {
				this.awaitingContinue = false;
				if (wait) {
					connection.out.append(Answers.CONTINUE);
				}
				else {
					connection.writer.offer(Answers.CONTINUE, 0, Answers.CONTINUE.length);
				}
			}
			while (this.hasBody) {
				ByteBuffer content = connection.content;
				if (content != null && content.hasRemaining()) {
					return 1;
				}
				if (connection.messageDone) {
					return -1;
				}
				if (!connection.in.hasRemaining() && connection.parser.state() != RequestParser.State.MESSAGE_END) {
					if (wait) {
						fillBody(connection);
					}
					else if (!fillAvailable(connection)) {
						return 0;
					}
				}
				try {
					connection.parser.parse(connection.in);
				}
				catch (HttpParseException ex) {
					this.framingLost = ex;
					throw new BodyException(ex);
				}
			}
			return -1;
		}

		/** Reads what the socket has without blocking; {@code false} when it has nothing. */
		private boolean fillAvailable(SocketConnection connection) throws IOException {
			if (connection.input.available() <= 0) {
				return false;
			}
			if (connection.read() < 0) {
				throw new EOFException("Connection closed in the middle of a request body");
			}
			return true;
		}

		private void fillBody(SocketConnection connection) throws IOException {
			try {
				if (connection.readBody(false) < 0) {
					throw new EOFException("Connection closed in the middle of a request body");
				}
			}
			catch (HttpParseException late) {
				// answered 408 like a late head, as the event loop does, unless the handler has
				// committed its response by now
				this.framingLost = late;
				throw new BodyException(late);
			}
		}

	}

}
