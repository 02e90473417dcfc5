package dev.ariadne.it.websocket;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring MVC application with WebSocket as Spring's guides write it: an {@code @EnableWebSocket}
 * echo handler ({@link EchoHandler}), a STOMP broker with SockJS ({@link StompConfiguration}),
 * an {@code @ServerEndpoint} exported by {@code ServerEndpointExporter} ({@link ChatEndpoint}),
 * Spring Security around the handshakes ({@link SecurityConfiguration}). Its build has
 * {@code spring-boot-starter-websocket} with Tomcat swapped for the Ariadne starter, and nothing
 * else for WebSocket.
 */
@SpringBootApplication
public class WebSocketApplication {

	/**
	 * Runs the application.
	 * @param args Spring Boot's arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(WebSocketApplication.class, args);
	}

}
