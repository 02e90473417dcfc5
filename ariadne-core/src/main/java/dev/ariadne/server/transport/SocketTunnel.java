package dev.ariadne.server.transport;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * Whether the exchange of a {@link SocketWire} switched protocols, and what changes once it did.
 * The connection's thread reads for the new protocol, and may wait in that read for as long as
 * the client says nothing: so the exchange's other work goes to other threads
 * ({@link SocketHost}), a non-blocking writer's bytes go out from its own thread
 * ({@link SocketWriter#direct()}), a read no longer flushes the output (another thread writes
 * it), and the end of the exchange stops the read that waits ({@link #stopReading()}) so that
 * the connection's thread can close the connection.
 *
 * <p>Only a read that waits is stopped, by shutting the input: once shut, the connection can
 * no longer read and discard what the client still sends, and a close with that input unread
 * resets the connection, which can destroy the protocol's last words (a WebSocket close frame
 * that refuses a message the client is still sending) before the client reads them. When the
 * connection's thread is not waiting for the client, the end reaches it as a task and the
 * connection closes as after any last answer: lingering while the client still sends.
 */
final class SocketTunnel {

	private final Socket socket;

	private final SocketWriter writer;

	private volatile boolean on;

	/** Whether a read waits, or is about to wait, for the client. */
	private volatile boolean waiting;

	/** Whether the exchange ended: the connection's thread waits for the client no more. */
	private volatile boolean ending;

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
	 * Reads the connection; once it is a tunnel, a read that waits for the client (the
	 * connection's thread for a non-blocking reader, or a blocking reader's own thread) is one the
	 * tunnel's end can stop, and none waits after that end. One reader at a time.
	 * @param input the connection's input
	 * @param in where to read
	 * @param until when to stop waiting ({@code Long.MAX_VALUE}: never)
	 * @return the bytes read, or -1 at the end of the stream or of the exchange
	 * @throws IOException if the read failed
	 */
	int read(SocketInput input, ByteBuffer in, long until) throws IOException {
		if (until == 0 || !this.on) {
			return input.read(in, until);
		}
		this.waiting = true;
		try {
			return this.ending ? -1 : input.read(in, until);
		}
		finally {
			this.waiting = false;
		}
	}

	/**
	 * The exchange ended: a read that waits for the client returns at once (the end of the
	 * stream), and the connection's thread goes on to close the connection; what the client sends
	 * from then on is discarded. When no read waits, the input is left open: the connection's
	 * thread reaches the end in its own time, and lingers before it closes if the client still
	 * sends. Any thread.
	 */
	void stopReading() {
		this.ending = true;
		// either this sees the wait, or the read sees the end before it waits
		if (!this.waiting) {
			return;
		}
		try {
			this.socket.shutdownInput();
		}
		catch (IOException ex) {
			// closed already: nothing waits in a read
		}
	}

}
