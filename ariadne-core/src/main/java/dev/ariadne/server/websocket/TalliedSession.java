package dev.ariadne.server.websocket;

import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Request;
import dev.ariadne.server.WebSocketTally;
import dev.ariadne.websocket.PerMessageDeflate;
import dev.ariadne.websocket.WebSocketLimits;

/**
 * A session of another WebSocket implementation (the servlet container's Jakarta WebSocket)
 * counted among a listener's sessions: its place, taken at its handshake, given back once; its
 * messages added to the listener's. Its connection and its close are the implementation's.
 */
final class TalliedSession implements WebSocketTally {

	private final WebSocketSessions sessions;

	private final AtomicBoolean ended = new AtomicBoolean();

	TalliedSession(WebSocketSessions sessions) {
		this.sessions = sessions;
	}

	@Override
	public void received() {
		this.sessions.received();
	}

	@Override
	public void sent() {
		this.sessions.sent();
	}

	/**
	 * Runs a session of the server's own in this place, which it keeps until it ends.
	 */
	WebSocketSession open(Request request, AsyncResponse exchange, OutputStream out, WebSocketListener listener,
			String subprotocol, PerMessageDeflate deflate, WebSocketLimits limits) {
		if (!this.ended.compareAndSet(false, true)) {
			throw new IllegalStateException("The session's place was given back already");
		}
		Session session = new Session(this.sessions, request, exchange, out, listener, subprotocol, deflate, limits);
		session.start();
		return session;
	}

	@Override
	public void end() {
		if (this.ended.compareAndSet(false, true)) {
			this.sessions.unreserve();
		}
	}

}
