package dev.ariadne.it.websocket;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/**
 * A session of Spring's {@link StandardWebSocketClient} (over Tyrus's client on the JDK's
 * sockets), whose messages and close the test takes with a deadline.
 */
final class SpringClient extends TextWebSocketHandler implements AutoCloseable {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();

	private final CompletableFuture<CloseStatus> closed = new CompletableFuture<>();

	private WebSocketSession session;

	static SpringClient open(StandardWebSocketClient client, URI uri) throws Exception {
		SpringClient handler = new SpringClient();
		handler.session = client.execute(handler, new WebSocketHttpHeaders(), uri)
			.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		return handler;
	}

	WebSocketSession session() {
		return this.session;
	}

	String exchange(String message) throws Exception {
		this.session.sendMessage(new TextMessage(message));
		String answer = this.messages.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		if (answer == null) {
			throw new AssertionError("No answer to " + message + " within " + TIMEOUT);
		}
		return answer;
	}

	CloseStatus closeStatus() throws Exception {
		return this.closed.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
	}

	@Override
	protected void handleTextMessage(WebSocketSession session, TextMessage message) {
		this.messages.add(message.getPayload());
	}

	@Override
	public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
		this.closed.complete(status);
	}

	@Override
	public void close() throws Exception {
		if (this.session.isOpen()) {
			this.session.close();
		}
	}

}
