package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

import javax.net.ssl.SSLSession;

import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.AsyncHost;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.PoolEntry;
import dev.ariadne.server.stats.StreamCount;
import dev.ariadne.server.connection.TrackedConnection;
import dev.ariadne.server.protocol.HostedExchange;
import dev.ariadne.server.protocol.Phase;
import dev.ariadne.server.protocol.Protocol;
import dev.ariadne.server.protocol.Wire;
import dev.ariadne.server.tls.TlsChannel;

/**
 * One connection of the event-loop model, attached to its selection key: the wire its
 * {@link Protocol} runs on. The selector reads the socket while the protocol reads a
 * request, writes what the {@link WriteQueue} holds as the socket takes it, watches for input a
 * worker waits for, and enforces the deadlines; it never blocks and never runs a handler. What
 * a readable socket means in each phase is its {@link ChannelInput}'s.
 *
 * <p>Thread ownership: the selector thread owns the key and lends the input buffers; while a
 * request is with a worker, the worker owns the protocol's input and output and reads the body
 * from the socket itself ({@link #read} with a deadline: a demand on the selector, then a park),
 * and the selector reads nothing else: pipelined requests are answered in order, and neither
 * they nor a body are buffered beyond the one input buffer. Only for a non-blocking reader of a
 * connection that switched protocols does the selector read what arrived into that reader's
 * buffer before it tells it ({@link Protocol#unparkInput}).
 *
 * <p>On a TLS listener, reads and writes go through a {@link TlsChannel} over the socket: its
 * handshake runs on the selector as the connection reads, within the handshake timeout; the
 * connection only watches for writability while handshake or close_notify bytes wait, and
 * reads again when the channel holds input the socket will not signal.
 */
final class ChannelWire implements Wire, TrackedConnection {

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

	private final WriteStalls stalls;

	/** The connection's protocol: the wire's own thread replaces it ({@link #handOff}); read by any. */
	private volatile Protocol protocol;

	private final InputDemand demand;

	private final ChannelInput input;

	// ---- selector thread only

	private SelectionKey key;

	/** When a closing connection stops lingering. */
	private long lingerDeadline;

	ChannelWire(SelectorLoop loop, SocketChannel channel, ConnectionContext context, PoolEntry<RuntimeException> entry,
			Protocol.Factory first) throws IOException {
		this.loop = loop;
		this.channel = channel;
		this.context = context;
		this.entry = entry;
		this.tls = (context.tls() != null) ? context.tls().channel(channel, this::handshaken) : null;
		this.io = (this.tls != null) ? this.tls : channel;
		this.stalls = new WriteStalls(context, () -> protocol().workerPool());
		this.writes = new WriteQueue(this.io, loop, this::watchWritable, context.config().keepAliveTimeout(),
				context.budget(), this.stalls);
		this.remote = (InetSocketAddress) channel.getRemoteAddress();
		this.local = (InetSocketAddress) channel.getLocalAddress();
		this.demand = new InputDemand(loop, this.io, this);
		this.input = new ChannelInput(this, loop, channel, this.tls, this.demand);
		this.protocol = first.create(this);
	}

	/** Returns the selector loop that owns this connection. */
	SelectorLoop loop() {
		return this.loop;
	}

	/** Returns the connection's protocol. */
	Protocol protocol() {
		return this.protocol;
	}

	/** Returns the connection's selection key; selector thread. */
	SelectionKey key() {
		return this.key;
	}

