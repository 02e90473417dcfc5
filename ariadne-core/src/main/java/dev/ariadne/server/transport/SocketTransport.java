package dev.ariadne.server.transport;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.function.BooleanSupplier;

import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.SocketConnection;

/**
 * The transport of the models that serve each connection on a thread of its own, with
 * blocking reads and writes ({@code blocking}, {@code virtual-threads}): their connections are
 * {@link SocketConnection}s, and a {@link Watchdog} enforces their idle and write timeouts.
 */
public abstract class SocketTransport extends AbstractTransport<SocketConnection> {

	private final BooleanSupplier releaseConnection = this::releaseConnection;

	/**
	 * Creates the shared part of a socket model's transport.
	 * @param context what the server's connections share
	 */
	protected SocketTransport(ConnectionContext context) {
		super(context);
	}

	/**
	 * Returns the admission of each request to its handler.
	 * @return the gate; {@link SocketConnection.Gate#OPEN} unless the model limits requests
	 */
	protected SocketConnection.Gate gate() {
		return SocketConnection.Gate.OPEN;
	}

	/**
	 * Asked on the connection's thread at each response: whether to close the connection after
	 * it, to free its thread.
	 * @return whether to release the connection; {@code false} unless the model says otherwise
	 */
	protected boolean releaseConnection() {
		return false;
	}

	@Override
	protected void startThreads() {
		Watchdog.start(this.config, this.context.registry());
	}

	@Override
	protected final SocketConnection connect(SocketChannel channel) throws IOException {
		return new SocketConnection(this.context, channel, gate(), this.releaseConnection);
	}

}
