package dev.ariadne.autoconfigure.web;

import dev.ariadne.autoconfigure.SharedListenerWarning;

import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextFactory;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * that warns, in a Spring MVC or WebFlux application with Actuator, when Actuator's endpoints
 * are served by the application's Ariadne listener ({@code management.server.port} not set, or
 * the application's port) and that listener runs the {@code blocking} model: metrics and health
 * then starve with the application's pool ({@link SharedListenerWarning}), as in a
 * {@code Route} application.
 */
@AutoConfiguration(
		after = { AriadneServletWebServerAutoConfiguration.class, AriadneReactiveWebServerAutoConfiguration.class })
@ConditionalOnClass(ManagementContextFactory.class)
@ConditionalOnWebApplication
@ConditionalOnManagementPort(ManagementPortType.SAME)
public final class AriadneSharedListenerWarningAutoConfiguration {

	@Bean
	static ApplicationListener<WebServerInitializedEvent> ariadneWebSharedListenerWarning() {
		return (event) -> {
			if (event.getWebServer() instanceof AriadneWebServer server) {
				SharedListenerWarning.warnIfBlocking(server.getServer().config());
			}
		};
	}

}
