package dev.ariadne.server.transport;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.concurrent.LinkedBlockingQueue;

import dev.ariadne.server.RateLimitedLogger;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.protocol.Protocol;
import dev.ariadne.server.tls.PlaintextRequestException;

/**
 * The loop of the thread that serves one {@link SocketWire} from accept to close, the wire's own
 * thread: the TLS handshake first, then, in turn, what was handed back to the thread, and what
 * the protocol's phase asks: reading a request (or waiting, idle, for the next one), or running
 * the tasks of a suspended exchange as they come. Exchanges run inside the protocol's reading
 * (through the model's pool entry, on this thread or a route pool's worker), so pipelined
 * requests are answered in order.
 *
 * <p>The next request is awaited in a read without a socket timeout (a timed read costs a failed
 * read and a poll, or a timer on a virtual thread, per request): the listener's
 * {@link Watchdog} closes the connection once it has been idle past its deadline, as shutdown
 * closes idle connections ({@link IdleState}). A protocol that says goodbye before an idle
 * connection closes (HTTP/2's {@code GOAWAY}) is the exception: its idle connection is written
 * to by its own thread only, so that thread reads with a timeout, ends the idle time itself and
 * looks every half second whether a shutdown began; the watchdog backs it up.
 */
final class SocketLoop {

	private static final Logger logger = System.getLogger(SocketLoop.class.getName());

	private static final RateLimitedLogger connectionErrors = RateLimitedLogger.of(logger, Level.ERROR,
			"Connection failed", RateLimitedLogger.DEFAULT_INTERVAL);

	/**
	 * How often the thread of a connection whose protocol says goodbye first (HTTP/2) looks
	 * whether it went idle (its streams end on other threads) and, once idle, whether a shutdown
	 * began: nobody else may write to it, so its own thread must.
	 */
	private static final long GOODBYE_POLL_NANOS = 500_000_000L;

	private final SocketWire wire;

	private final ConnectionContext context;

	private final IdleState idle;

	/** Whether the thread is a worker of the default pool, which a request's read then holds. */
	private final boolean pinsWorker;

	private final long acceptedNanos = System.nanoTime();

	/** What other threads hand this thread: the tasks of a suspended exchange above all. */
	private final LinkedBlockingQueue<Runnable> handed = new LinkedBlockingQueue<>();

	/** What this thread hands back to itself: run after what it does now. */
	private final ArrayDeque<Runnable> own = new ArrayDeque<>();

	/** The thread running {@link #serve()}, for the diagnosis. */
	private volatile Thread thread;

	/** Whether the connection waits for its first request, which the header timeout bounds. */
	private boolean first = true;

	SocketLoop(SocketWire wire, ConnectionContext context, IdleState idle, boolean pinsWorker) {
		this.wire = wire;
		this.context = context;
		this.idle = idle;
		this.pinsWorker = pinsWorker;
	}

	/**
	 * Returns the thread serving the connection.
	 * @return the thread, or {@code null} before it began
	 */
	Thread thread() {
		return this.thread;
	}

	/**
	 * Runs a task on this thread, after what it does now; from any thread.
	 * @param task the task
	 */
	void execute(Runnable task) {
		if (Thread.currentThread() == this.thread) {
			this.own.add(task);
		}
		else {
			this.handed.add(task);
		}
	}

	/**
	 * Returns whether the calling thread is this loop's.
	 * @return whether on the connection's thread
	 */
	boolean onThread() {
		return Thread.currentThread() == this.thread;
	}

	/**
	 * Hands this thread a task from another thread (or its own, as another's would).
	 * @param task the task
	 */
	void hand(Runnable task) {
		this.handed.add(task);
	}

	/** Drops what other threads handed this thread: the exchange they belong to is over. */
	void dropHanded() {
		this.handed.clear();
	}

	/**
	 * Serves the connection until it closes, on the connection's thread; returns when the
	 * connection is closed, whatever happened: an {@link Error} in the server's code (out of
	 * memory, say) closes the connection, is counted and logged, and the thread lives on.
	 */
	void serve() {
		try {
			serveUntilClosed();
		}
		catch (Error ex) {
			this.context.registry().fatalError();
			connectionErrors.log(() -> "Connection from " + this.wire.remoteAddress() + " failed; closed it", ex);
		}
	}

