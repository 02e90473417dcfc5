package dev.ariadne.server.transport;

import java.io.IOException;
import java.net.Socket;

/**
 * Whether the exchange of a {@link SocketWire} switched protocols, and what changes once it did.
 * The connection's thread reads for the new protocol, and may wait in that read for as long as
 * the client says nothing: so the exchange's other work goes to other threads
 * ({@link SocketHost}), a non-blocking writer's bytes go out from its own thread
 * ({@link SocketWriter#direct()}), a read no longer flushes the output (another thread writes
 * it), and the end of the exchange stops the read that waits ({@link #stopReading()}) so that
 * the connection's thread can close the connection.
 */
final class SocketTunnel {

	private final Socket socket;

	private final SocketWriter writer;

	private volatile boolean on;

	SocketTunnel(Socket socket, SocketWriter writer) {
		this.socket = socket;
		this.writer = writer;
	}

	/** The exchange switched protocols; on its thread, before it is suspended. */
	void start() {
		this.writer.direct();
		this.on = true;
	}

	/**
	 * Returns whether the connection's exchange switched protocols; any thread.
	 * @return whether the connection is a tunnel
	 */
	boolean on() {
		return this.on;
	}

	/**
	 * The exchange ended: a read of the connection's thread that waits for the client returns
	 * at once (the end of the stream), and the thread goes on to close the connection. What the
	 * client sends from now on is discarded. Any thread.
	 */
	void stopReading() {
		try {
			this.socket.shutdownInput();
		}
		catch (IOException ex) {
			// closed already: nothing waits in a read
		}
	}

}
