package dev.ariadne.server.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.RequestHead;

/**
 * The bytes of an HTTP/1.1 connection whose exchange switched protocols
 * ({@link dev.ariadne.server.Response#upgrade()}), as that exchange reads them: what the client
 * sent after its request, raw, from the connection's input buffer (what arrived with the request
 * first), then from the connection, without a parser, a size limit or a deadline, until the
 * client closes. A blocking read waits for as long as the client sends nothing; a non-blocking
 * reader finds what is there, and where the wire's own thread reads for it ({@link #fetch}), that
 * thread waits as long.
 *
 * <p>One reader at a time, which owns the input buffer while it reads. Where the wire pools its
 * buffers (the event loop), an idle connection holds none, as a keep-alive connection holds none:
 * once a non-blocking reader found nothing and waits for the client, the wire's own thread gives
 * the empty buffer back ({@link #park}) and borrows one again when input arrives, and reads the
 * input into it before it tells the reader ({@link #unpark}), so that idle sessions do not hold
 * the buffer budget. The lock
 * keeps the wire's thread from taking the buffer from a reader that uses it; the wire's thread
 * only tries it, never waits for it.
 */
final class Http1Tunnel {

	private final Http1Reader reader;

	/** The protocol the connection switched to, as the request named it. */
	private final String protocol;

	/** Whether the client closed its side: every read from now on returns -1. */
	private volatile boolean ended;

	/** A failure a readiness check found, thrown by the next non-blocking read. */
	private volatile IOException failure;

	/** Whether the wire's own thread reads for a non-blocking reader. */
	private volatile boolean fetching;

	/** Held by a reader while it uses the input buffer, and by the wire's thread to take or give it. */
	private final ReentrantLock lock = new ReentrantLock();

	/** Whether the input buffer went back to the wire while the reader waits for the client. */
	private volatile boolean parked;

	/** Whether the connection closed: no buffer comes back after that. */
	private volatile boolean closed;

	/**
	 * Whether the connection was found empty by the last look at it, and nobody looked since: a
	 * non-blocking read found nothing, or the wire's own thread ({@link #unpark}) read less than
	 * the buffer holds. The next non-blocking read that finds the buffer used up then returns
	 * nothing without asking the connection again (a system call that finds nothing, per message
	 * of a WebSocket echo): the wire tells the reader of what came since. Guarded by the lock.
	 */
	private boolean knownEmpty;

	Http1Tunnel(Http1Reader reader, RequestHead head) {
		this.reader = reader;
		this.protocol = name(head.headers().get(HeaderName.UPGRADE));
	}

	/**
	 * Returns the protocol's name for the connection meters: the first the request named,
	 * without its version, in lower case ({@code websocket}).
	 */
	private static String name(String offered) {
		if (offered == null) {
			return "upgraded";
		}
		int end = offered.length();
		for (int i = 0; i < offered.length(); i++) {
			char c = offered.charAt(i);
			if (c == ',' || c == '/') {
				end = i;
				break;
			}
		}
		String name = offered.substring(0, end).trim();
		return name.isEmpty() ? "upgraded" : name.toLowerCase(Locale.ROOT);
	}

	/**
	 * Returns the protocol the connection switched to.
	 * @return its name ({@code websocket})
	 */
	String protocol() {
		return this.protocol;
	}

