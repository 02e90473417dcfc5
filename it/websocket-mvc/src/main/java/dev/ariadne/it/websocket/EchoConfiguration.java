package dev.ariadne.it.websocket;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.server.standard.ServerEndpointExporter;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;

/**
 * The echo handler at {@code /echo} (anyone) and {@code /secure/echo} (authenticated users), the
 * {@code @ServerEndpoint} classes, and the container's message size limits as Spring's reference
 * sets them: 512 KiB.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSocket
public class EchoConfiguration implements WebSocketConfigurer {

	/** The largest text or binary message the container takes. */
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
	ServletServerContainerFactoryBean webSocketContainer() {
		ServletServerContainerFactoryBean container = new ServletServerContainerFactoryBean();
		container.setMaxTextMessageBufferSize(MAX_MESSAGE_SIZE);
		container.setMaxBinaryMessageBufferSize(MAX_MESSAGE_SIZE);
		return container;
	}

}
