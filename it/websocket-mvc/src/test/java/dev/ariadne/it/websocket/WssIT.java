package dev.ariadne.it.websocket;

import java.net.http.HttpClient;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.ariadne.JdkWebSocket;
import org.glassfish.tyrus.client.ClientManager;
import org.glassfish.tyrus.client.ClientProperties;
import org.glassfish.tyrus.client.SslEngineConfigurator;
import org.glassfish.tyrus.container.jdk.client.JdkClientContainer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.TestCertificates;
import dev.ariadne.server.IoModel;

import org.springframework.web.socket.client.standard.StandardWebSocketClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same application over TLS ({@code server.ssl.*}), in every model: {@code wss} echoes for
 * the JDK's client, close codes arrive, 16 MB is refused with 1009, and STOMP runs over
 * {@code wss} with Spring's clients.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WssIT {

	private final IoModel model;

	private WebSocketApp app;

	WssIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void app() {
		this.app = WebSocketApp.sharedTls(this.model);
	}

	private static HttpClient https() {
		return HttpClient.newBuilder().sslContext(TestCertificates.get().clientContext()).build();
	}

	@Test
	void echoesOverWssAndCloseCodesArrive() throws Exception {
		assertThat(this.app.ws("/echo").getScheme()).isEqualTo("wss");
		try (JdkWebSocket client = JdkWebSocket.open(https(), this.app.ws("/echo"), Map.of())) {
			for (int i = 0; i < 50; i++) {
				assertThat(client.send("secret " + i).nextText()).isEqualTo("secret " + i);
			}
			String large = "c".repeat(300 * 1024);
			assertThat(client.send(large).nextText()).isEqualTo(large);
			client.send("close:4004");
			assertThat(client.closeCode()).isEqualTo(4004);
		}
	}

	@Test
	void refuses16MegabytesOverWssWith1009() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(https(), this.app.ws("/echo"), Map.of())) {
			client.socket().sendText("d".repeat(16 * 1024 * 1024), true);
			assertThat(client.closeCode()).isEqualTo(1009);
		}
	}

	@Test
	void stompOverWssWithSpringsClient() throws Exception {
		ClientManager tyrus = ClientManager.createClient(JdkClientContainer.class.getName());
		tyrus.getProperties()
			.put(ClientProperties.SSL_ENGINE_CONFIGURATOR,
					new SslEngineConfigurator(TestCertificates.get().clientContext()));
		try (Stomp stomp = Stomp.connect(new StandardWebSocketClient(tyrus), this.app.ws("/stomp-ws").toString())) {
			assertThat(stomp.greet("wss")).isEqualTo("Hello, wss!");
		}
	}

}
