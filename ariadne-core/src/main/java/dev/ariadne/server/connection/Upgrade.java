package dev.ariadne.server.connection;

import java.io.IOException;
import java.io.UncheckedIOException;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Headers;
import dev.ariadne.http.Method;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Version;

/**
 * An exchange's switch to another protocol ({@link dev.ariadne.server.Response#upgrade()}):
 * which requests may switch (HTTP/1.1 with an {@code Upgrade} field), the rest of the request's
 * body read before the new protocol's bytes, the body turned into the connection's bytes, and
 * the {@code 101} sent when the handler returns unless it went before. The exchange's thread.
 */
final class Upgrade {

	/** Most bytes of the request's body left unread that are discarded before the switch. */
	private static final long MAX_LEFT = HttpExchange.MAX_DRAIN;

	private boolean switched;

	private Upgrade() {
	}

	/**
	 * Switches an exchange's request to another protocol: checks that it may, reads and discards
	 * what is left of its body, makes its body the connection's bytes and its response a 101.
	 * @param head the request's head
	 * @param stream whether the exchange is one of the streams of a connection (HTTP/2)
	 * @param body the request's body
	 * @param response its response, not committed
	 * @return the switch
	 * @throws IllegalStateException if the request cannot switch protocols
	 * @throws UncheckedIOException if reading the rest of the body failed
	 */
	static Upgrade begin(RequestHead head, boolean stream, RequestBody body, ServerResponse response) {
		if (stream || head.version() == Version.HTTP_2) {
			throw new IllegalStateException(
					"An HTTP/2 stream cannot switch protocols: extended CONNECT (RFC 8441) is not supported");
		}
		if (head.version() != Version.HTTP_1_1) {
			throw new IllegalStateException("An HTTP/1.0 request cannot switch protocols (RFC 9110 section 7.8)");
		}
		if (head.method() == Method.HEAD) {
			throw new IllegalStateException("A HEAD request cannot switch protocols");
		}
		String offered = head.headers().get(HeaderName.UPGRADE);
		if (offered == null || offered.isBlank()) {
			throw new IllegalStateException("The request names no protocol to switch to: it has no Upgrade field");
		}
		try {
			// the new protocol's bytes follow the request's content
			if (!body.finished() && !body.drain(MAX_LEFT)) {
				throw new IllegalStateException("More than " + MAX_LEFT
						+ " bytes of the request body are left: read them before switching protocols");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		if (!body.tunnel()) {
			throw new IllegalStateException("This connection cannot switch protocols");
		}
		response.switching(offered.indexOf(',') < 0 ? offered.trim() : null);
		return new Upgrade();
	}

	/**
	 * Adds the {@code Upgrade} field a 101 must carry when the handler set none: the request's,
	 * when it named one protocol.
	 * @param fields the response's fields
	 * @param offered the one protocol the request named, or {@code null}
	 */
	static void namesProtocol(Headers fields, String offered) {
		if (offered != null && !fields.contains(HeaderName.UPGRADE)) {
			fields.add(HeaderName.UPGRADE, offered);
		}
	}

	/**
	 * The handler returned: the 101 goes out now unless it went with a write or a flush, and the
	 * output gives its buffer back, since the new protocol may wait long before it writes again.
	 * @param response the response
	 * @param out the connection's output
	 * @return what failed (the client went away, a field the handler set is invalid), or
	 * {@code null}
	 */
	Throwable switchProtocols(ServerResponse response, ConnectionOutput out) {
		try {
			if (!response.committed()) {
				response.commitHead();
				out.flush();
				out.release();
			}
		}
		catch (IOException | RuntimeException ex) {
			return ex;
		}
		this.switched = true;
		return null;
	}

	/**
	 * Returns whether the 101 went out when the handler returned.
	 * @return whether switched
	 */
	boolean switched() {
		return this.switched;
	}

}
