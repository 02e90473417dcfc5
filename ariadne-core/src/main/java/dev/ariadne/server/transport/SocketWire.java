package dev.ariadne.server.transport;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import javax.net.ssl.SSLSession;

import dev.ariadne.server.connection.AsyncHost;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.LowResources;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.stats.StreamCount;
import dev.ariadne.server.connection.TrackedConnection;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.protocol.HostedExchange;
import dev.ariadne.server.protocol.Protocol;
import dev.ariadne.server.protocol.Wire;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.tls.PlaintextRequestException;
import dev.ariadne.server.tls.TlsSocket;

/**
 * The wire of a connection served by one thread from accept to close with blocking socket I/O:
 * a pool worker in {@code blocking}, a virtual thread in {@code virtual-threads}. The thread is
 * the wire's own ({@link SocketLoop}): it reads the socket for the protocol
 * ({@link Protocol}), which runs each exchange through the model's entry, on the thread
 * itself or waiting for a route pool's worker, so pipelined requests are answered in order.
 * What the wire gives the protocol:
 *
 * <ul>
 * <li>reads ({@link SocketInput}): of what is there, until a deadline (a socket timeout), or
 * without one for the next request, into the connection's own 8 KiB buffer; the output is
 * flushed before every read that waits, so pipelined responses leave in one write while their
 * requests are already buffered, and nothing waits unflushed while the client is awaited;</li>
 * <li>writes that wait for the socket ({@link SocketWriter}), and a queue for a non-blocking
 * writer, which the thread drains;</li>
 * <li>the work of a suspended exchange, queued for the thread, which runs it through the
 * model's pool entry ({@link SocketHost});</li>
 * <li>the linger after a last answer, on the thread, and the limits the {@link Watchdog}
 * enforces from its own: an idle connection past its deadline ({@link IdleState}), a write
 * that makes no progress.</li>
 * </ul>
 *
 * <p>On a TLS listener the thread runs the handshake first, within the handshake timeout, then
 * reads and writes through {@link TlsSocket}'s streams; plaintext HTTP sent to it is answered
 * 400 in plaintext.
 */
public final class SocketWire implements Wire, TrackedConnection {

	private static final Logger logger = System.getLogger(SocketWire.class.getName());

	private static final int BUFFER_SIZE = 8192;

	private final ConnectionContext context;

	private final Socket socket;

	private final PoolEntry<InterruptedException> entry;

	private final BooleanSupplier releaseConnection;

	private final Predicate<Runnable> fork;

	private final boolean pinsWorker;

	private final IdleState idle = new IdleState();

	/** The connection's input buffer, lent to the protocol's reader. */
	private final ByteBuffer in = ByteBuffer.allocate(BUFFER_SIZE).flip();

	private final SocketWriter writer;

	private final InetSocketAddress remote;

	private final InetSocketAddress local;

	/** The connection's protocol: the connection's thread replaces it ({@link #handOff}); read by any. */
	private volatile Protocol protocol;

	private final SocketLoop loop;

	private final SocketInput input;

	/** Whether the exchange switched protocols, and what changes then. */
	private final SocketTunnel tunnel;

	/** The entry as the protocol calls it: an interrupt comes out unchecked, for the loop. */
	private final PoolEntry<RuntimeException> protocolEntry = this::enterForProtocol;

	/** The connection's TLS streams once its handshake completed, or {@code null}. */
	private TlsSocket tls;

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
	 * @param fork runs the dispatch of a multiplexed exchange on a thread other than the
	 * connection's ({@link Wire#fork})
	 * @param first makes the connection's first protocol
	 */
	public SocketWire(ConnectionContext context, SocketChannel channel, PoolEntry<InterruptedException> entry,
			BooleanSupplier releaseConnection, boolean pinsWorker, Predicate<Runnable> fork, Protocol.Factory first) {
		this.context = context;
		this.fork = fork;
		this.socket = channel.socket();
		this.entry = entry;
		this.releaseConnection = releaseConnection;
		this.pinsWorker = pinsWorker;
		this.loop = new SocketLoop(this, context, this.idle, pinsWorker);
		this.writer = new SocketWriter(this.socket, context.budget(), this.loop::hand);
		this.tunnel = new SocketTunnel(this.socket, this.writer);
		// a virtual thread yields its carrier now and then; a pool worker is time-sliced
		this.input = new SocketInput(this.socket, !pinsWorker);
		this.remote = (InetSocketAddress) this.socket.getRemoteSocketAddress();
		this.local = (InetSocketAddress) this.socket.getLocalSocketAddress();
		this.protocol = first.create(this);
	}

	/**
	 * Serves the connection until it closes. Runs on the connection's thread ({@link SocketLoop});
	 * returns when the connection is closed, whatever happened.
	 */
	public void serve() {
		this.loop.serve();
	}

