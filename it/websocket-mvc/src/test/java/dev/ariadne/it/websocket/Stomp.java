package dev.ariadne.it.websocket;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.client.WebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * A STOMP session of Spring's {@link WebSocketStompClient} over a client of the caller's (plain
 * WebSocket, or SockJS with its transports), subscribed to {@code /topic/greetings}.
 */
final class Stomp implements AutoCloseable {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final BlockingQueue<String> greetings = new LinkedBlockingQueue<>();

	private final WebSocketStompClient client;

	private final StompSession session;

	private Stomp(WebSocketStompClient client, StompSession session) {
		this.client = client;
		this.session = session;
	}

	static Stomp connect(WebSocketClient transport, String url) throws Exception {
		return connect(transport, url, new WebSocketHttpHeaders());
	}

	static Stomp connect(WebSocketClient transport, String url, WebSocketHttpHeaders headers) throws Exception {
		WebSocketStompClient client = new WebSocketStompClient(transport);
		client.setMessageConverter(new StringMessageConverter());
		StompSession session = client.connectAsync(url, headers, new StompSessionHandlerAdapter() {
		}).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		Stomp stomp = new Stomp(client, session);
		session.subscribe("/topic/greetings", new StompFrameHandler() {

			@Override
			public Type getPayloadType(StompHeaders headers) {
				return String.class;
			}

			@Override
			public void handleFrame(StompHeaders headers, Object payload) {
				stomp.greetings.add((String) payload);
			}

		});
		return stomp;
	}

	/**
	 * Sends a name to greet until the greeting comes back through the subscription (the first
	 * may go before the broker has the subscription).
	 * @param name the name
	 * @return the greeting
	 */
	String greet(String name) throws InterruptedException {
		long end = System.nanoTime() + TIMEOUT.toNanos();
		while (System.nanoTime() - end < 0) {
			this.session.send("/app/greet", name);
			String greeting = this.greetings.poll(1, TimeUnit.SECONDS);
			if (greeting != null) {
				this.greetings.clear();
				return greeting;
			}
		}
		throw new AssertionError("No greeting for " + name + " within " + TIMEOUT);
	}

	boolean connected() {
		return this.session.isConnected();
	}

	/**
	 * Disconnects asking for a receipt, which the server answers before the client closes the
	 * connection (without one, Spring's server answers with an ERROR frame and closes first).
	 */
	@Override
	public void close() {
		StompHeaders receipt = new StompHeaders();
		receipt.setReceipt("disconnect");
		this.session.disconnect(receipt);
		this.client.stop();
	}

}
