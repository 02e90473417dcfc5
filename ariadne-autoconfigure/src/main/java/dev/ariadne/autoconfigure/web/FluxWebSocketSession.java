package dev.ariadne.autoconfigure.web;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.ariadne.server.websocket.WebSocketSession;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.publisher.Sinks;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.adapter.AbstractWebSocketSession;

/**
 * A WebFlux {@code WebSocketSession} on a session of Ariadne's core, with back-pressure both
 * ways: {@link #receive()} reads the client only as fast as its subscriber asks
 * ({@link SessionInbound}); {@link #send} asks its publisher for one message at a time, and for
 * the next once the core says the connection may take more (fewer than 64 KiB wait for the
 * client), so that a client that does not read never makes the server hold more than a message
 * beyond that. One {@code send} runs at a time; another may follow once it completed.
 */
final class FluxWebSocketSession extends AbstractWebSocketSession<WebSocketSession> {

	private static final AtomicLong IDS = new AtomicLong();

	private final WebSocketSession core;

	private final SessionInbound inbound;

	private final Sinks.One<CloseStatus> closeStatus = Sinks.one();

	private final AtomicBoolean sending = new AtomicBoolean();

	FluxWebSocketSession(WebSocketSession core, HandshakeInfo info, DataBufferFactory bufferFactory,
			SessionInbound inbound) {
		super(core, Long.toHexString(IDS.incrementAndGet()), info, bufferFactory);
		this.core = core;
		this.inbound = inbound;
	}

	@Override
	public Flux<WebSocketMessage> receive() {
		return this.inbound.flux();
	}

	@Override
	public Mono<Void> send(Publisher<WebSocketMessage> messages) {
		return Mono.create((sink) -> {
			if (!this.sending.compareAndSet(false, true)) {
				sink.error(new IllegalStateException("A send() of this WebSocket session is under way"));
				return;
			}
			messages.subscribe(new Sender(sink));
		});
	}

	@Override
	public boolean isOpen() {
		return this.core.isOpen();
	}

	@Override
	public Mono<Void> close(CloseStatus status) {
		return Mono.defer(() -> Mono.fromCompletionStage(
				this.core.close(status.getCode(), (status.getReason() != null) ? status.getReason() : ""))).then();
	}

	@Override
	public Mono<CloseStatus> closeStatus() {
		return this.closeStatus.asMono();
	}

	/** Closes with a status unless the session is closing already; the handler's end. */
	void closeQuietly(CloseStatus status) {
		if (this.core.isOpen()) {
			this.core.close(status.getCode(), (status.getReason() != null) ? status.getReason() : "");
		}
	}

	/** The core's session ended with a status. */
	void closed(CloseStatus status) {
		this.closeStatus.tryEmitValue(status);
	}

	/** Hands one message to the core; the payload is released once the core has consumed it. */
	private CompletionStage<Void> write(WebSocketMessage message) {
		DataBuffer payload = message.getPayload();
		try {
			return switch (message.getType()) {
				// a text message's payload is UTF-8: it goes out as it is
				case TEXT -> send(payload, true);
				case BINARY -> send(payload, false);
				case PING -> this.core.sendPing(bytes(payload));
				case PONG -> this.core.sendPong(bytes(payload));
			};
		}
		finally {
			DataBufferUtils.release(payload);
		}
	}

	private CompletionStage<Void> send(DataBuffer payload, boolean text) {
		try (DataBuffer.ByteBufferIterator buffers = payload.readableByteBuffers()) {
			if (buffers.hasNext()) {
				ByteBuffer first = buffers.next();
				if (!buffers.hasNext()) {
					// the core consumes it before it returns
					return send(first, text);
				}
			}
		}
		return send(bytes(payload), text);
	}

	private CompletionStage<Void> send(ByteBuffer data, boolean text) {
		return text ? this.core.sendText(data, true) : this.core.sendBinary(data);
	}

	private static ByteBuffer bytes(DataBuffer payload) {
		ByteBuffer bytes = ByteBuffer.allocate(payload.readableByteCount());
		payload.toByteBuffer(bytes);
		return bytes;
	}

	@Override
	public String toString() {
		return "FluxWebSocketSession[id=" + getId() + ", uri=" + getHandshakeInfo().getUri() + "]";
	}

	/**
	 * Sends a publisher's messages, one asked for at a time: the next once the core's stage of the
	 * last completed. Completes once the last message is written or queued within the limit.
	 */
	private final class Sender extends OneAtATime<WebSocketMessage> {

		private final AtomicBoolean done = new AtomicBoolean();

		/** The stage of the message sent last. */
		private volatile CompletionStage<Void> last = CompletableFuture.completedFuture(null);

		Sender(MonoSink<Void> sink) {
			super(sink);
		}

		@Override
		protected void cancelled() {
			super.cancelled();
			finish(null);
		}

		@Override
		public void onNext(WebSocketMessage message) {
			CompletionStage<Void> stage;
			try {
				stage = write(message);
			}
			catch (RuntimeException ex) {
				cancelUpstream();
				finish(ex);
				return;
			}
			this.last = stage;
			stage.whenComplete((result, failure) -> {
				if (failure != null) {
					cancelUpstream();
					finish(failure);
				}
				else {
					next();
				}
			});
		}

		@Override
		public void onError(Throwable failure) {
			finish(failure);
		}

		@Override
		public void onComplete() {
			this.last.whenComplete((result, failure) -> finish(failure));
		}

		private void finish(Throwable failure) {
			if (!this.done.compareAndSet(false, true)) {
				return;
			}
			FluxWebSocketSession.this.sending.set(false);
			if (failure != null) {
				this.sink.error(failure);
			}
			else {
				this.sink.success();
			}
		}

	}

}
