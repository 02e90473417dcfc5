package dev.ariadne.server.tls;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.GatheringByteChannel;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;

import dev.ariadne.server.stats.HandshakeOutcome;
import dev.ariadne.server.stats.TlsProtocol;

/**
 * A {@link ByteChannel} that decrypts what it reads from a socket and encrypts what it writes
 * to it, with one {@link SSLEngine} per connection, so that a connection keeps reading and
 * writing a channel whether it speaks TLS or not. The handshake runs inside {@link #read}: the
 * first bytes pick the context (SNI) or reveal plaintext HTTP
 * ({@link PlaintextRequestException}), the engine's tasks run on the reading thread, and its
 * handshake messages are written as they come. Renegotiation is refused on TLS 1.2 (a
 * {@link SSLException} closes the connection).
 *
 * <p><b>Over a non-blocking socket</b> (the event loop), nothing ever waits: {@code read}
 * returns 0 when the socket has nothing, and {@code write} returns what the socket took. A
 * write reports a byte written only once what was encrypted has left: when the socket takes only
 * part of it, the rest waits here and the last byte encrypted is reported unwritten, so the
 * caller keeps it, watches the socket for writability and offers it again; this channel then
 * sends the rest and takes the byte without encrypting it twice. What one write hands over is
 * encrypted into as many records as it needs, and they leave with one (gathering) socket write,
 * as do the messages of one handshake flight ({@link TlsOutput}). Two signals need the caller
 * besides: {@link #wantsWrite()} (handshake bytes wait for the socket: call {@link #flush()} when
 * it is writable) and {@link #hasBufferedInput()} (decrypted or whole encrypted records wait
 * here: read again without waiting for readiness).
 *
 * <p><b>Over a blocking socket</b> ({@link TlsSocket}), reads wait for a record and writes send
 * everything.
 *
 * <p>Threads: one thread reads at a time and one writes at a time (each side has a lock, the
 * write side's is its {@link TlsOutput}); a read and a write may run at once. A read that
 * advances the handshake takes the write side's lock to write its messages, never the other way
 * round. Buffers come from the endpoint and go back as soon as they are empty, so an idle
 * connection holds none.
 */
public final class TlsChannel implements ByteChannel {

	private static final int RECORD_HEADER = 5;

	private final TlsEndpoint endpoint;

	private final ByteChannel net;

	private final boolean blocking;

	private final Runnable onHandshake;

	private final long startNanos = System.nanoTime();

	private final Object readLock = new Object();

	/** The write side; its monitor is the write lock. */
	private final TlsOutput output;

	private final AtomicBoolean counted = new AtomicBoolean();

	/** Set by the reader once the first bytes picked the context. */
	private volatile SSLEngine engine;

	private volatile boolean handshaken;

	/** The client spoke plaintext HTTP: bytes pass through from then on. */
	private volatile boolean plaintext;

	private volatile boolean closed;

	// ---- read side, guarded by readLock

	/** The highest version the client offered, for a failed handshake's protocol tag. */
	private TlsProtocol offered = TlsProtocol.UNKNOWN;

	/** Encrypted bytes read from the socket, in read mode; borrowed while it holds any. */
	private ByteBuffer netIn;

	/** Decrypted bytes the caller had no room for, in read mode; borrowed while it holds any. */
	private ByteBuffer appIn;

	/** The client's close_notify or the end of the stream was read. */
	private boolean inputDone;

	<C extends ByteChannel & GatheringByteChannel> TlsChannel(TlsEndpoint endpoint, C net, boolean blocking,
			Runnable onHandshake) {
		this.endpoint = endpoint;
		this.net = net;
		this.blocking = blocking;
		this.onHandshake = onHandshake;
		this.output = new TlsOutput(this, endpoint, net);
	}

	/**
	 * Reads decrypted bytes, advancing the handshake as far as the input allows.
	 * @param dst where to put them
	 * @return bytes read; 0 when a non-blocking socket has nothing more now; -1 at the client's
	 * close_notify or the end of the stream
	 * @throws PlaintextRequestException if the client sent plaintext HTTP: answer it in
	 * plaintext, through this channel, and close
	 * @throws IOException if the socket or the handshake failed, or renegotiation was asked for
	 */
	@Override
	public int read(ByteBuffer dst) throws IOException {
		synchronized (this.readLock) {
			if (this.closed) {
				throw new ClosedChannelException();
			}
			if (this.plaintext) {
				return this.net.read(dst);
			}
			try {
				return readLocked(dst);
			}
			finally {
				releaseEmptyInput();
			}
		}
	}

