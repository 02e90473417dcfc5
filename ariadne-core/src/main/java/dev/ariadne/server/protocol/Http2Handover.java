package dev.ariadne.server.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Version;
import dev.ariadne.http2.Preface;
import dev.ariadne.http2.Settings;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.ConnectionOutput;

/**
 * How an HTTP/1.1 connection becomes an HTTP/2 one, on the wire's own thread: ALPN chose
 * {@code h2} on TLS, the first bytes of a plaintext connection are the HTTP/2 preface (h2c by
 * prior knowledge), or a request without content asks for {@code Upgrade: h2c} (answered 101).
 * Each hands the connection to {@link Http2Protocol} with what was read of it; before that,
 * {@code handingOver} lets the HTTP/1.1 side stop.
 */
final class Http2Handover {

	private static final byte[] SWITCHING_TO_H2C = "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"
		.getBytes(StandardCharsets.US_ASCII);

	/** What the first bytes say. */
	enum Start {

		/** HTTP/1.1: parse them. */
		HTTP_1_1,

		/** Perhaps the preface: wait for more. */
		UNDECIDED,

		/** HTTP/2: the connection was handed over. */
		HANDED_OVER

	}

	private final Wire wire;

	private final Http1Reader reader;

	private final ConnectionOutput out;

	private final Runnable handingOver;

	/** Whether the first bytes may still be the preface (a plaintext listener with HTTP/2 on). */
	private boolean mayBePreface;

	/** Whether ALPN chose h2: the first bytes hand the connection over. */
	private boolean alpnHttp2;

	/** Whether a request may ask to upgrade to h2c (a plaintext listener with HTTP/2 on). */
	private final boolean mayUpgrade;

	Http2Handover(Wire wire, ServerConfig config, Http1Reader reader, ConnectionOutput out, Runnable handingOver) {
		this.wire = wire;
		this.reader = reader;
		this.out = out;
		this.handingOver = handingOver;
		this.mayBePreface = config.http2Enabled() && config.tls() == null;
		this.mayUpgrade = this.mayBePreface;
	}

	/** The TLS handshake ended: ALPN may have chosen h2. */
	void handshaken() {
		this.alpnHttp2 = Http2Protocol.ALPN_ID.equals(this.wire.applicationProtocol());
	}

	/**
	 * Looks at what was read before it is parsed as HTTP/1.1.
	 * @return whether to parse it, wait for more, or nothing more (handed over)
	 */
	Start start() {
		if (this.alpnHttp2) {
			// ALPN chose h2: what the client sends is HTTP/2, its preface first
			handOver(this.reader.buffer());
			return Start.HANDED_OVER;
		}
		if (!this.mayBePreface) {
			return Start.HTTP_1_1;
		}
		ByteBuffer in = this.reader.buffer();
		Preface.Match match = Preface.match(in);
		if (match == Preface.Match.PARTIAL) {
			return Start.UNDECIDED;
		}
		this.mayBePreface = false;
		if (match == Preface.Match.NO) {
			return Start.HTTP_1_1;
		}
		handOver(in);
		return Start.HANDED_OVER;
	}

	/** Gives the connection to HTTP/2 with what it read, which starts with the client's preface. */
	private void handOver(ByteBuffer in) {
		this.handingOver.run();
		this.reader.adopt(null);
		this.wire.handOff(Http2Protocol::new, in);
	}

	/**
	 * Upgrades the connection to h2c if the request, without content, asks to (RFC 7540 §3.2):
	 * 101, then {@link Http2Protocol} serves the request as stream 1 and reads the client's
	 * preface from the bytes that follow. A request with content is served over HTTP/1.1, as
	 * Jetty does: its content would have to be read whole first.
	 * @param head the request
	 * @return whether the connection was handed over (or closed, its 101 failing)
	 */
	boolean upgrade(RequestHead head) {
		if (!this.mayUpgrade || head.hasBody()) {
			return false;
		}
		Settings settings = Http2Protocol.upgradeSettings(head);
		RequestHead stream = (settings != null) ? asStream(head) : null;
		if (stream == null) {
			return false;
		}
		this.handingOver.run();
		this.out.append(SWITCHING_TO_H2C);
		try {
			this.wire.send(this.out);
		}
		catch (IOException ex) {
			this.wire.close();
			return true;
		}
		this.out.release();
		ByteBuffer unread = this.reader.buffer();
		this.reader.adopt(null);
		this.wire.handOff((wire) -> Http2Protocol.upgraded(wire, stream, settings), unread);
		return true;
	}

	/**
	 * The upgraded request as stream 1 has it: answered over HTTP/2, it says {@code HTTP/2.0},
	 * as Tomcat and Jetty have it say.
	 * @return the head, or {@code null} to serve the request over HTTP/1.1 after all
	 */
	private static RequestHead asStream(RequestHead head) {
		try {
			return RequestHead.of(head.method(), head.target(), head.targetForm(), Version.HTTP_2, head.headers(),
					head.contentLength(), false);
		}
		catch (HttpParseException ex) {
			return null;
		}
	}

}
