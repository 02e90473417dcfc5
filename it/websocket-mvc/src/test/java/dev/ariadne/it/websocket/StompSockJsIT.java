package dev.ariadne.it.websocket;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;

import org.springframework.web.client.RestClient;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.sockjs.client.RestClientXhrTransport;
import org.springframework.web.socket.sockjs.client.SockJsClient;
import org.springframework.web.socket.sockjs.client.WebSocketTransport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The STOMP broker of a Spring MVC application on Ariadne, in every model, driven by Spring's
 * {@code WebSocketStompClient}: over SockJS with each of its transports (WebSocket, XHR
 * streaming, which holds an async response open, and XHR polling) and over plain WebSocket; a
 * message to {@code /app/greet} comes back through the subscription to {@code /topic/greetings}.
 *
 * <p>The XHR transports run as an authenticated user: Spring Framework 7.0.8 binds an anonymous
 * SockJS session to the address and port of the request that opened it, so its XHR transports,
 * which send on other connections, are refused with 404 on any server (spring-framework#36904).
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StompSockJsIT {

	private final IoModel model;

	private WebSocketApp app;

	StompSockJsIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void app() {
		this.app = WebSocketApp.shared(this.model);
	}

	@Test
	void overSockJsWebSocket() throws Exception {
		SockJsClient sockJs = new SockJsClient(List.of(new WebSocketTransport(new StandardWebSocketClient())));
		try (Stomp stomp = Stomp.connect(sockJs, this.app.http("/stomp").toString())) {
			assertThat(stomp.greet("WebSocket")).isEqualTo("Hello, WebSocket!");
			assertThat(stomp.greet("again")).isEqualTo("Hello, again!");
		}
	}

	@Test
	void overSockJsWebSocketAsAUser() throws Exception {
		SockJsClient sockJs = new SockJsClient(List.of(new WebSocketTransport(new StandardWebSocketClient())));
		WebSocketHttpHeaders user = new WebSocketHttpHeaders();
		user.setBasicAuth("user", "secret");
		try (Stomp stomp = Stomp.connect(sockJs, this.app.http("/secure/stomp").toString(), user)) {
			assertThat(stomp.greet("user")).isEqualTo("Hello, user!");
		}
	}

	@Test
	void overSockJsXhrStreaming() throws Exception {
		SockJsClient sockJs = new SockJsClient(List.of(new RestClientXhrTransport(asUser())));
		try (Stomp stomp = Stomp.connect(sockJs, this.app.http("/secure/stomp").toString())) {
			assertThat(stomp.greet("streaming")).isEqualTo("Hello, streaming!");
			assertThat(stomp.greet("again")).isEqualTo("Hello, again!");
		}
	}

	@Test
	void overSockJsXhrPolling() throws Exception {
		RestClientXhrTransport polling = new RestClientXhrTransport(asUser());
		polling.setXhrStreamingDisabled(true);
		SockJsClient sockJs = new SockJsClient(List.of(polling));
		try (Stomp stomp = Stomp.connect(sockJs, this.app.http("/secure/stomp").toString())) {
			assertThat(stomp.greet("polling")).isEqualTo("Hello, polling!");
			assertThat(stomp.greet("again")).isEqualTo("Hello, again!");
		}
	}

	private static RestClient asUser() {
		return RestClient.builder().defaultHeaders((headers) -> headers.setBasicAuth("user", "secret")).build();
	}

	@Test
	void overPlainWebSocket() throws Exception {
		try (Stomp stomp = Stomp.connect(new StandardWebSocketClient(), this.app.ws("/stomp-ws").toString())) {
			assertThat(stomp.greet("plain")).isEqualTo("Hello, plain!");
		}
	}

}
