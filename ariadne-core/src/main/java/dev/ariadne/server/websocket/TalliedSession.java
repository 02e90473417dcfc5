package dev.ariadne.server.websocket;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.ariadne.server.WebSocketTally;

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

	@Override
	public void end() {
		if (this.ended.compareAndSet(false, true)) {
			this.sessions.unreserve();
		}
	}

}