	private int readLocked(ByteBuffer dst) throws IOException {
		int delivered = 0;
		while (true) {
			delivered += drainInto(dst);
			if (!dst.hasRemaining()) {
				return delivered;
			}
			if (this.inputDone) {
				return (delivered > 0) ? delivered : -1;
			}
			if (unwrapRecord()) {
				continue;
			}
			if (delivered > 0) {
				return delivered;
			}
			int read = fill();
			if (read < 0) {
				endOfInput();
			}
			else if (read == 0) {
				return 0;
			}
		}
	}

	/**
	 * Runs the whole handshake over a blocking socket; a request sent with the client's last
	 * handshake message waits here for the first read.
	 */
	void handshake() throws IOException {
		synchronized (this.readLock) {
			try {
				while (!this.handshaken) {
					if (this.inputDone) {
						throw new EOFException("The client closed the connection during the TLS handshake");
					}
					if (!unwrapRecord() && fill() < 0) {
						endOfInput();
					}
				}
			}
			catch (SocketTimeoutException ex) {
				count(HandshakeOutcome.TIMEOUT, this.offered);
				throw ex;
			}
			finally {
				releaseEmptyInput();
			}
		}
	}

	/**
	 * Unwraps one record of the encrypted input and runs what the handshake needs next; reads
	 * nothing from the socket.
	 * @return whether anything moved: input consumed, bytes decrypted, a handshake step
	 */
	private boolean unwrapRecord() throws IOException {
		ByteBuffer in = this.netIn;
		if (in == null || !in.hasRemaining()) {
			return false;
		}
		SSLEngine engine = this.engine;
		if (engine == null) {
			engine = start(in);
			if (engine == null) {
				return false;
			}
		}
		if (this.appIn == null) {
			this.appIn = this.endpoint.borrow();
		}
		SSLEngineResult result = unwrap(engine, in);
		if (result.getStatus() == Status.CLOSED) {
			this.inputDone = true;
			return true;
		}
		HandshakeStatus status = result.getHandshakeStatus();
		if (this.handshaken && status != HandshakeStatus.NOT_HANDSHAKING && status != HandshakeStatus.FINISHED
				&& TlsProtocol.of(engine.getSession().getProtocol()) != TlsProtocol.TLS_1_3) {
			throw new SSLException("TLS renegotiation refused");
		}
		boolean stepped = handshakeStep(status);
		return stepped || result.bytesConsumed() > 0 || result.bytesProduced() > 0;
	}

	private SSLEngineResult unwrap(SSLEngine engine, ByteBuffer in) throws IOException {
		while (true) {
			ByteBuffer out = this.appIn;
			out.compact();
			SSLEngineResult result;
			try {
				result = engine.unwrap(in, out);
			}
			catch (SSLException ex) {
				failed(ex);
				this.output.sendAlert(engine);
				throw ex;
			}
			finally {
				out.flip();
			}
			if (result.getStatus() != Status.BUFFER_OVERFLOW || out.hasRemaining()) {
				return result;
			}
			// an empty buffer too small for a record: the engine's own size, unpooled
			this.endpoint.release(out);
			this.appIn = this.endpoint.borrow(engine.getSession().getApplicationBufferSize());
		}
	}

	/** Reads the first bytes: plaintext, or the ClientHello that picks the context. */
	private SSLEngine start(ByteBuffer in) throws IOException {
		ClientHello hello = ClientHello.inspect(in);
		if (hello.kind() == ClientHello.Kind.INCOMPLETE) {
			return null;
		}
		if (hello.kind() == ClientHello.Kind.PLAINTEXT) {
			this.plaintext = true;
			count(HandshakeOutcome.PLAINTEXT, TlsProtocol.UNKNOWN);
			throw new PlaintextRequestException();
		}
		this.offered = hello.offered();
		SSLEngine engine;
		try {
			engine = this.endpoint.engine(hello.serverName());
			engine.beginHandshake();
		}
		catch (SSLException ex) {
			throw failed(ex);
		}
		catch (RuntimeException ex) {
			throw failed(new SSLException("Could not start a TLS handshake: " + ex.getMessage(), ex));
		}
		this.engine = engine;
		return engine;
	}

