package dev.ariadne.server.tls;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.GatheringByteChannel;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.internal.BufferBudget;
import dev.ariadne.server.internal.ByteArrayPool;
import dev.ariadne.server.stats.HandshakeOutcome;
import dev.ariadne.server.stats.TlsProtocol;

/**
 * The TLS side of one listener, shared by its connections: makes a configured
 * {@link SSLEngine} per connection, counts handshakes by outcome and protocol, and lends the
 * buffers that encrypted bytes pass through. Thread-safe.
 *
 * <p>Every engine is a server engine with the configured protocol versions and cipher suites
 * (the JDK's defaults when none are configured, with the server's order of preference), ALPN
 * offering {@code http/1.1}, and {@code h2} first when HTTP/2 is on (chosen only on TLS 1.3, or
 * on TLS 1.2 with an ephemeral key exchange and an AEAD cipher, RFC 9113 §9.2), and the
 * configured client authentication.
 */
public final class TlsEndpoint {

	/** Most free buffers kept for reuse: 256 of about 17 KiB, 4.3 MiB. */
	private static final int RETAINED_BUFFERS = 256;

	private static final String[] APPLICATION_PROTOCOLS = { TlsConfig.APPLICATION_PROTOCOL };

	private static final String HTTP2 = "h2";

	private static final String[] HTTP2_APPLICATION_PROTOCOLS = { HTTP2, TlsConfig.APPLICATION_PROTOCOL };

	private final boolean http2;

	private final TlsConfig config;

	private final String[] protocols;

	private final String[] cipherSuites;

	private final long handshakeTimeoutNanos;

	private final ByteArrayPool buffers;

	private final AtomicInteger borrowed = new AtomicInteger();

	private final LongAdder[] counts = adders();

	private final LongAdder[] nanos = adders();

	private TlsEndpoint(TlsConfig config, int bufferSize, BufferBudget budget, boolean http2) {
		this.config = config;
		this.http2 = http2;
		this.protocols = config.protocols().toArray(new String[0]);
		this.cipherSuites = config.cipherSuites().isEmpty() ? null : config.cipherSuites().toArray(new String[0]);
		this.handshakeTimeoutNanos = config.handshakeTimeout().toNanos();
		this.buffers = new ByteArrayPool(bufferSize, RETAINED_BUFFERS, budget);
	}

	/**
	 * Creates the TLS side of a listener, checking the configuration against its default
	 * context.
	 * @param config the configuration
	 * @param budget the server's buffer budget, which counts the record buffers in flight
	 * @param http2 whether ALPN offers {@code h2}
	 * @return the endpoint
	 * @throws IllegalArgumentException if a protocol version or cipher suite is unknown to the
	 * context, naming the property
	 */
	public static TlsEndpoint create(TlsConfig config, BufferBudget budget, boolean http2) {
		SSLContext context = config.context().get();
		if (context == null) {
			throw new IllegalArgumentException("ariadne.server.ssl.bundle supplied no SSL context");
		}
		SSLParameters supported = context.getSupportedSSLParameters();
		requireKnown("enabled-protocols", config.protocols(), supported.getProtocols());
		requireKnown("ciphers", config.cipherSuites(), supported.getCipherSuites());
		SSLEngine probe = context.createSSLEngine();
		int size = Math.max(probe.getSession().getPacketBufferSize(), probe.getSession().getApplicationBufferSize());
		return new TlsEndpoint(config, size, budget, http2);
	}

	private static void requireKnown(String property, List<String> names, String[] known) {
		List<String> all = Arrays.asList(known);
		for (String name : names) {
			if (!all.contains(name)) {
				throw new IllegalArgumentException("ariadne.server.ssl." + property + " names " + name
						+ ", which this JVM's TLS provider does not support; it supports " + all);
			}
		}
	}

	private static LongAdder[] adders() {
		LongAdder[] adders = new LongAdder[HandshakeOutcome.values().length * TlsProtocol.values().length];
		for (int i = 0; i < adders.length; i++) {
			adders[i] = new LongAdder();
		}
		return adders;
	}

	/**
	 * Returns the configuration.
	 * @return the configuration
	 */
	public TlsConfig config() {
		return this.config;
	}

	/**
	 * Returns the handshake timeout in nanoseconds.
	 * @return the timeout
	 */
	public long handshakeTimeoutNanos() {
		return this.handshakeTimeoutNanos;
	}

	/**
	 * Wraps a non-blocking socket of the event loop: the handshake runs as the connection reads
	 * and writes.
	 * @param net the accepted socket, in non-blocking mode
	 * @param onHandshake run on the thread that completes the handshake, once
	 * @return the channel to read and write through
	 */
	public <C extends ByteChannel & GatheringByteChannel> TlsChannel channel(C net, Runnable onHandshake) {
		return new TlsChannel(this, net, false, onHandshake);
	}