	private void serveUntilClosed() {
		this.thread = Thread.currentThread();
		Protocol protocol = this.wire.protocol();
		try {
			this.wire.open();
			// blocking: how long the connection waited for a worker, counted with its first request
			long now = System.nanoTime();
			protocol.start(now + this.context.config().headerTimeout().toNanos(), now - this.acceptedNanos);
			run();
		}
		catch (PlaintextRequestException ex) {
			this.wire.protocol().plaintextOnTls();
		}
		catch (Interrupted ex) {
			Thread.currentThread().interrupt();
		}
		catch (IOException | RuntimeException ex) {
			logger.log(Level.DEBUG, () -> "Connection from " + this.wire.remoteAddress() + " failed", ex);
		}
		finally {
			this.wire.close();
		}
	}

	private void run() throws IOException {
		while (!this.wire.isClosed()) {
			Runnable task = this.own.poll();
			if (task == null) {
				task = this.handed.poll();
			}
			if (task != null) {
				task.run();
				// a handler that left its interrupt status set must not cost the connection: a
				// channel closes when a thread blocked in it is interrupted
				Thread.interrupted();
				continue;
			}
			// a protocol may hand the connection to another on any turn
			Protocol protocol = this.wire.protocol();
			switch (protocol.phase()) {
				case READING -> readRequest(protocol);
				case DISPATCHED -> {
					try {
						this.handed.take().run();
					}
					catch (InterruptedException ex) {
						throw new Interrupted(ex);
					}
					Thread.interrupted();
				}
				case FLUSHING -> protocol.flushed();
				default -> {
					return;
				}
			}
		}
	}

	/** Reads for the request under way, or waits for the next one. */
	private void readRequest(Protocol protocol) throws IOException {
		if (protocol.isIdle()) {
			awaitRequest(protocol);
			return;
		}
		long now = System.nanoTime();
		long deadline = protocol.readDeadline();
		// a worker that reads a request looks again every poll whether its pool starved
		long poll = this.pinsWorker ? this.context.lowResources().pollNanos() : Long.MAX_VALUE;
		if (protocol.saysGoodbye()) {
			// its streams end on other threads: look again whether the connection went idle
			poll = Math.min(poll, GOODBYE_POLL_NANOS);
		}
		long until = (poll < deadline - now) ? now + poll : deadline;
		int read = protocol.fill(Math.max(until, 1));
		if (read < 0) {
			logger.log(Level.DEBUG,
					() -> "Connection from " + this.wire.remoteAddress() + " closed in the middle of a request");
			this.wire.close();
		}
		else if (read == 0) {
			protocol.checkTimeout(System.nanoTime());
		}
		else {
			protocol.onInput(read);
			Thread.interrupted();
		}
	}

	/** Waits for the first bytes of the next request, counted as idle meanwhile. */
	private void awaitRequest(Protocol protocol) throws IOException {
		// the response goes out, and the output buffer back to the pool, before going idle
		protocol.out().flush();
		protocol.out().release();
		long timeout = (this.first ? this.context.config().headerTimeout() : this.context.config().keepAliveTimeout())
			.toNanos();
		this.first = false;
		boolean goodbye = protocol.saysGoodbye();
		this.idle.allow(timeout, goodbye);
		if (this.context.registry().shuttingDown() || !this.idle.enter()) {
			protocol.goAway();
			this.wire.close();
			return;
		}
		this.context.registry().idle(1);
		int read;
		try {
			read = goodbye ? readBeforeGoodbye(protocol) : protocol.fill(Long.MAX_VALUE);
		}
		catch (IOException ex) {
			read = -1;
			if (!this.idle.closed()) {
				throw ex;
			}
		}
		finally {
			this.idle.leave();
			this.context.registry().idle(-1);
		}
		if (read > 0 && !this.idle.closed()) {
			protocol.onInput(read);
			Thread.interrupted();
			return;
		}
		if (read == 0 && !this.idle.closed()) {
			protocol.goAway();
		}
		this.wire.close();
	}

	/**
	 * Reads for a protocol that says goodbye before an idle connection closes, until the idle
	 * time is up or a shutdown begins, which it looks at every {@link #GOODBYE_POLL_NANOS}.
	 * @return what was read, or 0 when it is time to say goodbye
	 */
	private int readBeforeGoodbye(Protocol protocol) throws IOException {
		while (true) {
			long now = System.nanoTime();
			long left = this.idle.deadline() - now;
			if (left <= 0 || this.context.registry().shuttingDown()) {
				return 0;
			}
			int read = protocol.fill(now + Math.min(left, GOODBYE_POLL_NANOS));
			if (read != 0) {
				return read;
			}
		}
	}

	/** An interrupt of the connection's thread, carried through the protocol to its loop. */
	static final class Interrupted extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Interrupted(InterruptedException cause) {
			super(cause);
		}

	}

}
