package dev.ariadne.server.transport;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import dev.ariadne.http.Status;
import dev.ariadne.server.RateLimitedLogger;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.LowResources;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.connection.TrackedConnection;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.protocol.Http1Protocol;
import dev.ariadne.server.protocol.Wire;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.RequestEvent;
import dev.ariadne.server.tls.PlaintextRequestException;
import dev.ariadne.server.tls.TlsSocket;

/**
 * A connection served by one thread from accept to close, with blocking socket I/O: the wire
 * of the {@code blocking} model, which runs it on a pool worker, and of {@code virtual-threads},
 * which runs it on a virtual thread. The thread is the wire's own: it reads the socket for the
 * protocol ({@link Http1Protocol}), runs each exchange through the model's entry (on itself, or
 * waiting for a route pool's worker), then what the protocol hands back, in order, so pipelined
 * requests are answered in order.
 *
 * <p>While an exchange is suspended, the thread waits for its tasks and runs them through the
 * model's pool entry (a permit, or the route pool), then its end ({@code AsyncHost}); it also
 * reads for a non-blocking reader and writes for a non-blocking writer.
 *
 * <p>Responses are flushed before every blocking read, so pipelined responses leave in one
 * write while their requests are already buffered, and nothing waits unflushed while the
 * connection waits for input. The next request is awaited in a read without a socket timeout:
 * the listener's {@link Watchdog} closes a connection idle past its deadline, and a write that
 * makes no progress.
 *
 * <p>On a TLS listener the thread runs the handshake first, within the handshake timeout, then
 * reads and writes through {@link TlsSocket}'s streams; plaintext HTTP sent to it is answered
 * 400 in plaintext.
 */
public final class SocketWire implements Wire, TrackedConnection {

	private static final Logger logger = System.getLogger(SocketWire.class.getName());

	private static final RateLimitedLogger connectionErrors = RateLimitedLogger.of(logger, Level.ERROR,
			"Connection failed", RateLimitedLogger.DEFAULT_INTERVAL);

	private static final int ACTIVE = 0;

	private static final int IDLE = 1;

	private static final int CLOSED = 2;

	private static final int BUFFER_SIZE = 8192;

	private final ConnectionContext context;

	private final Socket socket;

	private final PoolEntry<InterruptedException> entry;

	/** The entry as the protocol calls it: an interrupt leaves it unchecked, for the loop. */
	private final PoolEntry<RuntimeException> protocolEntry = this::enterForProtocol;

	private final BooleanSupplier releaseConnection;

	private final boolean pinsWorker;

	private final long acceptedNanos;

	private final AtomicInteger state = new AtomicInteger(ACTIVE);

	/** The connection's input buffer, lent to the protocol's reader. */
	private final ByteBuffer in = ByteBuffer.allocate(BUFFER_SIZE).flip();

	private final SocketWriter writer;

	private final InetSocketAddress remote;

	private final InetSocketAddress local;

	private final Http1Protocol protocol;

	/** The tasks of a suspended exchange, and what other threads hand back, for this thread. */
	private final LinkedBlockingQueue<Runnable> asyncTasks = new LinkedBlockingQueue<>();

	/** What this thread hands back to itself: run after what it does now. */
	private final ArrayDeque<Runnable> ownTasks = new ArrayDeque<>();

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

	/** Whether the connection waits for its first request, which the header timeout bounds. */
	private boolean first = true;

