package dev.ariadne.server.protocol;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import javax.net.ssl.SSLSession;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Headers;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http2.ErrorCode;
import dev.ariadne.http2.Http2Exception;
import dev.ariadne.http2.Http2Limits;
import dev.ariadne.http2.Http2Session;
import dev.ariadne.http2.Http2SettingsHeader;
import dev.ariadne.http2.Settings;
import dev.ariadne.server.Http2Config;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.stats.StreamCount;
import dev.ariadne.server.routing.Route;

/**
 * HTTP/2 on a connection (RFC 9113), the same in every I/O model, over an {@link Http2Session}:
 * frames are read and answered on the wire's own thread, which never runs a handler; each
 * stream's request becomes an exchange ({@link Http2Stream}) that the model runs on a thread of
 * its own ({@link Wire#fork}: queued on the event loop's workers, the blocking model's default
 * pool, or a virtual thread of its own); the streams' threads frame their responses into the
 * session and write them.
 *
 * <p><b>Threads.</b> The session is not thread-safe: every call on it, from the wire's thread or
 * a stream's, holds {@link #lock}; waits for flow-control credit, for request content and for
 * the output to drain are on its {@link #changed} condition, which every change signals. One
 * thread at a time writes what the session framed ({@link Http2Output}), and the exchanges of
 * its streams are kept, with what the session says of them, by {@link Http2Streams}. The
 * protocol stays {@link Phase#READING} until the connection closes, but for the time a client
 * that does not read leaves the wire's output backlogged ({@link Phase#FLUSHING}): nothing more
 * is read from it meanwhile.
 */
public final class Http2Protocol implements Protocol {

	private static final Logger logger = System.getLogger(Http2Protocol.class.getName());

	/** HTTP/2 over TLS as ALPN names it (RFC 9113 §3.2). */
	public static final String ALPN_ID = "h2";

	/** Bytes framed and not yet written above which a stream's writer waits for the output to drain. */
	static final int OUTPUT_HIGH = 64 * 1024;

	final Wire wire;

	final ConnectionContext context;

	/** {@code h2} when TLS chose it by ALPN, else {@code h2c}: the handshake is over by now. */
	private final String name;

	final ReentrantLock lock = new ReentrantLock();

	/** Signalled on every change a waiting stream's thread may want: credit, content, output, resets. */
	final Condition changed = this.lock.newCondition();

	/** Under the lock. */
	final Http2Session session;

	/** Writes what the session frames, one thread at a time. */
	final Http2Output output;

	/** The streams whose exchange has begun and not ended, and what the session says of them. */
	final Http2Streams streams;

	/** What the wire flushes before it waits for input: nothing, since frames go through {@link #output}. */
	private final ConnectionOutput idleOut;

	/** The longest a stream's writer waits for credit or for the client to read: {@code http2.write-timeout}. */
	final long writeTimeoutNanos;

	// ---- the wire's own thread

	private ByteBuffer in;

	/** When an idle connection closes: set by the wire's thread, and by the thread of a stream that ends. */
	private volatile long idleDeadline;

	private volatile Phase phase = Phase.READING;

	/** The request that upgraded the connection to h2c, served as stream 1; else {@code null}. */
	private RequestHead upgradeHead;

	private Settings upgradeSettings;

	/**
	 * Creates the protocol of a connection that sent, or is about to send, the HTTP/2 preface.
	 * @param wire the connection's transport
	 */
	public Http2Protocol(Wire wire) {
		this.wire = wire;
		this.context = wire.context();
		this.name = ALPN_ID.equals(wire.applicationProtocol()) ? ALPN_ID : "h2c";
		ServerConfig config = this.context.config();
		this.idleOut = new ConnectionOutput(wire.transmitter(), this.context.outputBuffers());
		this.writeTimeoutNanos = config.http2().writeTimeout().toNanos();
		Http2Limits limits = limits(config);
		this.streams = new Http2Streams(this, limits);
		this.session = new Http2Session(limits, this.streams);
		this.output = new Http2Output(this);
	}

	/**
	 * Makes the protocol of a connection whose HTTP/1.1 request asked to upgrade to h2c and was
	 * answered 101: the request becomes stream 1, and the client's preface follows.
	 * @param wire the connection's transport
	 * @param head the upgraded request, without content
	 * @param settings the client's {@code HTTP2-Settings}
	 * @return the protocol
	 */
	static Http2Protocol upgraded(Wire wire, RequestHead head, Settings settings) {
		Http2Protocol protocol = new Http2Protocol(wire);
		protocol.upgradeHead = head;
		protocol.upgradeSettings = settings;
		return protocol;
	}