	/** Returns the wait for input of the thread that reads the body of a dispatched request. */
	InputDemand demand() {
		return this.demand;
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
		this.protocol.start(this.loop.now() + timeout, 0);
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
			this.input.onReadable(key);
		}
	}

	/**
	 * Reads again after waiting for an input buffer, if one can be borrowed now; selector
	 * thread.
	 * @return whether the connection waits no more (it got a buffer, or reads nothing any more)
	 */
	boolean resumeReading() {
		return this.input.resumeReading(this.key);
	}

	// ---- the wire

	@Override
	public ConnectionContext context() {
		return this.context;
	}

	@Override
	public AsyncHost host(HostedExchange exchange) {
		return new ChannelHost(this, this.loop, this.entry, this.writes, exchange);
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
		return this.loop.now();
	}

	@Override
	public PoolEntry<RuntimeException> entry() {
		return this.entry;
	}

	@Override
	public boolean fork(Runnable task) {
		// the entry queues the exchange on its pool: the calling thread goes on at once
		task.run();
		return true;
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
		return this.demand.read(in, until);
	}

	@Override
	public boolean holdsWorker(boolean inExchange) {
		// only a worker ever waits for a client here: the selector never does
		return true;
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
	public void send(ConnectionOutput out) throws IOException {
		out.flushTo(this.writes::enqueue);
	}

	@Override
	public boolean hasPendingWrites() {
		return this.writes.hasPending();
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
		return this.writes.backlogged();
	}

	@Override
	public void execute(Runnable task) {
		this.loop.execute(task);
	}

	@Override
	public boolean executesSoon() {
		return true;
	}

	@Override
	public void idle(boolean idle) {
		this.context.registry().idle(idle ? 1 : -1);
	}

	@Override
	public void exchangeFailed(Throwable failure) {
		this.loop.workerFailed(failure, () -> this.protocol.abandoned());
	}

	@Override
	public void closeAfterAnswer(ConnectionOutput out, boolean always) {
		try {
			send(out);
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

	// ---- writing (selector thread)

	/**
	 * Watches for input a thread reading the body waits for; selector thread. The demand then
	 * gives back the input buffer of an idle tunnel ({@link Protocol#parkIdleInput}).
	 */
	void watchReadable() {
		this.key.interestOps(this.key.interestOps() | SelectionKey.OP_READ);
	}

	/** Whether the connection is closed; selector thread. */
	boolean isClosed() {
		return this.protocol.phase() == Phase.CLOSED;
	}

	/** Watches the socket for writability: bytes wait in the write queue. */
	void watchWritable() {
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
		Phase phase = this.protocol.phase();
		if (phase == Phase.FLUSHING) {
			// the last exchange's response is written: the protocol goes on
			this.protocol.flushed();
		}
		else if (phase == Phase.CLOSING) {
			startLinger();
		}
	}

	@Override
	public void readAgain() {
		this.demand.unwatch();
		this.key.interestOps(SelectionKey.OP_READ);
		// decrypted input may wait that the socket will not signal again
		this.input.readTlsHeld();
	}

	@Override
	public void handOff(Protocol.Factory next, ByteBuffer unread) {
		Protocol protocol = next.create(this);
		this.protocol = protocol;
		this.demand.unwatch();
		protocol.takeOver(unread);
		if (protocol.phase() == Phase.READING && this.key.isValid()) {
			this.key.interestOps(this.key.interestOps() | SelectionKey.OP_READ);
			this.input.readTlsBuffered();
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

	// ---- timeouts, idle, close (selector thread)

	/** Whether {@link #checkTimeout} has something to do: a cheap test, without side effects. */
	boolean isDue(long now) {
		return switch (this.protocol.phase()) {
			case READING -> this.protocol.isDue(now);
			case FLUSHING, CLOSING -> true;
			case DISPATCHED -> this.demand.isDue(now);
			default -> false;
		};
	}

	/** Enforces this connection's deadline; called by the loop's periodic scan. */
	void checkTimeout(long now) {
		switch (this.protocol.phase()) {
			case READING -> this.protocol.checkTimeout(now);
			case FLUSHING, CLOSING -> {
				if (this.writes.stalled(now)) {
					this.stalls.writeCut(false);
					close();
				}
				else if (this.protocol.phase() == Phase.CLOSING && now - this.lingerDeadline >= 0) {
					close();
				}
			}
			case DISPATCHED -> this.demand.checkTimeout(now);
			default -> {
			}
		}
	}

	/** Closes now; selector thread. */
	@Override
	public void close() {
		if (isClosed()) {
			return;
		}
		this.writes.close();
		// a thread reading the body finds the channel closed
		this.demand.closed();
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
		// told here, on the thread that stops the server, before the pools stop
		this.protocol.abort(true);
		this.loop.execute(this::close);
	}

}
