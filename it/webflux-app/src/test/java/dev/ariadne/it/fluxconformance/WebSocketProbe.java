package dev.ariadne.it.fluxconformance;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.web.reactive.socket.CloseStatus;

/**
 * What the tests watch of the application's WebSocket handlers: the close status the last
 * watched session ended with, and how many messages the slow handler took.
 */
public class WebSocketProbe {

	private final AtomicReference<CloseStatus> lastClose = new AtomicReference<>();

	private final AtomicInteger slowReceived = new AtomicInteger();

	void closed(CloseStatus status) {
		this.lastClose.set(status);
	}

	CloseStatus lastClose() {
		return this.lastClose.get();
	}

	void slowReceived() {
		this.slowReceived.incrementAndGet();
	}

	int slowReceivedCount() {
		return this.slowReceived.get();
	}

	void reset() {
		this.lastClose.set(null);
		this.slowReceived.set(0);
	}

}
