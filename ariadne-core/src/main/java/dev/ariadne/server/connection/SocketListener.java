package dev.ariadne.server.connection;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.stats.AcceptQueueProbe;

/**
 * The listening socket and accept loop of the models that serve each connection on a thread
 * of its own ({@code blocking}, {@code virtual-threads}): takes a connection permit before each
 * accept, wraps the socket in a {@link SocketConnection} and hands it to the model.
 */
public final class SocketListener {

	private static final Logger logger = System.getLogger(SocketListener.class.getName());

	/** The watchdog's longest tick: how late, at most, an idle or stalled connection closes. */
	private static final long WATCHDOG_MAX_MILLIS = 250;

	/** The watchdog's shortest tick, for timeouts configured in tens of milliseconds. */
	private static final long WATCHDOG_MIN_MILLIS = 10;

	private final ServerContext context;

	private final SocketConnection.Gate gate;

	private final BooleanSupplier releaseConnection;

	private final Consumer<SocketConnection> handoff;

	private ServerSocket serverSocket;

	private Thread acceptor;

	private volatile boolean running;

	/**
	 * Creates a listener, not yet bound.
	 * @param context the server's shared state
	 * @param gate admission of requests to handlers
	 * @param releaseConnection whether to release a connection after its current response
	 * @param handoff takes each accepted connection, on the acceptor thread; must not block
	 */
	public SocketListener(ServerContext context, SocketConnection.Gate gate, BooleanSupplier releaseConnection,
			Consumer<SocketConnection> handoff) {
		this.context = context;
		this.gate = gate;
		this.releaseConnection = releaseConnection;
		this.handoff = handoff;
	}

	/**
	 * Binds with the configured backlog and starts the accept loop.
	 * @param acceptorThreads creates the acceptor thread, which must be a non-daemon thread
	 * @throws IOException if binding fails
	 */
	public void start(ThreadFactory acceptorThreads) throws IOException {
		ServerConfig config = this.context.config();
		this.serverSocket = new ServerSocket();
		this.serverSocket.setReuseAddress(true);
		this.serverSocket.bind(new InetSocketAddress(config.address(), config.port()), config.acceptBacklog());
		this.context.acceptQueue(new AcceptQueueProbe(localAddress(), config.acceptBacklog()));
		this.running = true;
		this.acceptor = acceptorThreads.newThread(this::acceptLoop);
		this.acceptor.start();
		Thread watchdog = new Thread(this::watch, "ariadne-" + config.name() + "-watchdog");
		watchdog.setDaemon(true);
		watchdog.start();
	}

	/**
	 * Closes connections idle past their timeout and those whose blocking writes stall (a
	 * socket write has no timeout of its own). Ticks at a tenth of the shorter of the header
	 * and keep-alive timeouts, within 10-250 ms, so a timeout fires at most that late.
	 */
	private void watch() {
		ServerConfig config = this.context.config();
		long shortest = Math.min(config.headerTimeout().toMillis(), config.keepAliveTimeout().toMillis());
		long tick = Math.max(WATCHDOG_MIN_MILLIS, Math.min(WATCHDOG_MAX_MILLIS, shortest / 10));
		while (this.running || this.context.hasConnections()) {
			try {
				Thread.sleep(tick);
			}
			catch (InterruptedException ex) {
				return;
			}
			this.context.closeExpired(System.nanoTime());
		}
	}

	private void acceptLoop() {
		while (this.running) {
			try {
				if (!this.context.acquirePermit(100)) {
					continue;
				}
			}
			catch (InterruptedException ex) {
				break;
			}
			Socket socket;
			try {
				socket = this.serverSocket.accept();
			}
			catch (IOException ex) {
				this.context.releasePermit();
				if (this.running) {
					logger.log(Level.WARNING, "Accept failed", ex);
				}
				continue;
			}
			this.handoff.accept(new SocketConnection(this.context, socket, this.gate, this.releaseConnection));
		}
	}

	/**
	 * Returns the bound address.
	 * @return the address, or {@code null} when not bound
	 */
	public InetSocketAddress localAddress() {
		ServerSocket socket = this.serverSocket;
		return (socket != null && socket.isBound()) ? (InetSocketAddress) socket.getLocalSocketAddress() : null;
	}

	/**
	 * Stops accepting: closes the listening socket and waits briefly for the acceptor to end.
	 * @throws InterruptedException if interrupted while waiting
	 */
	public void stop() throws InterruptedException {
		this.running = false;
		close();
		if (this.acceptor != null) {
			this.acceptor.join(1000);
		}
	}

	/**
	 * Closes the listening socket.
	 */
	public void close() {
		try {
			if (this.serverSocket != null) {
				this.serverSocket.close();
			}
		}
		catch (IOException ex) {
			logger.log(Level.DEBUG, "Closing the listening socket failed", ex);
		}
	}

}