	/**
	 * Runs what the handshake needs next without input: its tasks, on this thread; its
	 * messages, written as far as the socket takes them; its completion.
	 * @return whether a step was taken
	 */
	private boolean handshakeStep(HandshakeStatus status) throws IOException {
		boolean stepped = false;
		HandshakeStatus next = status;
		while (true) {
			switch (next) {
				case NEED_TASK -> {
					Runnable task;
					while ((task = this.engine.getDelegatedTask()) != null) {
						task.run();
					}
					next = this.engine.getHandshakeStatus();
				}
				case NEED_WRAP -> {
					next = this.output.wrapHandshake(this.engine);
					if (next == null) {
						// the socket is full: flush() goes on once it is writable
						return stepped;
					}
				}
				case FINISHED -> {
					finished();
					next = this.engine.getHandshakeStatus();
				}
				default -> {
					return stepped;
				}
			}
			stepped = true;
		}
	}

	private void finished() {
		if (this.handshaken) {
			return;
		}
		this.handshaken = true;
		count(HandshakeOutcome.SUCCESS, TlsProtocol.of(this.engine.getSession().getProtocol()));
		if (this.onHandshake != null) {
			this.onHandshake.run();
		}
	}

	/** Reads what the socket has into the encrypted input; -1 at its end. */
	private int fill() throws IOException {
		if (this.netIn == null) {
			this.netIn = this.endpoint.borrow();
		}
		ByteBuffer in = this.netIn;
		in.compact();
		if (!in.hasRemaining()) {
			// a record larger than the buffer: only a non-standard peer sends one
			in.flip();
			throw failed(new SSLException("TLS record larger than " + in.capacity() + " bytes"));
		}
		try {
			return this.net.read(in);
		}
		finally {
			in.flip();
		}
	}

	private void endOfInput() {
		this.inputDone = true;
		SSLEngine engine = this.engine;
		if (engine != null && this.handshaken) {
			try {
				engine.closeInbound();
			}
			catch (SSLException ex) {
				// no close_notify first: a truncation the HTTP framing detects on its own
			}
		}
		if (!this.handshaken) {
			countUnfinished();
		}
	}

	private int drainInto(ByteBuffer dst) {
		ByteBuffer app = this.appIn;
		if (app == null || !app.hasRemaining() || !dst.hasRemaining()) {
			return 0;
		}
		int n = Math.min(app.remaining(), dst.remaining());
		int limit = app.limit();
		app.limit(app.position() + n);
		dst.put(app);
		app.limit(limit);
		return n;
	}

	/**
	 * Writes bytes, encrypted. Over a non-blocking socket, a byte counts as written once the
	 * record that carries it has left (see the class description).
	 * @param src the bytes
	 * @return the bytes taken
	 * @throws IOException if the socket failed or the channel is closed
	 */
	@Override
	public int write(ByteBuffer src) throws IOException {
		synchronized (this.output) {
			if (this.closed || this.output.closed()) {
				throw new ClosedChannelException();
			}
			if (this.plaintext) {
				return this.net.write(src);
			}
			if (!this.handshaken) {
				throw new SSLException("Nothing can be written before the TLS handshake completes");
			}
			return this.output.write(this.engine, src);
		}
	}

	/**
	 * Writes what waits for the socket, and the handshake's next messages; for the event loop
	 * when the socket is writable and {@link #wantsWrite()} said so.
	 * @return whether nothing waits any more
	 * @throws IOException if the socket or the handshake failed
	 */
	public boolean flush() throws IOException {
		synchronized (this.output) {
			if (this.closed) {
				return true;
			}
			if (!this.output.flush()) {
				return false;
			}
		}
		SSLEngine engine = this.engine;
		if (engine != null && !this.plaintext && engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
			synchronized (this.readLock) {
				handshakeStep(engine.getHandshakeStatus());
			}
		}
		return !this.output.wantsWrite();
	}

	/**
	 * Returns whether encrypted bytes wait for the socket to become writable, which a write
	 * will not flush (handshake messages): watch for writability and {@link #flush()}.
	 * @return whether bytes wait
	 */
	public boolean wantsWrite() {
		return this.output.wantsWrite();
	}

	/**
	 * Returns whether input waits here that the socket will not signal again: decrypted bytes
	 * or whole records read with others. Read again without waiting for readiness.
	 * @return whether a read would return bytes without reading the socket
	 */
	public boolean hasBufferedInput() {
		synchronized (this.readLock) {
			if (this.plaintext || this.closed) {
				return false;
			}
			return (this.appIn != null && this.appIn.hasRemaining()) || wholeRecord(this.netIn);
		}
	}

