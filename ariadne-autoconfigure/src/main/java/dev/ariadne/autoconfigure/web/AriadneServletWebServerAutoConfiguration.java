package dev.ariadne.autoconfigure.web;

import jakarta.servlet.ServletRequest;

import dev.ariadne.servlet.ServletDeployment;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.SearchStrategy;
import org.springframework.boot.web.server.autoconfigure.servlet.ServletWebServerConfiguration;
import org.springframework.boot.web.server.servlet.ServletWebServerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * that serves a servlet application (Spring MVC) with Ariadne: the application's
 * {@link ServletWebServerFactory} is an {@link AriadneServletWebServerFactory}, ordered before
 * Boot's Tomcat and Jetty auto-configurations, so that adding the starter is all it takes.
 * Imports Boot's {@link ServletWebServerConfiguration}, which applies {@code server.*}; the
 * factory customizer applies {@code ariadne.server.*}. Backs off when the application defines
 * its own {@link ServletWebServerFactory}.
 *
 * <p>With Spring's WebSocket support, Tyrus's server engine and the Jakarta WebSocket API on the
 * class path ({@code spring-boot-starter-websocket} and the Ariadne starter), the servlet context
 * publishes a Jakarta WebSocket {@code ServerContainer}, as Boot's Tomcat and Jetty modules do.
 *
 * <p>Boot's management child context registers this class too, for
 * {@code management.server.port}; there the customizer configures the management listener.
 */
@AutoConfiguration(beforeName = {
		"org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration",
		"org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration" })
@ConditionalOnClass({ ServletRequest.class, ServletDeployment.class, ServletWebServerFactory.class })
@ConditionalOnWebApplication(type = Type.SERVLET)
@Import({ ServletWebServerConfiguration.class, AriadneWebServerFactoryConfiguration.class })
public final class AriadneServletWebServerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(value = ServletWebServerFactory.class, search = SearchStrategy.CURRENT)
	AriadneServletWebServerFactory ariadneServletWebServerFactory() {
		return new AriadneServletWebServerFactory();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "org.springframework.web.socket.WebSocketHandler",
			"jakarta.websocket.server.ServerContainer", "org.glassfish.tyrus.server.TyrusServerContainer" })
	static class JakartaWebSocketConfiguration {

		@Bean
		AriadneWebSocketCustomizer ariadneWebSocketCustomizer() {
			return new AriadneWebSocketCustomizer();
		}

		@Bean
		AriadneWebSocketShutdown ariadneWebSocketShutdown(ApplicationContext context) {
			return new AriadneWebSocketShutdown(context);
		}

	}

}
