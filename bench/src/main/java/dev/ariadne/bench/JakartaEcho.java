package dev.ariadne.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpointConfig;

/**
 * The Jakarta WebSocket echo that Tomcat and Jetty serve for Autobahn|Testsuite: every message
 * back whole with the basic (blocking) remote, its buffers as large as the suite's largest
 * message (16 MiB), as Ariadne's echo is configured.
 */
public final class JakartaEcho extends Endpoint {

	/** The largest message the echo takes: above Autobahn's 16 MiB. */
	static final int MAX_MESSAGE = 32 * 1024 * 1024;

	/**
	 * Returns the endpoint's configuration at {@value Routes#WEBSOCKET_ECHO_PATH}.
	 * @return the configuration
	 */
	static ServerEndpointConfig config() {
		return ServerEndpointConfig.Builder.create(JakartaEcho.class, Routes.WEBSOCKET_ECHO_PATH).build();
	}

	@Override
	public void onOpen(Session session, EndpointConfig config) {
		session.setMaxTextMessageBufferSize(MAX_MESSAGE);
		session.setMaxBinaryMessageBufferSize(MAX_MESSAGE);
		session.setMaxIdleTimeout(0);
		session.addMessageHandler(String.class, (MessageHandler.Whole<String>) (text) -> {
			try {
				session.getBasicRemote().sendText(text);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
		session.addMessageHandler(ByteBuffer.class, (MessageHandler.Whole<ByteBuffer>) (data) -> {
			try {
				session.getBasicRemote().sendBinary(data);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
	}

}
