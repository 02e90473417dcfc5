package dev.ariadne.it.websocket;

import java.net.http.HttpClient;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.ariadne.JdkWebSocket;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;

import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code @EnableWebSocket} echo handler and the exported {@code @ServerEndpoint} of a Spring
 * MVC application on Ariadne, in every model, with the JDK's client and Spring's
 * {@link StandardWebSocketClient}: messages round-trip, close codes arrive both ways, the limit
 * set through {@code ServletServerContainerFactoryBean} (512 KiB) lets a 256 KiB message through
 * and refuses 16 MB with 1009, Spring Security refuses an anonymous handshake to a secured
 * handler with 401 and hands the user of an authenticated one to the session, and its headers
 * ride on the 101.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EchoHandlerIT {

	private final IoModel model;

	private WebSocketApp app;

	EchoHandlerIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void app() {
		this.app = WebSocketApp.shared(this.model);
	}

	@Test
	void echoesForTheJdkClientAndTheHandlerSeesItsCloseCode() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(this.app.ws("/echo"))) {
			for (int i = 0; i < 100; i++) {
				assertThat(client.send("message " + i).nextText()).isEqualTo("message " + i);
			}
			client.socket().sendClose(4000, "jdk says bye").get(20, TimeUnit.SECONDS);
			assertThat(client.closeCode()).as("the close the server answers with").isEqualTo(4000);
		}
		assertThat(Closes.next(this.app, "jdk says bye").getCode()).isEqualTo(4000);
	}

	@Test
	void theHandlerClosesWithItsCode() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(this.app.ws("/echo"))) {
			client.send("close:4002");
			assertThat(client.closeCode()).isEqualTo(4002);
		}
	}

	@Test
	void echoesWithSpringsStandardWebSocketClient() throws Exception {
		try (SpringClient client = SpringClient.open(new StandardWebSocketClient(), this.app.ws("/echo"))) {
			assertThat(client.exchange("from Spring")).isEqualTo("from Spring");
			assertThat(client.exchange("whoami")).isEqualTo("anonymous");
			client.session().close(new CloseStatus(4003, "spring says bye"));
			assertThat(client.closeStatus().getCode()).isEqualTo(4003);
		}
		assertThat(Closes.next(this.app, "spring says bye").getCode()).isEqualTo(4003);
	}

	@Test
	void takesAMessageUnderTheConfiguredLimitAndRefuses16MegabytesWith1009() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(this.app.ws("/echo"))) {
			String large = "a".repeat(256 * 1024);
			assertThat(client.send(large).nextText()).as("over Tyrus's 64 KiB, under the 512 KiB set").isEqualTo(large);
			client.socket().sendText("b".repeat(16 * 1024 * 1024), true);
			assertThat(client.closeCode()).isEqualTo(1009);
		}
		assertThat(Closes.next(this.app, null).getCode()).as("what the handler was told").isEqualTo(1009);
	}

	@Test
	void springSecurityRefusesAnAnonymousHandshakeAndHandsTheUserToTheSession() throws Exception {
		assertThatThrownBy(() -> JdkWebSocket.open(this.app.ws("/secure/echo"))).cause()
			.isInstanceOf(WebSocketHandshakeException.class)
			.satisfies((failure) -> assertThat(((WebSocketHandshakeException) failure).getResponse().statusCode())
				.isEqualTo(401));
		String basic = "Basic " + Base64.getEncoder().encodeToString("user:secret".getBytes(StandardCharsets.UTF_8));
		try (JdkWebSocket client = JdkWebSocket.open(HttpClient.newHttpClient(), this.app.ws("/secure/echo"),
				Map.of("Authorization", basic))) {
			assertThat(client.send("whoami").nextText()).isEqualTo("user");
		}
	}

	@Test
	void theSwitchCarriesSpringSecuritysHeaders() throws Exception {
		String key = Base64.getEncoder().encodeToString("sixteen byte key".getBytes(StandardCharsets.US_ASCII));
		try (RawClient client = RawClient.connect(this.app.port())) {
			RawResponse response = client.exchange("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
					+ "Connection: Upgrade\r\nSec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n");
			assertThat(response.status()).isEqualTo(101);
			assertThat(response.header("Upgrade")).isEqualToIgnoringCase("websocket");
			assertThat(response.header("Connection")).isEqualToIgnoringCase("Upgrade");
			assertThat(response.header("Sec-WebSocket-Accept")).isEqualTo(accept(key));
			assertThat(response.header("X-Content-Type-Options")).as("Spring Security's").isEqualTo("nosniff");
			assertThat(response.headers("Content-Length")).isEmpty();
			assertThat(response.headers("Transfer-Encoding")).isEmpty();
		}
	}

	@Test
	void anEndpointExportedBySpringServesItsRoom() throws Exception {
		try (JdkWebSocket first = JdkWebSocket.open(this.app.ws("/chat/lobby"));
				SpringClient second = SpringClient.open(new StandardWebSocketClient(), this.app.ws("/chat/lobby"))) {
			assertThat(first.send("hi").nextText()).isEqualTo("lobby:hi");
			assertThat(second.exchange("count")).isEqualTo("lobby:2");
		}
	}

	private static String accept(String key) throws Exception {
		byte[] digest = MessageDigest.getInstance("SHA-1")
			.digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII));
		return Base64.getEncoder().encodeToString(digest);
	}

}
