package dev.ariadne.server.transport;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.LockSupport;

import dev.ariadne.server.RateLimitedLogger;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.ConnectionRegistry;
import dev.ariadne.server.connection.TrackedConnection;
import dev.ariadne.server.internal.Backoff;
import dev.ariadne.server.internal.Threads;
import dev.ariadne.server.stats.AcceptError;
import dev.ariadne.server.stats.AcceptQueueProbe;

/**
 * The listening socket and accept loop of every model: binds with the configured backlog,
 * takes a connection permit before each {@code accept()}, sets the accepted socket up, and
 * hands the connection to its model. A permit is given back on every path that ends without a
 * registered connection; a registered connection gives its permit back when it closes.
 *
 * <p>When {@code accept()} fails (out of descriptors, buffers or memory) the loop counts the
 * failure by cause and pauses before it accepts again, for a time that doubles with each
 * failure in a row up to a bound, so that it neither spins nor floods the log while the
 * resource is short; a connection of the server that closes ends the pause early, since it
 * freed a descriptor. An {@link Error} anywhere in the loop closes the connection being set
 * up, is counted, and the loop carries on after the same pause.
 *
 * <p>The accept loop runs on a thread of its own (non-daemon, so that a running server keeps
 * the JVM alive). {@link #localAddress()} and {@link #acceptQueue()} may be called from any
 * thread.
 */
final class Acceptor<C extends TrackedConnection> implements Runnable {

	private static final Logger logger = System.getLogger(Acceptor.class.getName());

	private static final RateLimitedLogger acceptFailures = RateLimitedLogger.of(logger, "Accept failed");

	private static final RateLimitedLogger acceptorErrors = RateLimitedLogger.of(logger, Level.ERROR,
			"Acceptor failed", RateLimitedLogger.DEFAULT_INTERVAL);

	/** How long the loop waits for a permit before it looks again whether it should stop. */
	private static final long PERMIT_WAIT_MILLIS = 100;

	/** The first pause after a failed accept. */
	private static final long FIRST_PAUSE_MILLIS = 10;

	/** The longest pause: how late, at most, accepting resumes once the resource is back. */
	private static final long LONGEST_PAUSE_MILLIS = 1000;

	private final ServerConfig config;

	private final ConnectionRegistry registry;

	private final AbstractTransport<C, ?> model;

	private volatile ServerSocketChannel channel;

	private volatile InetSocketAddress bound;

	private volatile AcceptQueueProbe acceptQueue;

	private volatile Thread thread;

	private volatile boolean running;

	/** Acceptor thread only. */
	private final Backoff backoff = new Backoff(FIRST_PAUSE_MILLIS, LONGEST_PAUSE_MILLIS);

	/** Whether the acceptor thread is pausing after a failure: a closed connection wakes it. */
	private volatile boolean pausing;

	Acceptor(ServerConfig config, ConnectionRegistry registry, AbstractTransport<C, ?> model) {
		this.config = config;
		this.registry = registry;
		this.model = model;
	}

	/** Binds the listening socket; nothing is accepted until {@link #start()}. */
	void bind() throws IOException {
		ServerSocketChannel channel = ServerSocketChannel.open();
		this.channel = channel;
		channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
		channel.bind(new InetSocketAddress(this.config.address(), this.config.port()), this.config.acceptBacklog());
		this.bound = (InetSocketAddress) channel.getLocalAddress();
		this.acceptQueue = new AcceptQueueProbe(this.bound, this.config.acceptBacklog());
	}

	/** Starts the accept loop. */
	void start() {
		this.running = true;
		Thread thread = Threads.named("ariadne-" + this.config.name() + "-acceptor", false).newThread(this);
		this.thread = thread;
		this.registry.onClose(this::connectionClosed);
		thread.start();
	}

	@Override
	public void run() {
		while (this.running) {
			try {
				if (!acceptOne()) {
					return;
				}
			}
			catch (Throwable ex) {
				// an Error while handling a failure (logging it, say): the loop must not die of it
				survive(ex);
			}
		}
	}

	/**
	 * Takes a permit, accepts one connection and hands it to the model, or handles the failure.
	 * @return {@code false} when interrupted
	 */
	private boolean acceptOne() {
		try {
			if (!this.registry.acquirePermit(PERMIT_WAIT_MILLIS)) {
				return true;
			}
		}
		catch (InterruptedException ex) {
			return false;
		}
		SocketChannel accepted;
		try {
			accepted = this.channel.accept();
		}
		catch (IOException | Error ex) {
			this.registry.releasePermit();
			failed(ex);
			return true;
		}
		if (adopt(accepted)) {
			this.backoff.reset();
		}
		return true;
	}

