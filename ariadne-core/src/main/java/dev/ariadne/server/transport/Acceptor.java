package dev.ariadne.server.transport;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.ConnectionRegistry;
import dev.ariadne.server.connection.TrackedConnection;
import dev.ariadne.server.internal.Threads;
import dev.ariadne.server.stats.AcceptError;
import dev.ariadne.server.stats.AcceptQueueProbe;

/**
 * The listening socket and accept loop of every model: binds with the configured backlog,
 * takes a connection permit before each {@code accept()}, sets the accepted socket up, and
 * hands the connection to its model. A permit is given back on every path that ends without a
 * registered connection; a registered connection gives its permit back when it closes.
 *
 * <p>The accept loop runs on a thread of its own (non-daemon, so that a running server keeps
 * the JVM alive). {@link #localAddress()} and {@link #acceptQueue()} may be called from any
 * thread.
 */
final class Acceptor<C extends TrackedConnection> implements Runnable {

	private static final Logger logger = System.getLogger(Acceptor.class.getName());

	/** How long the loop waits for a permit before it looks again whether it should stop. */
	private static final long PERMIT_WAIT_MILLIS = 100;

	private final ServerConfig config;

	private final ConnectionRegistry registry;

	private final AbstractTransport<C, ?> model;

	private volatile ServerSocketChannel channel;

	private volatile InetSocketAddress bound;

	private volatile AcceptQueueProbe acceptQueue;

	private Thread thread;

	private volatile boolean running;

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
		this.thread = Threads.named("ariadne-" + this.config.name() + "-acceptor", false).newThread(this);
		this.thread.start();
	}

	@Override
	public void run() {
		while (this.running) {
			try {
				if (!this.registry.acquirePermit(PERMIT_WAIT_MILLIS)) {
					continue;
				}
			}
			catch (InterruptedException ex) {
				break;
			}
			SocketChannel accepted;
			try {
				accepted = this.channel.accept();
			}
			catch (IOException ex) {
				this.registry.releasePermit();
				failed(ex);
				continue;
			}
			adopt(accepted);
		}
	}

	/**
	 * Handles a failed {@code accept()}, after its permit went back: the one place for every
	 * model, where a pause before the next accept belongs when a resource has run out. Closing
	 * the socket to stop accepting fails the accept in progress too; that is no failure.
	 */
	private void failed(IOException failure) {
		if (!this.running) {
			return;
		}
		this.registry.acceptFailed(AcceptError.of(failure));
		logger.log(Level.WARNING, "Accept failed", failure);
	}

	/**
	 * Sets an accepted socket up, the same for every model (this is where a TLS wrapper goes),
	 * and hands it to the model; gives the permit back if that fails before the connection is
	 * registered.
	 */
	private void adopt(SocketChannel accepted) {
		C connection;
		try {
			accepted.setOption(StandardSocketOptions.TCP_NODELAY, true);
			connection = this.model.connect(accepted);
		}
		catch (IOException ex) {
			this.registry.releasePermit();
			try {
				accepted.close();
			}
			catch (IOException ignored) {
				// already failing
			}
			return;
		}
		// from here on the connection owns the permit and gives it back when it closes
		this.registry.opened(connection);
		this.model.serve(connection);
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
		if (this.thread != null) {
			this.thread.join(1000);
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
