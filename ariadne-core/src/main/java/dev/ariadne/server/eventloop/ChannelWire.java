package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.LockSupport;

import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.connection.TrackedConnection;
import dev.ariadne.server.pool.TaskPool;
import dev.ariadne.server.protocol.Http1Phase;
import dev.ariadne.server.protocol.Http1Protocol;
import dev.ariadne.server.protocol.Wire;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.tls.PlaintextRequestException;
import dev.ariadne.server.tls.TlsChannel;

/**
 * One connection of the event-loop model, attached to its selection key: the wire its protocol
 * ({@link Http1Protocol}) runs on. The selector reads the socket while the protocol reads a
 * request, writes what the {@link WriteQueue} holds as the socket takes it, watches for input a
 * worker waits for, and enforces the deadlines; it never blocks and never runs a handler.
 *
 * <p>Thread ownership: the selector thread owns the key and lends the input buffers; while a
 * request is with a worker, the worker owns the protocol's input and output, and reads the body
 * from the socket itself ({@link #read} with a deadline: a demand on the selector, then a park).
 * The selector reads nothing while a request is with a worker but for that demand: pipelined
 * requests are answered in order, and neither they nor a body are buffered beyond the one input
 * buffer.
 *
 * <p>On a TLS listener, reads and writes go through a {@link TlsChannel} over the socket: its
 * handshake runs on the selector as the connection reads, within the handshake timeout; the
 * connection only watches for writability while handshake or close_notify bytes wait, and
 * reads again when the channel holds input the socket will not signal.
 */
final class ChannelWire implements Wire, TrackedConnection, WriteQueue.Stalls {

	private static final Logger logger = System.getLogger(ChannelWire.class.getName());

	private final SelectorLoop loop;

	private final SocketChannel channel;

	/** What reads and writes go through: the socket, or TLS over it. */
	private final ByteChannel io;

	/** TLS over the socket, or {@code null} on a plaintext listener. */
	private final TlsChannel tls;

	private final ConnectionContext context;

	private final PoolEntry<RuntimeException> entry;

	private final WriteQueue writes;

	private final InetSocketAddress remote;

	private final InetSocketAddress local;

	private final long writeTimeoutNanos;

	private final Http1Protocol protocol;

	/** Signals the worker waiting for input; created once, handed to the selector per wait. */
	private final Runnable wake = this::wake;

	private volatile Thread waiting;

	private volatile boolean signalled;

	// ---- selector thread only

	private SelectionKey key;

	/** When a closing connection stops lingering. */
	private long lingerDeadline;

	/** What to tell once input arrives, for a worker waiting for more of a body; or {@code null}. */
	private Runnable readDemand;

	/**
	 * When a non-blocking reader of a body gives up waiting for more, by the body's clock; 0 when
	 * the waiting thread keeps its own time.
	 */
	private long demandDeadline;

	ChannelWire(SelectorLoop loop, SocketChannel channel, ConnectionContext context, PoolEntry<RuntimeException> entry)
			throws IOException {
		this.loop = loop;
		this.channel = channel;
		this.context = context;
		this.entry = entry;
		this.tls = (context.tls() != null) ? context.tls().channel(channel, this::handshaken) : null;
		this.io = (this.tls != null) ? this.tls : channel;
		this.writeTimeoutNanos = context.config().keepAliveTimeout().toNanos();
		this.writes = new WriteQueue(this.io, loop, this::watchWritable, context.config().keepAliveTimeout(),
				context.budget(), this);
		this.remote = (InetSocketAddress) channel.getRemoteAddress();
		this.local = (InetSocketAddress) channel.getLocalAddress();
		this.protocol = new Http1Protocol(this);
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
		long timeout = (this.tls != null) ? this.context.tls().handshakeTimeoutNanos()
				: this.context.config().headerTimeout().toNanos();
		this.protocol.start(this.loop.now() + timeout);
	}