	/**
	 * Handles a failed {@code accept()}, after its permit went back: the one place for every
	 * model. Counts the failure by cause and pauses before the next accept, since retrying at
	 * once would fail the same way while the resource is short. Closing the socket to stop
	 * accepting fails the accept in progress too; that is no failure.
	 */
	private void failed(Throwable failure) {
		if (!this.running) {
			return;
		}
		this.registry.acceptFailed(AcceptError.of(failure));
		if (failure instanceof Error) {
			this.registry.fatalError();
		}
		log(acceptFailures, "Accept failed on " + this.bound + "; pausing before accepting again", failure);
		pause();
	}

	/**
	 * Sets an accepted socket up, the same for every model (this is where a TLS wrapper goes),
	 * and hands it to the model; gives the permit back if that fails before the connection is
	 * registered, and closes the connection if an {@link Error} stops it from being served.
	 * @return whether the connection was handed to the model
	 */
	private boolean adopt(SocketChannel accepted) {
		C connection;
		try {
			accepted.setOption(StandardSocketOptions.TCP_NODELAY, true);
			connection = this.model.connect(accepted);
		}
		catch (IOException | RuntimeException | Error ex) {
			this.registry.releasePermit();
			closeQuietly(accepted);
			if (!(ex instanceof IOException)) {
				abandoned(ex);
			}
			return false;
		}
		// from here on the connection owns the permit and gives it back when it closes
		this.registry.opened(connection);
		try {
			this.model.serve(connection);
			return true;
		}
		catch (RuntimeException | Error ex) {
			// no thread will serve it (none could be started): closing gives the permit back
			connection.abort();
			this.registry.closed(connection);
			abandoned(ex);
			return false;
		}
	}

	/** A connection could not be set up or served for want of memory or threads. */
	private void abandoned(Throwable failure) {
		if (failure instanceof Error) {
			this.registry.fatalError();
		}
		log(acceptorErrors, "Could not set up or hand off an accepted connection on " + this.bound
				+ "; closed it, pausing before accepting again", failure);
		pause();
	}

	/** Counts and pauses first, which needs no memory; logs if it can. */
	private void survive(Throwable failure) {
		if (failure instanceof Error) {
			this.registry.fatalError();
		}
		pause();
		log(acceptorErrors, "Accept loop failed; carrying on", failure);
	}

	/**
	 * Logs a failure if the log can take it: writing a line may need what has run out (a
	 * descriptor to read the time zone data the first time a date is formatted, memory).
	 */
	private static void log(RateLimitedLogger log, String message, Throwable failure) {
		try {
			log.log(message, failure);
		}
		catch (Throwable ex) {
			// the counts say what happened
		}
	}

	private static void closeQuietly(SocketChannel accepted) {
		try {
			accepted.close();
		}
		catch (IOException | RuntimeException ex) {
			// already failing
		}
	}

	/**
	 * Waits before the next accept, longer after each failure in a row, until a connection of
	 * this server closes or the server stops.
	 */
	private void pause() {
		long deadline = System.nanoTime() + this.backoff.next();
		this.pausing = true;
		try {
			long left;
			while (this.running && this.pausing && (left = deadline - System.nanoTime()) > 0) {
				LockSupport.parkNanos(this, left);
			}
		}
		finally {
			this.pausing = false;
		}
	}

	/** A connection closed, freeing a descriptor: a pause for want of one ends now. Any thread. */
	private void connectionClosed() {
		if (this.pausing) {
			this.pausing = false;
			LockSupport.unpark(this.thread);
		}
	}

	/**
	 * Returns the address the socket was bound to, also once it is closed.
	 * @return the address, or {@code null} before binding
	 */
	InetSocketAddress localAddress() {
		return this.bound;
	}

	/**
	 * Returns the reader of the kernel's accept queue of the listening socket.
	 * @return the probe, or {@code null} before binding
	 */
	AcceptQueueProbe acceptQueue() {
		return this.acceptQueue;
	}

	/**
	 * Stops accepting: closes the listening socket and waits briefly for the loop to end.
	 * @throws InterruptedException if interrupted while waiting
	 */
	void stop() throws InterruptedException {
		this.running = false;
		close();
		Thread thread = this.thread;
		if (thread != null) {
			LockSupport.unpark(thread);
			thread.join(1000);
		}
	}

	/** Closes the listening socket. */
	void close() {
		try {
			ServerSocketChannel channel = this.channel;
			if (channel != null) {
				channel.close();
			}
		}
		catch (IOException ex) {
			logger.log(Level.DEBUG, "Closing the listening socket failed", ex);
		}
	}

}