	/**
	 * Returns the decrypted bytes a read returns without blocking, about.
	 * @return the count
	 */
	int available() {
		synchronized (this.readLock) {
			int buffered = (this.appIn != null) ? this.appIn.remaining() : 0;
			return (buffered == 0 && wholeRecord(this.netIn)) ? 1 : buffered;
		}
	}

	private static boolean wholeRecord(ByteBuffer in) {
		if (in == null || in.remaining() < RECORD_HEADER) {
			return false;
		}
		int start = in.position();
		int length = ((in.get(start + 3) & 0xff) << 8) | (in.get(start + 4) & 0xff);
		return in.remaining() >= RECORD_HEADER + length;
	}

	/**
	 * Sends close_notify, after whatever waits: the orderly end of the server's side before it
	 * shuts the socket's output down.
	 * @return whether it left; when {@code false} (a full non-blocking socket), call again once
	 * the socket is writable
	 * @throws IOException if the socket failed
	 */
	public boolean closeOutbound() throws IOException {
		synchronized (this.output) {
			if (this.plaintext || this.engine == null || this.closed) {
				return true;
			}
			return this.output.closeOutbound(this.engine);
		}
	}

	/**
	 * Returns the TLS session.
	 * @return the session, or {@code null} before the client's first message was read
	 */
	public SSLSession session() {
		SSLEngine engine = this.engine;
		return (engine != null) ? engine.getSession() : null;
	}

	/**
	 * Returns the application protocol ALPN chose in the handshake.
	 * @return its id, or {@code null} before the handshake completed or when none was chosen
	 */
	public String applicationProtocol() {
		SSLEngine engine = this.engine;
		String protocol = (engine != null) ? engine.getApplicationProtocol() : null;
		return (protocol == null || protocol.isEmpty()) ? null : protocol;
	}

	/**
	 * Returns whether the handshake has completed.
	 * @return whether the connection is ready for requests
	 */
	public boolean handshaken() {
		return this.handshaken;
	}

	@Override
	public boolean isOpen() {
		return !this.closed && this.net.isOpen();
	}

	/**
	 * Closes the channel and the socket: over a non-blocking socket, sends close_notify first
	 * if the socket takes it now; gives the buffers back; counts a handshake that never ended
	 * (timed out when the handshake timeout has passed, else closed).
	 * @throws IOException if closing the socket failed
	 */
	@Override
	public void close() throws IOException {
		try {
			release(!this.blocking);
		}
		finally {
			this.net.close();
		}
	}

	/**
	 * Gives the buffers back and counts a handshake that never ended, without touching the
	 * socket: for a blocking socket, closed by its connection. The channel is closed afterwards.
	 */
	void release() {
		release(false);
	}

	private void release(boolean closeNotify) {
		if (this.closed) {
			return;
		}
		this.closed = true;
		if (!this.handshaken) {
			countUnfinished();
		}
		this.output.release(this.engine, closeNotify && this.handshaken && !this.plaintext);
		synchronized (this.readLock) {
			releaseInput(this.netIn);
			this.netIn = null;
			releaseInput(this.appIn);
			this.appIn = null;
		}
	}

	private void releaseEmptyInput() {
		if (this.netIn != null && !this.netIn.hasRemaining()) {
			releaseInput(this.netIn);
			this.netIn = null;
		}
		if (this.appIn != null && !this.appIn.hasRemaining()) {
			releaseInput(this.appIn);
			this.appIn = null;
		}
	}

	private void releaseInput(ByteBuffer buffer) {
		if (buffer != null) {
			this.endpoint.release(buffer);
		}
	}

	/** Counts a failed handshake, if it failed during one. */
	SSLException failed(SSLException failure) {
		if (!this.handshaken) {
			SSLEngine engine = this.engine;
			SSLSession session = (engine != null) ? engine.getHandshakeSession() : null;
			TlsProtocol negotiated = (session != null) ? TlsProtocol.of(session.getProtocol()) : TlsProtocol.UNKNOWN;
			count(HandshakeOutcome.FAILED, (negotiated != TlsProtocol.UNKNOWN) ? negotiated : this.offered);
		}
		return failure;
	}

	private void countUnfinished() {
		boolean late = System.nanoTime() - this.startNanos >= this.endpoint.handshakeTimeoutNanos();
		count(late ? HandshakeOutcome.TIMEOUT : HandshakeOutcome.CLOSED, this.offered);
	}

	private void count(HandshakeOutcome outcome, TlsProtocol protocol) {
		if (this.counted.compareAndSet(false, true)) {
			this.endpoint.record(outcome, protocol, System.nanoTime() - this.startNanos);
		}
	}

}