	private boolean closed;

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
	public SocketWire(ConnectionContext context, SocketChannel channel, PoolEntry<InterruptedException> entry,
			BooleanSupplier releaseConnection, boolean pinsWorker) {
		this.context = context;
		this.socket = channel.socket();
		this.entry = entry;
		this.releaseConnection = releaseConnection;
		this.pinsWorker = pinsWorker;
		this.acceptedNanos = System.nanoTime();
		this.writer = new SocketWriter(this.socket, context.budget(), this.asyncTasks::add);
		this.remote = (InetSocketAddress) this.socket.getRemoteSocketAddress();
		this.local = (InetSocketAddress) this.socket.getLocalSocketAddress();
		this.protocol = new Http1Protocol(this);
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
			connectionErrors.log(() -> "Connection from " + this.remote + " failed; closed it", ex);
		}
	}

	private void serveUntilClosed() {
		this.thread = Thread.currentThread();
		try {
			this.input = this.socket.getInputStream();
			if (this.context.tls() != null) {
				startTls();
			}
			// blocking: how long the connection waited for a worker, counted with its first request
			this.protocol.waitedForWorker(System.nanoTime() - this.acceptedNanos);
			this.protocol.start(System.nanoTime() + this.context.config().headerTimeout().toNanos());
			run();
		}
		catch (PlaintextRequestException ex) {
			this.protocol.plaintextOnTls();
		}
		catch (Interrupted ex) {
			Thread.currentThread().interrupt();
		}
		catch (IOException | RuntimeException ex) {
			logger.log(Level.DEBUG, () -> "Connection from " + this.remote + " failed", ex);
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
		this.protocol.exchange().tlsSession(this.tls.session());
	}

	/**
	 * The thread's loop: what was handed back first, then what the protocol's phase asks:
	 * reading a request, or the tasks of a suspended exchange.
	 */
	private void run() throws IOException {
		while (!this.closed && this.state.get() != CLOSED) {
			Runnable task = this.ownTasks.poll();
			if (task == null) {
				task = this.asyncTasks.poll();
			}
			if (task != null) {
				task.run();
				// a handler that left its interrupt status set must not cost the connection: a
				// channel closes when a thread blocked in it is interrupted
				Thread.interrupted();
				continue;
			}
			switch (this.protocol.phase()) {
				case READING -> readRequest();
				case DISPATCHED -> {
					try {
						this.asyncTasks.take().run();
					}
					catch (InterruptedException ex) {
						throw new Interrupted(ex);
					}
					Thread.interrupted();
				}
				case FLUSHING -> this.protocol.flushed();
				default -> {
					return;
				}
			}
		}
	}

	/** Reads for the request under way, or waits for the next one. */
	private void readRequest() throws IOException {
		if (this.protocol.isIdle()) {
			awaitRequest();
			return;
		}
		long now = System.nanoTime();
		long deadline = this.protocol.readDeadline();
		// a worker that reads a request looks again every poll whether its pool starved
		long poll = this.pinsWorker ? this.context.lowResources().pollNanos() : Long.MAX_VALUE;
		long until = (poll < deadline - now) ? now + poll : deadline;
		int read = this.protocol.fill(Math.max(until, 1));
		if (read < 0) {
			logger.log(Level.DEBUG, () -> "Connection from " + this.remote + " closed in the middle of a request");
			close();
		}
		else if (read == 0) {
			this.protocol.checkTimeout(System.nanoTime());
		}
		else {
			this.protocol.onInput(read);
			Thread.interrupted();
		}
	}

	/**
	 * Waits for the first bytes of the next request, counted as idle meanwhile. The read blocks
	 * without a socket timeout (a timed read costs a failed read and a poll, or a timer on a
	 * virtual thread, per request): the listener's watchdog closes the connection once it has
	 * been idle past its deadline, as shutdown closes idle connections.
	 */
	private void awaitRequest() throws IOException {
		// the response goes out, and the output buffer back to the pool, before going idle
		this.protocol.out().flush();
		this.protocol.out().release();
		long timeout = (this.first ? this.context.config().headerTimeout() : this.context.config().keepAliveTimeout())
			.toNanos();
		this.first = false;
		this.idleTimeout = timeout;
		this.idleDeadline = System.nanoTime() + timeout;
		if (this.context.registry().shuttingDown() || !this.state.compareAndSet(ACTIVE, IDLE)) {
			close();
			return;
		}
		this.context.registry().idle(1);
		int read;
		try {
			read = this.protocol.fill(Long.MAX_VALUE);
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
		if (read > 0 && this.state.get() == ACTIVE) {
			this.protocol.onInput(read);
			Thread.interrupted();
		}
		else {
			close();
		}
	}

	// ---- the wire

	@Override
	public ConnectionContext context() {
		return this.context;
	}

	@Override
	public InetSocketAddress remoteAddress() {
		return this.remote;
	}

	@Override
	public InetSocketAddress localAddress() {
		return this.local;
	}

	@Override
	public long now() {
		return System.nanoTime();
	}

	@Override
	public PoolEntry<RuntimeException> entry() {
		return this.protocolEntry;
	}

	private dev.ariadne.server.stats.RejectReason enterForProtocol(TaskPool routePool, Runnable exchange) {
		try {
			return this.entry.enter(routePool, exchange);
		}
		catch (InterruptedException ex) {
			throw new Interrupted(ex);
		}
	}

	@Override
	public boolean releaseConnection() {
		return this.releaseConnection.getAsBoolean();
	}

	@Override
	public ByteBuffer borrowInput() {
		// the connection's own buffer: lent whole, empty
		return this.in.position(0).limit(0);
	}

	@Override
	public void releaseInput(ByteBuffer buffer) {
		// the connection keeps its buffer
	}

	@Override
	public int read(ByteBuffer in, long until) throws IOException {
		if (until == 0) {
			// what the socket has, without blocking
			return (this.input.available() > 0) ? readInto(in) : 0;
		}
		this.protocol.out().flush();
		if (until == Long.MAX_VALUE) {
			if (this.socketTimeoutSet) {
				this.socket.setSoTimeout(0);
				this.socketTimeoutSet = false;
			}
		}
		else {
			long remaining = TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime());
			if (remaining <= 0) {
				return 0;
			}
			this.socket.setSoTimeout((int) Math.min(remaining, Integer.MAX_VALUE));
			this.socketTimeoutSet = true;
		}
		try {
			return readInto(in);
		}
		catch (SocketTimeoutException ex) {
			return 0;
		}
	}

	/** Reads into the buffer after what it holds; -1 at the end of the stream. */
	private int readInto(ByteBuffer in) throws IOException {
		in.compact();
		try {
			int read = this.input.read(in.array(), in.arrayOffset() + in.position(), in.remaining());
			if (read > 0) {
				in.position(in.position() + read);
			}
			return read;
		}
		finally {
			in.flip();
		}
	}

	@Override
	public boolean holdsWorker(boolean inExchange) {
		return this.pinsWorker || inExchange;
	}

	@Override
	public boolean pinsWorker() {
		return this.pinsWorker;
	}

	@Override
	public long stallNanos(String pool, boolean inExchange) {
		LowResources lowResources = this.context.lowResources();
		long stall = holdsWorker(inExchange) ? lowResources.stallNanos(Route.DEFAULT_POOL) : Long.MAX_VALUE;
		if (inExchange && pool != null && !Route.DEFAULT_POOL.equals(pool)) {
			stall = Math.min(stall, lowResources.stallNanos(pool));
		}
		return stall;
	}

	@Override
	public ConnectionOutput.Transmitter transmitter() {
		return this.writer;
	}

	@Override
	public boolean hasPendingWrites() {
		// writes are done by the thread that asks for them, before it goes on
		return false;
	}

	@Override
	public void execute(Runnable task) {
		if (Thread.currentThread() == this.thread) {
			this.ownTasks.add(task);
		}
		else {
			this.asyncTasks.add(task);
		}
	}

	@Override
	public void readAgain() {
		// the thread reads when its loop comes to it
	}

	@Override
	public void idle(boolean idle) {
		// counted around the read that waits for the next request (awaitRequest)
	}

	@Override
	public void exchangeEnded() {
		try {
			// what a suspended exchange offered without waiting leaves before the rest, and its
			// tasks are over with it
			this.writer.drainQueued();
		}
		catch (IOException ex) {
			// kept by the writer: the flush that follows fails with it
		}
		this.asyncTasks.clear();
	}

	@Override
	public void exchangeFailed(Throwable failure) {
		if (failure instanceof Error error) {
			throw error;
		}
		if (failure instanceof RuntimeException runtime) {
			throw runtime;
		}
		throw new IllegalStateException(failure);
	}

	@Override
	public void closeAfterAnswer(ConnectionOutput out, boolean always) {
		try {
			out.flush();
			if (always || this.in.hasRemaining() || this.input.available() > 0) {
				// the client is still sending (pipelined requests, an unread body): closing with
				// unread input resets the connection, which can destroy the last response before
				// the client reads it. Only then, since lingering holds this thread.
				lingerAndClose();
			}
		}
		catch (IOException ex) {
			logger.log(Level.DEBUG, "Could not send the last response", ex);
		}
		close();
	}

	/**
	 * Half-closes and discards what the client still sends for a moment, so that the last
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
			if (this.input.read(scrap, 0, scrap.length) < 0) {
				break;
			}
		}
	}

	// ---- a suspended exchange

	@Override
	public boolean execute(TaskPool routePool, Runnable task) {
		this.asyncTasks.add(() -> {
			if (!enter(routePool, task)) {
				this.protocol.exchange().taskRefused();
			}
		});
		return true;
	}

	@Override
	public void resume(TaskPool routePool) {
		String pool = (routePool != null) ? routePool.name() : Route.DEFAULT_POOL;
		Runnable end = () -> this.protocol.endSuspended(pool);
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
			this.protocol.fetchBody();
			if (!enter(routePool, task)) {
				this.protocol.exchange().taskRefused();
			}
		});
	}

	@Override
	public boolean writable(TaskPool routePool, Runnable task) {
		return this.writer.writable(() -> this.asyncTasks.add(() -> {
			if (!enter(routePool, task)) {
				this.protocol.exchange().taskRefused();
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

	// ---- the watchdog, the acceptor, shutdown

	@Override
	public void closeIfExpired(long nowNanos, long writeTimeoutNanos) {
		if (this.state.get() == IDLE && nowNanos - this.idleDeadline >= 0 && closeIfIdle()) {
			return;
		}
		long limit = Math.min(writeTimeoutNanos, stallNanos(this.protocol.workerPool(), this.protocol.inExchange()));
		if (this.writer.stalled(nowNanos, limit)) {
			logger.log(Level.DEBUG, () -> "Closing " + this.remote + ": it read nothing of its response for "
					+ limit / 1_000_000 + " ms");
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
			this.protocol.exchange().refuse(Status.SERVICE_UNAVAILABLE_503, reason, retryAfterSeconds, null,
					RequestEvent.REJECTED);
			this.protocol.out().flush();
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
		this.protocol.exchange().connectionClosed(false);
	}

	@Override
	public void close() {
		this.state.set(CLOSED);
		if (this.closed) {
			return;
		}
		this.closed = true;
		closeSocket();
		if (this.tls != null) {
			this.tls.release();
		}
		this.protocol.closed();
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

	/** An interrupt of the connection's thread, carried through the protocol to its loop. */
	private static final class Interrupted extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Interrupted(InterruptedException cause) {
			super(cause);
		}

	}

}
