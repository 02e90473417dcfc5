package dev.ariadne.server.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;

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
 * <p>Where the wire pools its input buffers (the event loop) and the connection is plaintext,
 * the tunnel gives its input buffer back once a non-blocking reader has read what it held, and
 * reads straight into the reader's array from then on: a quiet upgraded connection holds no
 * input buffer. (Over TLS it keeps it: bytes TLS decrypted into a buffer of its own would not
 * be signalled by the socket again.) Elsewhere the input buffer stays with the connection until
 * it closes.
 *
 * <p>One reader at a time, which owns the input buffer while it reads.
 */
final class Http1Tunnel {

	private final Http1Reader reader;

	private final Wire wire;

	/** Whether the tunnel may give its input buffer back and read into the reader's arrays. */
	private final boolean mayDetach;

	/** Whether it did: the connection's bytes go straight into the reader's arrays. */
	private volatile boolean detached;

	/** The byte a readiness check of a detached tunnel read, for the next read; the reader's. */
	private ByteBuffer peeked;

	/** The protocol the connection switched to, as the request named it. */
	private final String protocol;

	/** Whether the client closed its side: every read from now on returns -1. */
	private volatile boolean ended;

	/** A failure a readiness check found, thrown by the next non-blocking read. */
	private volatile IOException failure;

	/** Whether the wire's own thread reads for a non-blocking reader. */
	private volatile boolean fetching;

	Http1Tunnel(Http1Reader reader, Wire wire, RequestHead head) {
		this.reader = reader;
		this.wire = wire;
		this.mayDetach = wire.poolsInput() && wire.tlsSession() == null;
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
		if (this.detached) {
			return this.ended && available() == 0;
		}
		ByteBuffer in = this.reader.buffer();
		return this.ended && (in == null || !in.hasRemaining());
	}

	/**
	 * Returns the bytes a read returns without touching the connection.
	 * @return the bytes in the input buffer
	 */
	int available() {
		if (this.detached) {
			ByteBuffer peeked = this.peeked;
			return (peeked != null) ? peeked.remaining() : 0;
		}
		ByteBuffer in = this.reader.buffer();
		return (in != null) ? in.remaining() : 0;
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
		if (this.detached) {
			return direct(bytes, offset, length, Long.MAX_VALUE);
		}
		return copy(advance(true), bytes, offset, length);
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
		if (this.detached) {
			return direct(bytes, offset, length, 0);
		}
		int read = copy(advance(false), bytes, offset, length);
		if (this.mayDetach) {
			detachIfEmpty();
		}
		return read;
	}

	/** Gives the input buffer back once it is used up, to the wire's thread, which owns the pool. */
	private void detachIfEmpty() {
		ByteBuffer in = this.reader.buffer();
		if (in != null && !in.hasRemaining()) {
			this.detached = true;
			ByteBuffer buffer = this.reader.detach();
			this.wire.execute(() -> this.wire.releaseInput(buffer));
		}
	}

	/**
	 * Reads from the connection straight into the reader's array, the byte a readiness check
	 * read first.
	 */
	private int direct(byte[] bytes, int offset, int length, long until) throws IOException {
		int first = 0;
		ByteBuffer peeked = this.peeked;
		if (peeked != null && peeked.hasRemaining()) {
			bytes[offset] = peeked.get();
			first = 1;
		}
		if (this.ended || first == length) {
			return (first > 0) ? first : (this.ended ? -1 : 0);
		}
		ByteBuffer into = ByteBuffer.wrap(bytes, offset + first, length - first).slice().limit(0);
		int read = this.wire.read(into, (first > 0) ? 0 : until);
		if (read < 0) {
			this.ended = true;
			return (first > 0) ? first : -1;
		}
		return first + read;
	}

	/**
	 * Whether the connection has a byte now, read into a one-byte buffer that the next read
	 * returns first: how a tunnel without an input buffer answers a readiness check.
	 */
	private boolean peek() throws IOException {
		ByteBuffer peeked = this.peeked;
		if (peeked == null) {
			peeked = ByteBuffer.allocate(1).limit(0);
			this.peeked = peeked;
		}
		if (peeked.hasRemaining()) {
			return true;
		}
		int read = this.wire.read(peeked, 0);
		if (read < 0) {
			this.ended = true;
		}
		return read != 0;
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
		try {
			if (this.mayDetach && !this.detached) {
				detachIfEmpty();
			}
			if (this.detached) {
				return this.ended || peek();
			}
			return advance(false) != 0;
		}
		catch (IOException ex) {
			this.failure = ex;
			return true;
		}
	}

	/**
	 * Reads, waiting, until a non-blocking read has something: how the wire's own thread reads
	 * for a non-blocking reader where it has nothing else to do (the socket models).
	 */
	void fetch() {
		this.fetching = true;
		try {
			advance(true);
		}
		catch (IOException ex) {
			this.failure = ex;
		}
		finally {
			this.fetching = false;
		}
	}

	/**
	 * Reads from the connection if the input buffer is used up.
	 * @param wait whether to wait for the client
	 * @return 1 when bytes are there, -1 at the end, 0 when there are none without waiting
	 */
	private int advance(boolean wait) throws IOException {
		ByteBuffer in = this.reader.buffer();
		if (in == null) {
			// the exchange has ended, and the connection with it
			return -1;
		}
		while (!in.hasRemaining()) {
			if (this.ended) {
				return -1;
			}
			int read = this.reader.fillHeld(wait ? Long.MAX_VALUE : 0);
			if (read < 0) {
				this.ended = true;
				return -1;
			}
			if (read == 0 && !wait) {
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
