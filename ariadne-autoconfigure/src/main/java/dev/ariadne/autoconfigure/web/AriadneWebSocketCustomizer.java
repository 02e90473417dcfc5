package dev.ariadne.autoconfigure.web;

import dev.ariadne.servlet.websocket.JakartaWebSocket;

import org.springframework.boot.web.server.WebServerFactoryCustomizer;

/**
 * Gives a servlet application on Ariadne Jakarta WebSocket, as Boot's Tomcat and Jetty modules
 * give theirs: the servlet context gets its {@code jakarta.websocket.server.ServerContainer}
 * ({@link JakartaWebSocket}, Tyrus's engine on Ariadne's HTTP upgrade) when the context starts,
 * before Spring's WebSocket support ({@code @EnableWebSocket}, STOMP, SockJS,
 * {@code ServerEndpointExporter}) looks for it, under the application listener's
 * {@code ariadne.server.websocket.*} settings (message size, idle timeout, session limit).
 */
final class AriadneWebSocketCustomizer implements WebServerFactoryCustomizer<AriadneServletWebServerFactory> {

	@Override
	public void customize(AriadneServletWebServerFactory factory) {
		// the settings as they are when the context starts, after every customizer has run
		factory.addInitializers(
				(context) -> new JakartaWebSocket(factory.getServerConfig().webSocket()).onStartup(context));
	}

}
