package dev.ariadne.it.websocket;

import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;

/**
 * A STOMP broker (Spring's simple broker on {@code /topic}) behind {@code /stomp} with SockJS
 * (WebSocket, then XHR streaming and polling), the same for authenticated users at
 * {@code /secure/stomp}, and {@code /stomp-ws} without SockJS; application destinations under
 * {@code /app}.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSocketMessageBroker
public class StompConfiguration implements WebSocketMessageBrokerConfigurer {

	@Override
	public void registerStompEndpoints(StompEndpointRegistry registry) {
		registry.addEndpoint("/stomp", "/secure/stomp").withSockJS();
		registry.addEndpoint("/stomp-ws");
	}

	@Override
	public void configureMessageBroker(MessageBrokerRegistry registry) {
		registry.enableSimpleBroker("/topic");
		registry.setApplicationDestinationPrefixes("/app");
	}

}