	/** The TLS handshake completed (selector thread): the first request's time starts. */
	private void handshaken() {
		this.protocol.handshaken(this.tls.session());
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
			Http1Phase phase = this.protocol.phase();
			if (phase == Http1Phase.READING) {
				onReadable();
			}
			else if (phase == Http1Phase.CLOSING) {
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
				// nobody reads yet): stop watching until the protocol reads again or a demand.
				// Read interest is dropped only here, lazily, so the usual request-response turn
				// changes no interest at all (no epoll_ctl)
				key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
			}
		}
	}

	private void onReadable() {
		int read;
		try {
			read = this.protocol.fill(0);
		}
		catch (PlaintextRequestException ex) {
			this.protocol.plaintextOnTls();
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
			if (!this.protocol.holdsInput()) {
				// at the buffer budget: read no more until a buffer is free (back-pressure)
				this.key.interestOps(this.key.interestOps() & ~SelectionKey.OP_READ);
				this.protocol.awaitingInputBuffer();
				this.loop.awaitBuffer(this);
				return;
			}
			this.protocol.releaseEmptyInput();
			watchTlsWrites();
			return;
		}
		watchTlsWrites();
		this.protocol.onInput(read);
		readTlsBuffered();
	}

	/** Reads again what TLS decrypted and the socket will not signal, while the protocol reads. */
	private void readTlsBuffered() {
		if (this.tls != null && this.protocol.phase() == Http1Phase.READING && this.tls.hasBufferedInput()) {
			this.loop.execute(this::readBuffered);
		}
	}

	private void readBuffered() {
		if (this.protocol.phase() == Http1Phase.READING) {
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
		if (this.protocol.phase() != Http1Phase.READING) {
			return true;
		}
		if (!this.protocol.borrowInput()) {
			return false;
		}
		this.key.interestOps(this.key.interestOps() | SelectionKey.OP_READ);
		return true;
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
		// the protocol asks on the selector thread only
		return this.loop.now();
	}

	@Override
	public PoolEntry<RuntimeException> entry() {
		return this.entry;
	}

	@Override
	public boolean releaseConnection() {
		return false;
	}

	@Override
	public ByteBuffer borrowInput() {
		return this.loop.buffers().borrow();
	}

	@Override
	public void releaseInput(ByteBuffer buffer) {
		this.loop.releaseBuffer(buffer);
	}

	@Override
	public int read(ByteBuffer in, long until) throws IOException {
		while (true) {
			int read = readHeld(in);
			if (read != 0 || until == 0 || !awaitInput(until)) {
				return read;
			}
		}
	}

	/** Reads what the socket has into the buffer, after what is left in it. */
	private int readHeld(ByteBuffer in) throws IOException {
		in.compact();
		try {
			return this.io.read(in);
		}
		finally {
			in.flip();
		}
	}

	/**
	 * Waits for the selector's signal that input arrived (or the connection closed), at most
	 * until a deadline; a worker's, never the selector's.
	 * @return whether signalled; {@code false} at the deadline
	 */
	private boolean awaitInput(long until) throws IOException {
		this.signalled = false;
		this.waiting = Thread.currentThread();
		// the worker keeps its own time: the selector only tells it when input arrives
		demandRead(this.wake, 0);
		try {
			while (!this.signalled) {
				long left = until - System.nanoTime();
				if (left <= 0) {
					return false;
				}
				LockSupport.parkNanos(this, left);
				if (Thread.currentThread().isInterrupted()) {
					throw new IOException("Interrupted while waiting for the request body");
				}
			}
			return true;
		}
		finally {
			this.waiting = null;
		}
	}

	/** The selector saw input, or the connection closed; any thread. */
	private void wake() {
		this.signalled = true;
		Thread thread = this.waiting;
		if (thread != null) {
			LockSupport.unpark(thread);
		}
	}

	@Override
	public boolean holdsWorker(boolean inExchange) {
		// only a worker ever waits for a client here: the selector never does
		return true;
	}

	@Override
	public boolean pinsWorker() {
		return false;
	}

	@Override
	public long stallNanos(String pool, boolean inExchange) {
		return this.context.lowResources().stallNanos(pool);
	}

	@Override
	public ConnectionOutput.Transmitter transmitter() {
		return this.writes;
	}

	@Override
	public boolean hasPendingWrites() {
		return this.writes.hasPending();
	}

	@Override
	public void execute(Runnable task) {
		this.loop.execute(task);
	}

	@Override
	public void idle(boolean idle) {
		this.context.registry().idle(idle ? 1 : -1);
	}

	@Override
	public void exchangeEnded() {
		// what a non-blocking writer offered is in the write queue already, in order
	}

	@Override
	public void exchangeFailed(Throwable failure) {
		this.loop.workerFailed(failure, this.protocol::abandoned);
	}

	/**
	 * Queues the answer in the output, then closes once it is written and the client had a
	 * moment to read it. Selector thread.
	 */
	@Override
	public void closeAfterAnswer(ConnectionOutput out, boolean always) {
		try {
			out.flushTo(this.writes::enqueue);
		}
		catch (IOException ex) {
			close();
			return;
		}
		out.release();
		this.lingerDeadline = this.loop.now() + Answers.LINGER_NANOS;
		if (!this.writes.hasPending()) {
			startLinger();
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
			if (this.entry.enter(routePool, () -> this.protocol.endSuspended(pool)) != null) {
				abandonSuspended();
			}
		});
	}

	@Override
	public void awaitReadable(TaskPool routePool, Runnable task) {
		// a non-blocking reader holds no worker while it waits: the body's own limits apply
		long deadline = this.protocol.nonBlockingReadWait();
		demandRead(() -> {
			if (this.entry.enter(routePool, task) != null) {
				this.protocol.exchange().taskRefused();
			}
		}, deadline);
	}

	@Override
	public boolean writable(TaskPool routePool, Runnable task) {
		return this.writes.writable(() -> {
			if (this.entry.enter(routePool, task) != null) {
				this.protocol.exchange().taskRefused();
			}
		});
	}

	/** The pool refused the end of a suspended exchange (it is stopping): close; selector thread. */
	private void abandonSuspended() {
		logger.log(Level.WARNING, "The pool refused to end a suspended exchange; closing its connection");
		close();
		this.protocol.abandonSuspended();
	}

	// ---- reading a body (a worker asks, the selector watches)

	/**
	 * Asks the selector to tell the thread reading this connection's body once input arrives
	 * (or the connection closes). Any thread but the selector, while the exchange holds the
	 * connection; the reader then reads the socket itself.
	 * @param wake what to run on the selector thread; it must not block
	 * @param deadline when to give up, by the body's clock, for a non-blocking reader; 0 for a
	 * thread that waits and keeps its own time
	 */
	private void demandRead(Runnable wake, long deadline) {
		this.loop.execute(() -> watchInput(wake, deadline));
	}

	private void watchInput(Runnable wake, long deadline) {
		if (this.protocol.phase() == Http1Phase.CLOSED) {
			wake.run();
			return;
		}
		this.readDemand = wake;
		this.demandDeadline = deadline;
		this.key.interestOps(this.key.interestOps() | SelectionKey.OP_READ);
	}

	/** Tells a non-blocking reader of a body that waited for more past its deadline; selector thread. */
	private void demandExpired(long now) {
		long next = this.protocol.nonBlockingReadExpired(now);
		if (next != 0) {
			// bytes came in the meantime and the reader waits again: its new deadline holds
			this.demandDeadline = next;
			return;
		}
		Runnable demand = this.readDemand;
		this.readDemand = null;
		demand.run();
	}

	// ---- slow readers

	@Override
	public long writeLimitNanos() {
		return Math.min(this.writeTimeoutNanos, this.context.lowResources().stallNanos(this.protocol.workerPool()));
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
		Http1Phase phase = this.protocol.phase();
		if (phase == Http1Phase.FLUSHING) {
			flushed();
		}
		else if (phase == Http1Phase.CLOSING) {
			startLinger();
		}
	}

	/** The last exchange's response is written: the protocol goes on. */
	private void flushed() {
		this.protocol.flushed();
	}

	@Override
	public void readAgain() {
		this.key.interestOps(SelectionKey.OP_READ);
		if (this.tls != null && this.tls.hasBufferedInput()) {
			// decrypted input waits that the socket will not signal again
			this.loop.execute(this::readBuffered);
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

	// ---- timeouts, idle, close (selector thread)

	/**
	 * Returns whether {@link #checkTimeout} has something to do: a cheap test the loop's
	 * periodic scan applies to every connection, without side effects.
	 */
	boolean isDue(long now) {
		return switch (this.protocol.phase()) {
			case READING -> this.protocol.isDue(now);
			case FLUSHING, CLOSING -> true;
			case DISPATCHED -> this.readDemand != null && this.demandDeadline != 0 && now - this.demandDeadline >= 0;
			default -> false;
		};
	}

	/** Enforces this connection's deadline; called by the loop's periodic scan. */
	void checkTimeout(long now) {
		switch (this.protocol.phase()) {
			case READING -> this.protocol.checkTimeout(now);
			case FLUSHING, CLOSING -> {
				if (this.writes.stalled(now)) {
					writeCut(false);
					close();
				}
				else if (this.protocol.phase() == Http1Phase.CLOSING && now - this.lingerDeadline >= 0) {
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

	boolean isIdle() {
		return this.protocol.isIdle();
	}

	/** Closes now; selector thread. */
	@Override
	public void close() {
		if (this.protocol.phase() == Http1Phase.CLOSED) {
			return;
		}
		this.writes.close();
		if (this.readDemand != null) {
			// the reader finds the channel closed
			Runnable demand = this.readDemand;
			this.readDemand = null;
			demand.run();
		}
		if (this.key != null) {
			this.key.cancel();
		}
		try {
			this.io.close();
		}
		catch (IOException ex) {
			logger.log(Level.DEBUG, "Closing a connection failed", ex);
		}
		this.protocol.closed();
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
		// a suspended exchange is told here, on the thread that stops the server, before the
		// pools stop: they may drop what is queued then
		this.protocol.exchange().connectionClosed(true);
		this.loop.execute(this::close);
	}

}