	/**
	 * Returns the settings of an HTTP/1.1 request that asks to upgrade to h2c (RFC 7540 §3.2):
	 * {@code Upgrade: h2c}, one {@code HTTP2-Settings} field that decodes, and both named in
	 * {@code Connection}.
	 * @param head the request
	 * @return the settings, or {@code null} when the request is served over HTTP/1.1
	 */
	static Settings upgradeSettings(RequestHead head) {
		Headers headers = head.headers();
		if (!headers.containsToken(HeaderName.UPGRADE, "h2c")
				|| !headers.containsToken(HeaderName.CONNECTION, HeaderName.UPGRADE)
				|| !headers.containsToken(HeaderName.CONNECTION, Http2SettingsHeader.NAME)) {
			return null;
		}
		List<String> values = headers.all(Http2SettingsHeader.NAME);
		if (values.size() != 1) {
			return null;
		}
		try {
			return Http2SettingsHeader.decode(values.get(0).strip());
		}
		catch (Http2Exception ex) {
			return null;
		}
	}

	/**
	 * The codec's limits from the listener's configuration: the header list follows
	 * {@code request.max-header-size} unless set, and an encoded block may be as large as the
	 * decoded list it may make.
	 */
	static Http2Limits limits(ServerConfig config) {
		Http2Config http2 = config.http2();
		int headerListSize = (http2.maxHeaderListSize() > 0) ? http2.maxHeaderListSize() : config.limits().maxHeaderSize();
		return new Http2Limits(http2.maxConcurrentStreams(), http2.initialWindowSize(), http2.connectionWindowSize(),
				http2.maxFrameSize(), headerListSize, Math.max(headerListSize, Http2Limits.DEFAULTS.maxHeaderBlockSize()),
				Http2Limits.DEFAULTS.maxContinuations(), http2.maxControlFrames(), http2.maxResets(),
				http2.rateWindow().toNanos(), config.limits());
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public StreamCount streams() {
		this.lock.lock();
		try {
			return this.streams.count();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public Phase phase() {
		return this.phase;
	}

	// ---- starting

	@Override
	public void start(long deadline, long waitedNanos) {
		this.output.wireThread = Thread.currentThread();
		this.idleDeadline = deadline;
		this.lock.lock();
		try {
			this.session.start();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void handshaken(SSLSession session) {
		this.idleDeadline = this.wire.now() + this.context.config().headerTimeout().toNanos();
	}

	/**
	 * Takes the connection over from HTTP/1.1, which saw the preface: the server's preface goes
	 * out, then what the client sent is read.
	 */
	@Override
	public void takeOver(ByteBuffer unread) {
		start(this.wire.now() + this.context.config().keepAliveTimeout().toNanos(), 0);
		if (this.upgradeHead != null) {
			this.lock.lock();
			try {
				this.session.upgraded(this.upgradeHead, this.upgradeSettings);
				this.streams.request(1, this.upgradeHead, true);
			}
			catch (Http2Exception ex) {
				// the settings were checked when decoded; a window they overflow ends the session
				this.session.fail(ex.error(), ex.reason());
			}
			finally {
				this.lock.unlock();
			}
			this.streams.startArrived();
			this.upgradeHead = null;
			this.upgradeSettings = null;
		}
		this.in = unread;
		if (unread != null && unread.hasRemaining()) {
			onInput(unread.remaining());
		}
		else {
			releaseEmptyInput();
			this.output.flushFromWire();
		}
	}

	// ---- reading (the wire's own thread)

	@Override
	public int fill(long until) throws IOException {
		if (this.in == null && !borrowInput()) {
			return 0;
		}
		return this.wire.read(this.in, until);
	}

	@Override
	public boolean holdsInput() {
		return this.in != null;
	}

	@Override
	public boolean borrowInput() {
		this.in = this.wire.borrowInput();
		return this.in != null;
	}

	@Override
	public void awaitingInputBuffer() {
	}

	@Override
	public void releaseEmptyInput() {
		if (this.in != null && !this.in.hasRemaining()) {
			this.wire.releaseInput(this.in);
			this.in = null;
		}
	}

	@Override
	public void onInput(int read) {
		this.output.wireThread = Thread.currentThread();
		boolean alive;
		this.lock.lock();
		try {
			alive = this.session.receive(this.in);
		}
		finally {
			this.lock.unlock();
		}
		// even on a connection that fails now: they see it reset and end at once
		this.streams.startArrived();
		releaseEmptyInput();
		if (!alive) {
			Http2Exception failure = this.session.failure();
			if (failure.abuse() != null) {
				this.context.registry().defended(Http2Streams.defence(failure.abuse()), false);
			}
			logger.log(Level.DEBUG, () -> "HTTP/2 connection from " + this.wire.remoteAddress() + " failed: "
					+ failure.getMessage());
			closeAfterGoAway();
			return;
		}
		if (this.context.registry().shuttingDown()) {
			// the streams opened so far run; the client opens no more here, and knows it
			queueGoAway();
		}
		this.output.flushFromWire();
		if (this.wire.writesBacklogged() && this.phase == Phase.READING) {
			// the client does not read what it is sent: read nothing more from it until it has,
			// and the wire's write timeout ends it if it never does
			this.phase = Phase.FLUSHING;
			return;
		}
		if (idle()) {
			this.idleDeadline = this.wire.now() + this.context.config().keepAliveTimeout().toNanos();
			if (this.context.registry().shuttingDown()) {
				goAwayAndClose();
			}
		}
	}

	@Override
	public void plaintextOnTls() {
		this.wire.close();
	}

	@Override
	public void reject(String reason, int retryAfterSeconds) {
		this.wire.close();
	}

	@Override
	public ConnectionOutput out() {
		return this.idleOut;
	}

	// ---- deadlines

	/** Idle while no stream is open: the keep-alive timeout then closes the connection. */
	@Override
	public boolean isIdle() {
		return idle();
	}

	@Override
	public long readDeadline() {
		return idle() ? this.idleDeadline : Long.MAX_VALUE;
	}

	@Override
	public boolean isDue(long now) {
		return now - this.idleDeadline >= 0 && idle();
	}

	@Override
	public void checkTimeout(long now) {
		if (isDue(now)) {
			goAwayAndClose();
		}
	}

	private boolean idle() {
		this.lock.lock();
		try {
			return this.streams.isEmpty() && this.session.activeStreams() == 0;
		}
		finally {
			this.lock.unlock();
		}
	}

	// ---- what the streams share

	/** A stream's exchange ended: it is forgotten, and an idle connection's timeout starts; under the lock. */
	void ended(Http2Stream stream) {
		this.streams.remove(stream);
		if (this.streams.isEmpty()) {
			this.idleDeadline = System.nanoTime() + this.context.config().keepAliveTimeout().toNanos();
		}
		this.changed.signalAll();
	}

	/** Sends the GOAWAY the session queued for a connection error, then closes. */
	private void closeAfterGoAway() {
		this.phase = Phase.CLOSING;
		ConnectionOutput last = this.output.takeLast();
		if (last == null) {
			// a stream's writer holds the turn: the GOAWAY may not get out first
			this.wire.close();
			return;
		}
		this.wire.closeAfterAnswer(last, false);
	}

	/** Ends an idle connection (its timeout, a shutdown) with a GOAWAY saying so. */
	private void goAwayAndClose() {
		queueGoAway();
		closeAfterGoAway();
	}

	/** A graceful GOAWAY, once: the streams the client opened so far go on, later ones are ignored. */
	private void queueGoAway() {
		this.lock.lock();
		try {
			this.session.goAway(null);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Queues a graceful {@code GOAWAY} and writes it, unless the connection is closing already or
	 * its client leaves what it is sent unread.
	 */
	@Override
	public void goAway() {
		if (this.phase != Phase.READING || this.wire.writesBacklogged()) {
			return;
		}
		queueGoAway();
		this.output.flushFromWire();
	}

	@Override
	public boolean saysGoodbye() {
		return true;
	}

	// ---- writing and exchanges

	/** What the client left unread is written ({@link Phase#FLUSHING}): its input is read again. */
	@Override
	public void flushed() {
		if (this.phase == Phase.FLUSHING) {
			this.phase = Phase.READING;
			this.wire.readAgain();
		}
	}

	/**
	 * The default pool: the streams' exchanges run there unless their route names another, and the
	 * wire's writes honour its low-resources stall timeout while it is starved.
	 */
	@Override
	public String workerPool() {
		return Route.DEFAULT_POOL;
	}

	@Override
	public boolean inExchange() {
		this.lock.lock();
		try {
			return !this.streams.isEmpty();
		}
		finally {
			this.lock.unlock();
		}
	}

	// ---- closing

	@Override
	public void closed() {
		this.phase = Phase.CLOSED;
		failStreams();
		if (this.in != null) {
			this.wire.releaseInput(this.in);
			this.in = null;
		}
	}

	@Override
	public void abandoned() {
		this.wire.close();
	}

	@Override
	public void abort(boolean beforePoolsStop) {
		failStreams();
	}

	private void failStreams() {
		this.lock.lock();
		try {
			this.streams.resetAll(ErrorCode.CANCEL);
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

}
