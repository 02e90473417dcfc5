package dev.ariadne.autoconfigure.actuate;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * A TCP listener for HAProxy's {@code agent-check}: it answers every connection with one
 * ASCII line, then closes it. HAProxy reads the line and applies it to the server: a
 * percentage sets its weight relative to the configured one, {@code drain} stops new traffic
 * while connections in flight finish, {@code ready} lifts a drain.
 *
 * <p>The line comes from a supplier, asked once per connection; {@link #answer(boolean, double)}
 * formats it. Nothing the peer sends is read beyond what has arrived when the answer is
 * written, so HAProxy's {@code agent-send} is not needed and not used. One daemon thread accepts
 * and answers in turn: a one-line answer needs no thread per connection. It runs in the same
 * lifecycle phase as {@link SaturationShedding}: before the application's server starts, so that
 * a balancer sees {@code drain} until the application is ready, and until after it has drained.
 */
public final class AgentCheckListener implements SmartLifecycle {

	/** Name of the property holding the port the agent listener listens on. */
	public static final String PORT_PROPERTY = "ariadne.server.health.agent.port";

	private static final Log logger = LogFactory.getLog(AgentCheckListener.class);

	private static final int BACKLOG = 64;

	private static final long ERROR_PAUSE_NANOS = 10_000_000;

	private final InetAddress address;

	private final int port;

	private final Supplier<String> answer;

	private volatile ServerSocketChannel channel;

	private Thread acceptor;

	/**
	 * Creates a listener.
	 * @param address the address to bind, or {@code null} for every local address
	 * @param port the port, 0 for a free one
	 * @param answer supplies the line to answer, without its line end
	 */
	public AgentCheckListener(InetAddress address, int port, Supplier<String> answer) {
		this.address = address;
		this.port = port;
		this.answer = answer;
	}

	/**
	 * Formats an answer: {@code drain} while the application does not accept traffic, else
	 * {@code ready} and the weight as a whole percentage, at least 1 %.
	 * @param accepting whether the application accepts traffic
	 * @param weight the weight, as a share of the full weight
	 * @return the line, such as {@code ready 75%}
	 */
	public static String answer(boolean accepting, double weight) {
		if (!accepting) {
			return "drain";
		}
		long percent = Math.max(1, Math.min(100, Math.round(weight * 100)));
		return String.format(Locale.ROOT, "ready %d%%", percent);
	}

	/**
	 * Returns the address the listener listens on.
	 * @return the local address, or {@code null} when not started
	 */
	public InetSocketAddress localAddress() {
		ServerSocketChannel channel = this.channel;
		if (channel == null) {
			return null;
		}
		try {
			return (InetSocketAddress) channel.getLocalAddress();
		}
		catch (IOException ex) {
			return null;
		}
	}

	/**
	 * Returns the port the listener listens on.
	 * @return the local port, or -1 when not started
	 */
	public int port() {
		InetSocketAddress address = localAddress();
		return (address != null) ? address.getPort() : -1;
	}

	@Override
	public synchronized void start() {
		if (this.channel != null) {
			return;
		}
		InetSocketAddress endpoint = new InetSocketAddress(this.address, this.port);
		ServerSocketChannel channel = null;
		try {
			channel = ServerSocketChannel.open();
			channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
			channel.bind(endpoint, BACKLOG);
		}
		catch (IOException ex) {
			closeQuietly(channel);
			throw new IllegalStateException("Ariadne's agent listener could not listen on " + endpoint + " ("
					+ PORT_PROPERTY + "): " + ex.getMessage(), ex);
		}
		this.channel = channel;
		ServerSocketChannel listening = channel;
		Thread acceptor = new Thread(() -> acceptLoop(listening), "ariadne-agent");
		acceptor.setDaemon(true);
		acceptor.start();
		this.acceptor = acceptor;
		logger.info("Ariadne's agent listener (HAProxy agent-check) started on port " + port());
	}

	private void acceptLoop(ServerSocketChannel channel) {
		while (channel.isOpen()) {
			try (SocketChannel connection = channel.accept()) {
				reply(connection);
			}
			catch (ClosedChannelException ex) {
				return;
			}
			catch (IOException | RuntimeException ex) {
				if (logger.isDebugEnabled()) {
					logger.debug("Agent check not answered", ex);
				}
				// Out of descriptors, for example: do not spin on a failing accept.
				LockSupport.parkNanos(ERROR_PAUSE_NANOS);
			}
		}
	}

	private void reply(SocketChannel connection) throws IOException {
		// Non-blocking: a fresh socket's send buffer always takes one short line, and a peer that
		// never reads must not hold the only thread.
		connection.configureBlocking(false);
		byte[] line = (this.answer.get() + "\n").getBytes(StandardCharsets.US_ASCII);
		connection.write(ByteBuffer.wrap(line));
		// Read what the peer sent, if anything, so that closing sends FIN rather than a reset that
		// could overtake the answer.
		connection.read(ByteBuffer.allocate(256));
		connection.shutdownOutput();
	}

	@Override
	public synchronized void stop() {
		ServerSocketChannel channel = this.channel;
		if (channel == null) {
			return;
		}
		this.channel = null;
		closeQuietly(channel);
		try {
			this.acceptor.join(1000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.acceptor = null;
	}

	@Override
	public boolean isRunning() {
		return this.channel != null;
	}

	@Override
	public int getPhase() {
		return SaturationShedding.PHASE;
	}

	private static void closeQuietly(ServerSocketChannel channel) {
		if (channel != null) {
			try {
				channel.close();
			}
			catch (IOException ex) {
				// Closing only to release the port.
			}
		}
	}

}
