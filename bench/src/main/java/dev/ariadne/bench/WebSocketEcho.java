package dev.ariadne.bench;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletionStage;

import dev.ariadne.server.websocket.WebSocketListener;
import dev.ariadne.server.websocket.WebSocketSession;

/**
 * Ariadne's WebSocket echo: every message back whole, the next one read once the echo may be
 * sent (the stage of the send), as the Jakarta echo of Tomcat and Jetty does with a blocking send.
 */
final class WebSocketEcho implements WebSocketListener {

	@Override
	public CompletionStage<?> onText(WebSocketSession session, String text) {
		return session.sendText(text);
	}

	@Override
	public CompletionStage<?> onBinary(WebSocketSession session, ByteBuffer data) {
		return session.sendBinary(data);
	}

}