	/**
	 * Runs the handshake on a blocking socket, on the calling thread (the connection's), within
	 * the handshake timeout.
	 * @param socket the accepted socket
	 * @return the socket's TLS streams
	 * @throws PlaintextRequestException if the client sent plaintext HTTP; nothing was written
	 * @throws IOException if the handshake failed, timed out or the client closed
	 */
	public TlsSocket handshake(Socket socket) throws IOException {
		return TlsSocket.open(this, socket);
	}

	/**
	 * Returns how many handshakes ended with an outcome for a protocol.
	 * @param outcome the outcome
	 * @param protocol the protocol
	 * @return the count since start
	 */
	public long handshakes(HandshakeOutcome outcome, TlsProtocol protocol) {
		return this.counts[index(outcome, protocol)].sum();
	}

	/**
	 * Returns the time the handshakes counted by {@link #handshakes} took.
	 * @param outcome the outcome
	 * @param protocol the protocol
	 * @return the sum in nanoseconds
	 */
	public long handshakeNanos(HandshakeOutcome outcome, TlsProtocol protocol) {
		return this.nanos[index(outcome, protocol)].sum();
	}

	/**
	 * Returns the buffers lent and not yet given back, for leak checks.
	 * @return the count
	 */
	public int borrowedBuffers() {
		return this.borrowed.get();
	}

	private static int index(HandshakeOutcome outcome, TlsProtocol protocol) {
		return outcome.ordinal() * TlsProtocol.values().length + protocol.ordinal();
	}

	void record(HandshakeOutcome outcome, TlsProtocol protocol, long nanos) {
		int index = index(outcome, protocol);
		this.counts[index].increment();
		this.nanos[index].add(nanos);
	}

	/** Makes a server engine for a connection whose client asked for a host name (or none). */
	SSLEngine engine(String serverName) {
		SSLEngine engine = this.config.contextFor(serverName).get().createSSLEngine();
		engine.setUseClientMode(false);
		SSLParameters parameters = engine.getSSLParameters();
		parameters.setProtocols(this.protocols);
		if (this.cipherSuites != null) {
			parameters.setCipherSuites(this.cipherSuites);
		}
		parameters.setUseCipherSuitesOrder(true);
		parameters.setApplicationProtocols(this.http2 ? HTTP2_APPLICATION_PROTOCOLS : APPLICATION_PROTOCOLS);
		switch (this.config.clientAuth()) {
			case NEED -> parameters.setNeedClientAuth(true);
			case WANT -> parameters.setWantClientAuth(true);
			case NONE -> {
			}
		}
		engine.setSSLParameters(parameters);
		if (this.http2) {
			engine.setHandshakeApplicationProtocolSelector(TlsEndpoint::selectApplicationProtocol);
		}
		return engine;
	}

	/**
	 * Chooses {@code h2} when the client offers it and the handshake meets RFC 9113 §9.2 (TLS 1.3,
	 * or TLS 1.2 with ECDHE or DHE and an AEAD cipher), else {@code http/1.1}; a client that offers
	 * neither gets no ALPN answer and HTTP/1.1.
	 */
	static String selectApplicationProtocol(SSLEngine engine, List<String> offered) {
		if (offered.contains(HTTP2) && allowsHttp2(engine.getHandshakeSession())) {
			return HTTP2;
		}
		return offered.contains(TlsConfig.APPLICATION_PROTOCOL) ? TlsConfig.APPLICATION_PROTOCOL : "";
	}

	private static boolean allowsHttp2(SSLSession session) {
		if (session == null) {
			return false;
		}
		if ("TLSv1.3".equals(session.getProtocol())) {
			return true;
		}
		String cipher = session.getCipherSuite();
		return "TLSv1.2".equals(session.getProtocol()) && (cipher.startsWith("TLS_ECDHE_") || cipher.startsWith("TLS_DHE_"))
				&& (cipher.contains("_GCM_") || cipher.contains("_CHACHA20_POLY1305_"));
	}

	/** Lends an empty buffer in read mode, large enough for any record. */
	ByteBuffer borrow() {
		this.borrowed.incrementAndGet();
		return ByteBuffer.wrap(this.buffers.borrow()).limit(0);
	}

	/**
	 * Lends an empty buffer of at least a size, in read mode: one of the pool's when they are
	 * large enough, else a new one (for an engine that asks for more than it said at start).
	 */
	ByteBuffer borrow(int size) {
		if (size <= this.buffers.arraySize()) {
			return borrow();
		}
		this.borrowed.incrementAndGet();
		return ByteBuffer.allocate(size).limit(0);
	}

	/** Takes a buffer back; the caller must not touch it afterwards. */
	void release(ByteBuffer buffer) {
		this.borrowed.decrementAndGet();
		this.buffers.release(buffer.array());
	}

}