	/**
	 * Opens the connection's streams, on its thread: on a TLS listener after the handshake, and
	 * from then on the connection reads and writes through TLS.
	 * @throws IOException if the handshake failed; a {@link PlaintextRequestException} if the
	 * client sent plaintext HTTP
	 */
	void open() throws IOException {
		this.input.use(this.socket.getInputStream());
		if (this.context.tls() != null) {
			this.tls = this.context.tls().handshake(this.socket);
			this.input.use(this.tls.input());
			this.writer.output(this.tls.output());
			this.protocol.handshaken(this.tls.session());
		}
	}

	/**
	 * Returns whether the connection is closed, or being closed.
	 * @return whether closed
	 */
	boolean isClosed() {
		return this.closed || this.idle.closed();
	}

	/**
	 * Returns the connection's protocol.
	 * @return the protocol
	 */
	Protocol protocol() {
		return this.protocol;
	}

	// ---- the wire

	@Override
	public ConnectionContext context() {
		return this.context;
	}

	@Override
	public AsyncHost host(HostedExchange exchange) {
		return new SocketHost(exchange, this.loop, this.entry, this.writer, this.tunnel, this.fork);
	}

	@Override
	public SSLSession tlsSession() {
		return (this.tls != null) ? this.tls.session() : null;
	}

	@Override
	public String applicationProtocol() {
		return (this.tls != null) ? this.tls.applicationProtocol() : null;
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

	/**
	 * The model's pool entry as the protocol calls it, on the connection's thread: an interrupt
	 * while waiting for a turn comes out as an unchecked exception, which ends the thread's loop.
	 */
	private RejectReason enterForProtocol(TaskPool routePool, Runnable exchange) {
		try {
			return this.entry.enter(routePool, exchange);
		}
		catch (InterruptedException ex) {
			throw new SocketLoop.Interrupted(ex);
		}
	}

	@Override
	public boolean fork(Runnable task) {
		return this.fork.test(task);
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
		if (until != 0 && !this.tunnel.on()) {
			// what the exchange answered leaves before the thread waits for the client; in a
			// tunnel another thread writes
			this.protocol.out().flush();
		}
		return this.tunnel.read(this.input, in, until);
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
	public void send(ConnectionOutput out) throws IOException {
		out.flush();
	}

	@Override
	public boolean hasPendingWrites() {
		// writes are done by the thread that asks for them, before it goes on
		return false;
	}

	@Override
	public String protocolName() {
		return this.protocol.name();
	}

	@Override
	public StreamCount streams() {
		return this.protocol.streams();
	}

	@Override
	public boolean writesBacklogged() {
		return false;
	}

	@Override
	public void execute(Runnable task) {
		this.loop.execute(task);
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
	public void tunnel() {
		this.tunnel.start();
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
		this.loop.dropHanded();
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

	/** Sends TLS close_notify, then lingers ({@link SocketInput#linger}). */
	private void lingerAndClose() throws IOException {
		if (this.tls != null) {
			this.writer.watched(this.tls::closeOutbound);
		}
		this.input.linger(this.in.array());
	}

	@Override
	public void handOff(Protocol.Factory next, ByteBuffer unread) {
		Protocol protocol = next.create(this);
		this.protocol = protocol;
		// the connection's loop drives it from its next turn
		protocol.takeOver(unread);
	}

	// ---- the watchdog, the acceptor, shutdown

	@Override
	public void closeIfExpired(long nowNanos, long writeTimeoutNanos) {
		if (this.idle.expired(nowNanos) && closeIdleNow()) {
			return;
		}
		long limit = Math.min(writeTimeoutNanos, stallNanos(this.protocol.workerPool(), this.protocol.inExchange()));
		if (this.writer.stalled(nowNanos, limit)) {
			logger.log(Level.DEBUG, () -> "Closing " + this.remote + ": it read nothing of its response for "
					+ limit / 1_000_000 + " ms");
			this.context.registry().defended(Defence.SLOW_READER, limit < writeTimeoutNanos);
			abort(false);
		}
	}

	@Override
	public Thread thread() {
		return this.loop.thread();
	}

	@Override
	public long idleSinceNanos() {
		return this.idle.since();
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
			this.protocol.reject(reason, retryAfterSeconds);
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
		// a connection whose thread says goodbye first (HTTP/2's GOAWAY) closes itself within a poll
		return !this.idle.ownTimer() && closeIdleNow();
	}

	private boolean closeIdleNow() {
		if (this.idle.closeIfIdle()) {
			closeSocket();
			return true;
		}
		return false;
	}

	@Override
	public void abort() {
		// a tunnel's thread may wait in a read, and leaves once it fails: the listeners are told
		// here, on the thread that stops the server, before the pools stop
		abort(this.tunnel.on());
	}

	private void abort(boolean tellHere) {
		this.idle.close();
		if (tellHere) {
			// before the socket closes: that wakes the tunnel's reader, which may end the exchange
			this.protocol.abort(true);
			closeSocket();
			return;
		}
		closeSocket();
		// the connection's thread, which waits for the exchange, tells its listeners
		this.protocol.abort(false);
	}

	@Override
	public void close() {
		this.idle.close();
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

}
