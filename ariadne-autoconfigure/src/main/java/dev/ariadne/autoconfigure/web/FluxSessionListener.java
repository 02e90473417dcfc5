package dev.ariadne.autoconfigure.web;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import dev.ariadne.server.websocket.WebSocketListener;
import dev.ariadne.server.websocket.WebSocketSession;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;

/**
 * What the core's session tells a WebFlux {@link WebSocketHandler}: the session opens, the
 * handler subscribes, messages go to {@code receive()} only as fast as it asks for them (a
 * message nobody asked for holds the core's reading back), the close status reaches
 * {@code closeStatus()}. The handler's {@code Mono} ending closes the session: {@code 1000}
 * when it completes, {@code 1011} when it fails, as on Reactor Netty.
 */
final class FluxSessionListener implements WebSocketListener {

	private static final Log logger = LogFactory.getLog(FluxSessionListener.class);

	private final WebSocketHandler handler;

	private final Supplier<HandshakeInfo> handshakeInfo;

	private final DataBufferFactory bufferFactory;

	private final SessionInbound inbound = new SessionInbound();

	private volatile FluxWebSocketSession session;

	FluxSessionListener(WebSocketHandler handler, Supplier<HandshakeInfo> handshakeInfo, DataBufferFactory bufferFactory) {
		this.handler = handler;
		this.handshakeInfo = handshakeInfo;
		this.bufferFactory = bufferFactory;
	}

	@Override
	public void onOpen(WebSocketSession core) {
		FluxWebSocketSession session = new FluxWebSocketSession(core, this.handshakeInfo.get(), this.bufferFactory,
				this.inbound);
		this.session = session;
		this.handler.handle(session).subscribe(null, (failure) -> {
			if (logger.isDebugEnabled()) {
				logger.debug("The WebSocket handler of " + session + " failed", failure);
			}
			session.closeQuietly(CloseStatus.SERVER_ERROR);
		}, () -> session.closeQuietly(CloseStatus.NORMAL));
	}

	@Override
	public CompletionStage<?> onText(WebSocketSession core, String text) {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		return this.inbound.deliver(new WebSocketMessage(WebSocketMessage.Type.TEXT, this.bufferFactory.wrap(bytes)));
	}

	@Override
	public CompletionStage<?> onBinary(WebSocketSession core, ByteBuffer data) {
		return this.inbound.deliver(new WebSocketMessage(WebSocketMessage.Type.BINARY, this.bufferFactory.wrap(data)));
	}

	@Override
	public void onPong(WebSocketSession core, ByteBuffer payload) {
		ByteBuffer copy = ByteBuffer.allocate(payload.remaining()).put(payload).flip();
		this.inbound.offer(new WebSocketMessage(WebSocketMessage.Type.PONG, this.bufferFactory.wrap(copy)));
	}

	@Override
	public void onError(WebSocketSession core, Throwable failure) {
		if (logger.isDebugEnabled()) {
			logger.debug("WebSocket session " + core + " failed", failure);
		}
	}

	@Override
	public void onClose(WebSocketSession core, int code, String reason) {
		this.inbound.complete();
		FluxWebSocketSession session = this.session;
		if (session != null) {
			session.closed(new CloseStatus(code, reason.isEmpty() ? null : reason));
		}
	}

}
