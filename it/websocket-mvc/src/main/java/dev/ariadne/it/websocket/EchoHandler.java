package dev.ariadne.it.websocket;

import java.io.IOException;
import java.security.Principal;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.stereotype.Component;
import org.springframework.web.socket.BinaryMessage;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.AbstractWebSocketHandler;

/**
 * Echoes text and binary messages (binary too, so that Autobahn|Testsuite's binary cases run
 * against it). {@code whoami} answers the session's user, {@code close:<code>} closes the
 * session with that code. Keeps the open sessions' count and how each one closed.
 */
@Component
public class EchoHandler extends AbstractWebSocketHandler {

	private final AtomicInteger open = new AtomicInteger();

	private final BlockingQueue<CloseStatus> closes = new LinkedBlockingQueue<>();

	@Override
	public void afterConnectionEstablished(WebSocketSession session) {
		this.open.incrementAndGet();
	}

	@Override
	protected void handleTextMessage(WebSocketSession session, TextMessage message) throws IOException {
		String text = message.getPayload();
		if (text.startsWith("close:")) {
			session.close(new CloseStatus(Integer.parseInt(text.substring(6)), "asked to"));
			return;
		}
		if (text.equals("whoami")) {
			Principal user = session.getPrincipal();
			session.sendMessage(new TextMessage((user != null) ? user.getName() : "anonymous"));
			return;
		}
		session.sendMessage(message);
	}

	@Override
	protected void handleBinaryMessage(WebSocketSession session, BinaryMessage message) throws IOException {
		session.sendMessage(message);
	}

	@Override
	public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
		this.open.decrementAndGet();
		this.closes.add(status);
	}

	/**
	 * Returns the number of open sessions.
	 * @return the count
	 */
	public int openSessions() {
		return this.open.get();
	}

	/**
	 * Returns how the sessions closed, in order.
	 * @return the close statuses
	 */
	public BlockingQueue<CloseStatus> closes() {
		return this.closes;
	}

}
