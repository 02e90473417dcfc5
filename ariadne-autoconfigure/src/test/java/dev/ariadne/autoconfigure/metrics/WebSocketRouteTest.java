package dev.ariadne.autoconfigure.metrics;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.ariadne.AriadneServer;
import dev.ariadne.Await;
import dev.ariadne.autoconfigure.AriadneAutoConfiguration;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.websocket.WebSocketHandler;
import dev.ariadne.server.websocket.WebSocketListener;
import dev.ariadne.server.websocket.WebSocketSession;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring application's {@code Route} bean that serves WebSocket ({@link WebSocketHandler}):
 * the session runs under {@code ariadne.server.websocket.*}, and its meters are the listener's.
 */
class WebSocketRouteTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AriadneAutoConfiguration.class, AriadneMetricsAutoConfiguration.class,
				MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class))
		.withUserConfiguration(Routes.class)
		.withPropertyValues("ariadne.server.port=0", "ariadne.server.address=127.0.0.1",
				"ariadne.server.websocket.max-message-size=1KB");

	@Test
	void echoesUnderTheWebSocketPropertiesAndCountsSessionsAndMessages() {
		this.runner.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			int port = context.getBean(AriadneServer.class).port();
			BlockingQueue<String> events = new LinkedBlockingQueue<>();
			WebSocket socket = HttpClient.newHttpClient()
				.newWebSocketBuilder()
				.buildAsync(URI.create("ws://127.0.0.1:" + port + "/echo"), new WebSocket.Listener() {
					@Override
					public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
						events.add("text:" + data);
						webSocket.request(1);
						return null;
					}

					@Override
					public CompletionStage<?> onClose(WebSocket webSocket, int code, String reason) {
						events.add("close:" + code);
						return null;
					}
				})
				.get(10, TimeUnit.SECONDS);
			socket.sendText("hello", true).get(10, TimeUnit.SECONDS);
			assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("text:hello");
			assertThat(registry.get("ariadne.websocket.sessions.active").tag("listener", "app").gauge().value())
				.isEqualTo(1);
			assertThat(registry.get("ariadne.websocket.messages").tag("direction", "in").functionCounter().count())
				.isEqualTo(1);
			// counted once its frame is written, which the client may see first
			Await.until(() -> registry.get("ariadne.websocket.messages").tag("direction", "out").functionCounter()
				.count() == 1, () -> "messages out: " + registry.get("ariadne.websocket.messages")
					.tag("direction", "out").functionCounter().count());
			socket.sendText("x".repeat(1025), true).get(10, TimeUnit.SECONDS);
			assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("close:1009");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Routes {

		@Bean
		Route echo() {
			return Route.get("/echo", WebSocketHandler.of((request) -> new WebSocketListener() {
				@Override
				public CompletionStage<?> onText(WebSocketSession session, String text) {
					return session.sendText(text);
				}
			}));
		}

	}

}
