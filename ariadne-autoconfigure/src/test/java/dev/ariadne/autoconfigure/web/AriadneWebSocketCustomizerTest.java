package dev.ariadne.autoconfigure.web;

import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.ServletContext;
import jakarta.websocket.server.ServerContainer;
import org.glassfish.tyrus.server.TyrusServerContainer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.server.WebServer;
import org.springframework.web.socket.WebSocketHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jakarta WebSocket for a servlet application on Ariadne: the customizer is there when Spring's
 * WebSocket support, Tyrus's server engine and the WebSocket API are, and not without any of
 * them; applied to the factory, the servlet context has its {@code ServerContainer}, with the
 * 64 KiB default limits, once the server is made, before Spring's beans look for it.
 */
class AriadneWebSocketCustomizerTest {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AriadneServletWebServerAutoConfiguration.class));

	@Test
	void isThereWithSpringsWebSocketSupportAndTyrus() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(AriadneWebSocketCustomizer.class));
	}

	@Test
	void isNotThereWithoutSpringsWebSocketSupport() {
		this.runner.withClassLoader(new FilteredClassLoader(WebSocketHandler.class))
			.run((context) -> assertThat(context).doesNotHaveBean(AriadneWebSocketCustomizer.class));
	}

	@Test
	void isNotThereWithoutTyrus() {
		this.runner.withClassLoader(new FilteredClassLoader(TyrusServerContainer.class))
			.run((context) -> assertThat(context).doesNotHaveBean(AriadneWebSocketCustomizer.class));
	}

	@Test
	void isNotThereWithoutTheWebSocketApi() {
		this.runner.withClassLoader(new FilteredClassLoader(ServerContainer.class))
			.run((context) -> assertThat(context).doesNotHaveBean(AriadneWebSocketCustomizer.class));
	}

	@Test
	void publishesTheServerContainerWhenTheServletContextStarts() {
		AriadneServletWebServerFactory factory = new AriadneServletWebServerFactory(0);
		new AriadneWebSocketCustomizer().customize(factory);
		AtomicReference<Object> seen = new AtomicReference<>();
		AtomicReference<ServletContext> context = new AtomicReference<>();
		WebServer server = factory.getWebServer((servletContext) -> context.set(servletContext));
		try {
			seen.set(context.get().getAttribute("jakarta.websocket.server.ServerContainer"));
			assertThat(seen.get()).isInstanceOf(ServerContainer.class);
			assertThat(((ServerContainer) seen.get()).getDefaultMaxTextMessageBufferSize()).isEqualTo(64 * 1024);
		}
		finally {
			server.stop();
			server.destroy();
		}
	}

}
