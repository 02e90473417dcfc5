package dev.ariadne.autoconfigure.web;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.web.reactive.socket.WebSocketMessage;

/**
 * A session's {@code receive()}: one subscriber, fed only as fast as it asks. A message that
 * arrives while nobody asks (no subscriber yet, or no demand) is held, the only one: the core's
 * reader waits on the stage {@link #deliver} returns, so nothing more is read from the client
 * (who then waits in its TCP window) until the subscriber asks again. Pongs are not held back:
 * one that finds no demand is dropped. After the subscriber cancels, messages are dropped, so
 * that the session still sees the client's close.
 */
final class SessionInbound {

	private final Flux<WebSocketMessage> flux = Flux.create(this::subscribed, FluxSink.OverflowStrategy.BUFFER);

	private FluxSink<WebSocketMessage> sink;

	/** The message that waits for demand, and the stage the core's reader waits on meanwhile. */
	private WebSocketMessage held;

	private CompletableFuture<Void> release;

	private boolean cancelled;

	private boolean completed;

	Flux<WebSocketMessage> flux() {
		return this.flux;
	}

	private void subscribed(FluxSink<WebSocketMessage> sink) {
		boolean complete;
		synchronized (this) {
			if (this.sink != null) {
				sink.error(new IllegalStateException("receive() of a WebSocket session takes one subscriber"));
				return;
			}
			this.sink = sink;
			complete = this.completed && this.held == null;
		}
		sink.onRequest((n) -> resume());
		sink.onDispose(this::disposed);
		if (complete) {
			sink.complete();
		}
		else {
			resume();
		}
	}

	/**
	 * A message from the client; the core's reader.
	 * @return {@code null} when delivered, else a stage that completes once it is
	 */
	CompletionStage<?> deliver(WebSocketMessage message) {
		FluxSink<WebSocketMessage> sink;
		synchronized (this) {
			if (this.cancelled) {
				DataBufferUtils.release(message.getPayload());
				return null;
			}
			sink = this.sink;
			if (sink == null || sink.requestedFromDownstream() == 0) {
				this.held = message;
				this.release = new CompletableFuture<>();
				return this.release;
			}
		}
		sink.next(message);
		return null;
	}

	/** A pong: delivered if asked for, else dropped. */
	void offer(WebSocketMessage message) {
		FluxSink<WebSocketMessage> sink;
		synchronized (this) {
			sink = this.sink;
			if (this.cancelled || this.held != null || sink == null || sink.requestedFromDownstream() == 0) {
				DataBufferUtils.release(message.getPayload());
				return;
			}
		}
		sink.next(message);
	}

	/** The subscriber asked for more, or arrived: the held message goes, and the reader goes on. */
	private void resume() {
		WebSocketMessage message;
		CompletableFuture<Void> release;
		FluxSink<WebSocketMessage> sink;
		boolean complete;
		boolean cancelled;
		synchronized (this) {
			sink = this.sink;
			cancelled = this.cancelled;
			if (this.held == null || sink == null || (!cancelled && sink.requestedFromDownstream() == 0)) {
				return;
			}
			message = this.held;
			release = this.release;
			this.held = null;
			this.release = null;
			complete = this.completed;
		}
		if (cancelled) {
			DataBufferUtils.release(message.getPayload());
		}
		else {
			sink.next(message);
		}
		release.complete(null);
		if (complete) {
			sink.complete();
		}
	}

	private void disposed() {
		synchronized (this) {
			this.cancelled = true;
		}
		resume();
	}

	/** The session ended: the subscriber completes after the message it may still be owed. */
	void complete() {
		FluxSink<WebSocketMessage> sink;
		synchronized (this) {
			if (this.completed) {
				return;
			}
			this.completed = true;
			sink = this.sink;
			if (sink == null || this.held != null) {
				return;
			}
		}
		sink.complete();
	}

}