	/**
	 * Returns whether the client closed its side and everything it sent was read.
	 * @return whether the tunnel's input is over
	 */
	boolean finished() {
		this.lock.lock();
		try {
			ByteBuffer in = this.reader.buffer();
			return this.ended && (in == null || !in.hasRemaining());
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Returns the bytes a read returns without touching the connection.
	 * @return the bytes in the input buffer
	 */
	int available() {
		this.lock.lock();
		try {
			ByteBuffer in = this.reader.buffer();
			return (in != null) ? in.remaining() : 0;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Reads, waiting for the client as long as it sends nothing.
	 * @param bytes where to put the bytes
	 * @param offset where to start
	 * @param length the most bytes, more than 0
	 * @return the bytes read, or -1 once the client closed
	 * @throws IOException if the connection failed
	 */
	int read(byte[] bytes, int offset, int length) throws IOException {
		this.lock.lock();
		try {
			return copy(advance(true), bytes, offset, length);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Reads what is there now, never waiting.
	 * @param bytes where to put the bytes
	 * @param offset where to start
	 * @param length the most bytes, more than 0
	 * @return the bytes read, 0 when there are none now, or -1 once the client closed
	 * @throws IOException if the connection failed, now or when a readiness check looked
	 */
	int readNow(byte[] bytes, int offset, int length) throws IOException {
		IOException failure = this.failure;
		if (failure != null) {
			this.failure = null;
			throw failure;
		}
		if (this.fetching) {
			// the wire's thread reads for this reader, which is told when it is done
			return 0;
		}
		this.lock.lock();
		try {
			return copy(advance(false), bytes, offset, length);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Returns whether a non-blocking read returns something now: bytes, the end, or a failure
	 * (kept for it).
	 * @return whether to read now
	 */
	boolean readable() {
		if (this.failure != null) {
			return true;
		}
		if (this.fetching) {
			return false;
		}
		this.lock.lock();
		try {
			return advance(false) != 0;
		}
		catch (IOException ex) {
			this.failure = ex;
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Reads, waiting, until a non-blocking read has something: how the wire's own thread reads
	 * for a non-blocking reader where it has nothing else to do (the socket models).
	 */
	void fetch() {
		this.fetching = true;
		this.lock.lock();
		try {
			advance(true);
		}
		catch (IOException ex) {
			this.failure = ex;
		}
		finally {
			this.lock.unlock();
			this.fetching = false;
		}
	}

	/**
	 * Gives the input buffer back to the wire if it is empty and no reader uses it: the reader
	 * waits for the client. The wire's own thread, when it starts watching for the reader.
	 */
	void park() {
		if (this.closed || !this.lock.tryLock()) {
			return;
		}
		try {
			ByteBuffer in = this.reader.buffer();
			if (in != null && !in.hasRemaining() && !this.ended) {
				this.parked = true;
				this.reader.releaseInput();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Input arrived for a non-blocking reader that waits: borrows an input buffer again if the
	 * reader gave its back, and reads what the connection has into it, so that the socket is
	 * drained before the reader is told and does not signal the wire's thread again while the
	 * reader works (what a failure, kept for the reader, or the end does likewise). The wire's
	 * own thread, before it tells the reader.
	 * @return false when no buffer fits the budget (the reader is not told yet); true otherwise
	 */
	boolean unpark() {
		if (this.closed || !this.lock.tryLock()) {
			// a reader that holds the lock finds no buffer, and waits for the client again, or
			// reads for itself
			return true;
		}
		try {
			if (this.parked) {
				if (!this.reader.borrowBuffer()) {
					return false;
				}
				this.parked = false;
			}
			if (this.failure == null) {
				ByteBuffer in = this.reader.buffer();
				boolean usedUp = in != null && !in.hasRemaining();
				this.knownEmpty = false;
				advance(false);
				// read into the empty buffer (compacted to its start) and not filled: nothing was left
				this.knownEmpty = usedUp && in.hasRemaining() && in.limit() < in.capacity();
			}
			return true;
		}
		catch (IOException ex) {
			this.failure = ex;
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	/** The connection closed: a parked reader reads its end. The wire's own thread. */
	void closed() {
		this.closed = true;
	}

	/**
	 * Reads from the connection if the input buffer is used up.
	 * @param wait whether to wait for the client
	 * @return 1 when bytes are there, -1 at the end, 0 when there are none without waiting
	 */
	private int advance(boolean wait) throws IOException {
		ByteBuffer in = this.reader.buffer();
		if (in == null) {
			if (this.parked && !this.closed) {
				if (wait) {
					throw new IOException("A blocking read of a connection whose non-blocking reader waits for input");
				}
				// the buffer went back while the reader waited: the wire borrows one when input comes
				return 0;
			}
			// the exchange has ended, and the connection with it
			return -1;
		}
		while (!in.hasRemaining()) {
			if (this.ended) {
				return -1;
			}
			if (this.knownEmpty) {
				this.knownEmpty = false;
				if (!wait) {
					return 0;
				}
			}
			int read = this.reader.fillHeld(wait ? Long.MAX_VALUE : 0);
			if (read < 0) {
				this.ended = true;
				return -1;
			}
			if (read == 0 && !wait) {
				this.knownEmpty = true;
				return 0;
			}
		}
		return 1;
	}

	private int copy(int state, byte[] bytes, int offset, int length) {
		if (state <= 0) {
			return state;
		}
		ByteBuffer in = this.reader.buffer();
		int n = Math.min(length, in.remaining());
		in.get(bytes, offset, n);
		return n;
	}

}
