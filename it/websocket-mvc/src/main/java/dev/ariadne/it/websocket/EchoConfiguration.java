package dev.ariadne.it.websocket;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.server.standard.ServerEndpointExporter;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;

/**
 * The echo handler at {@code /echo} (anyone) and {@code /secure/echo} (authenticated users), the
 * {@code @ServerEndpoint} classes, and the container's message size limits as Spring's reference
 * sets them: {@code app.websocket.max-message-size}, 512 KiB unless set, the container's own
 * default when set to 0 (Tomcat's 8 KiB, Ariadne's 64 KiB).
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSocket
public class EchoConfiguration implements WebSocketConfigurer {

	/** The largest text or binary message the container takes, unless set otherwise. */
	public static final int MAX_MESSAGE_SIZE = 512 * 1024;

	private final EchoHandler echo;

	EchoConfiguration(EchoHandler echo) {
		this.echo = echo;
	}

	@Override
	public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
		registry.addHandler(this.echo, "/echo", "/secure/echo");
	}

	@Bean
	ServerEndpointExporter serverEndpointExporter() {
		ServerEndpointExporter exporter = new ServerEndpointExporter();
		exporter.setAnnotatedEndpointClasses(ChatEndpoint.class);
		return exporter;
	}

	@Bean
	ServletServerContainerFactoryBean webSocketContainer(
			@Value("${app.websocket.max-message-size:" + MAX_MESSAGE_SIZE + "B}") DataSize limit) {
		ServletServerContainerFactoryBean container = new ServletServerContainerFactoryBean();
		if (limit.toBytes() > 0) {
			container.setMaxTextMessageBufferSize((int) limit.toBytes());
			container.setMaxBinaryMessageBufferSize((int) limit.toBytes());
		}
		return container;
	}

}
