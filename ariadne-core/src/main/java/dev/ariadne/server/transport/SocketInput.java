package dev.ariadne.server.transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import dev.ariadne.server.connection.Answers;

/**
 * The input of a connection served by one thread with blocking socket I/O: reads of what is
 * there now, reads until a deadline (a socket timeout), reads without one (the next request,
 * which the {@link Watchdog} bounds), and the linger after a last answer. The input is the
 * socket's, or {@code TlsSocket}'s once a handshake completed. Used by the connection's thread
 * only.
 *
 * <p>On a virtual thread, the input yields the carrier after every {@value #YIELD_EVERY} bytes
 * read: the scheduler does not time-slice, and a thread whose reads never wait (a client sending
 * as fast as it can) would otherwise keep one of the few carriers while others wait for one, for
 * as long as the client keeps sending. A platform thread is time-sliced by the kernel.
 */
final class SocketInput {

	/** How many bytes a virtual thread reads between yields of its carrier. */
	private static final int YIELD_EVERY = 16 * 1024;

	private final Socket socket;

	/** Whether the connection's thread is a virtual thread, which yields its carrier now and then. */
	private final boolean yields;

	/** Bytes read since a virtual thread last yielded its carrier. */
	private int readSinceYield;

	private InputStream input;

	/** Whether the last read set a socket timeout, which a read without a deadline must clear. */
	private boolean timeoutSet;

	/**
	 * Creates the input of a connection.
	 * @param socket the socket
	 * @param yields whether the connection's thread yields its carrier now and then (a virtual
	 * thread), rather than being time-sliced by the kernel (a pool worker)
	 */
	SocketInput(Socket socket, boolean yields) {
		this.socket = socket;
		this.yields = yields;
	}

	/**
	 * Reads from now on from a stream over the socket.
	 * @param input the socket's stream, or TLS over it
	 */
	void use(InputStream input) {
		this.input = input;
	}

	/**
	 * Returns how many bytes can be read without blocking.
	 * @return the estimate of the stream
	 * @throws IOException if the stream failed
	 */
	int available() throws IOException {
		return this.input.available();
	}

	/**
	 * Reads into a buffer, after the bytes it holds: the buffer is compacted, filled, and
	 * flipped back to read mode.
	 * @param in the buffer, in read mode
	 * @param until 0 to read only what is there, never blocking; {@link Long#MAX_VALUE} to wait
	 * without a deadline; else the {@link System#nanoTime()} until which to wait
	 * @return the bytes read; 0 when none came (now, or until then); -1 at the end of the stream
	 * @throws IOException if reading failed
	 */
	int read(ByteBuffer in, long until) throws IOException {
		if (until == 0) {
			return (this.input.available() > 0) ? readInto(in) : 0;
		}
		if (until == Long.MAX_VALUE) {
			if (this.timeoutSet) {
				this.socket.setSoTimeout(0);
				this.timeoutSet = false;
			}
		}
		else {
			long remaining = TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime());
			if (remaining <= 0) {
				return 0;
			}
			this.socket.setSoTimeout((int) Math.min(remaining, Integer.MAX_VALUE));
			this.timeoutSet = true;
		}
		try {
			return readInto(in);
		}
		catch (SocketTimeoutException ex) {
			return 0;
		}
	}

	private int readInto(ByteBuffer in) throws IOException {
		in.compact();
		try {
			int read = this.input.read(in.array(), in.arrayOffset() + in.position(), in.remaining());
			if (read > 0) {
				in.position(in.position() + read);
			}
			shareCarrier(read);
			return read;
		}
		finally {
			in.flip();
		}
	}

	/**
	 * Half-closes and discards what the client still sends for a moment, so that the last
	 * response is read before the connection resets. Bounded by time only, as in the event
	 * loop: a client still sending a large body would be reset by a close after a byte count.
	 * @param scrap where to read what is discarded
	 * @throws IOException if the socket failed
	 */
	void linger(byte[] scrap) throws IOException {
		this.socket.shutdownOutput();
		this.socket.setSoTimeout((int) TimeUnit.NANOSECONDS.toMillis(Answers.LINGER_NANOS));
		long deadline = System.nanoTime() + Answers.LINGER_NANOS;
		while (System.nanoTime() < deadline) {
			int read = this.input.read(scrap, 0, scrap.length);
			if (read < 0) {
				break;
			}
			shareCarrier(read);
		}
	}

	private void shareCarrier(int read) {
		if (!this.yields || read <= 0) {
			return;
		}
		this.readSinceYield += read;
		if (this.readSinceYield >= YIELD_EVERY) {
			this.readSinceYield = 0;
			Thread.yield();
		}
	}

}
