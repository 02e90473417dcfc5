package dev.ariadne.autoconfigure.web;

import dev.ariadne.servlet.ServletDeployment;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.web.server.autoconfigure.reactive.ReactiveWebServerConfiguration;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.server.reactive.ServletHttpHandlerAdapter;
import org.springframework.web.reactive.HandlerMapping;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * that serves a reactive application (Spring WebFlux) with Ariadne: the application's
 * {@link ReactiveWebServerFactory} is an {@link AriadneReactiveWebServerFactory}, ordered before
 * Boot's Reactor Netty, Tomcat and Jetty auto-configurations, so that adding the starter is all
 * it takes. Imports Boot's {@link ReactiveWebServerConfiguration}, which applies
 * {@code server.*}; Ariadne's customizer applies {@code ariadne.server.*}. Backs off when the
 * application defines its own {@link ReactiveWebServerFactory}.
 *
 * <p>A WebFlux {@code WebSocketHandler} mapping works as on Reactor Netty: every
 * {@code WebSocketHandlerAdapter} gets Ariadne's {@link AriadneRequestUpgradeStrategy}
 * (a bean post-processor of the auto-configuration).
 *
 * <p>Boot's management child context registers this class too, for
 * {@code management.server.port}; there the customizer configures the management listener.
 */
@AutoConfiguration(beforeName = {
		"org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration",
		"org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration",
		"org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration" })
@ConditionalOnClass({ ServletDeployment.class, ReactiveWebServerFactory.class, ServletHttpHandlerAdapter.class,
		HandlerMapping.class })
@ConditionalOnWebApplication(type = Type.REACTIVE)
@Import({ ReactiveWebServerConfiguration.class, AriadneWebServerFactoryConfiguration.class })
public final class AriadneReactiveWebServerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(ReactiveWebServerFactory.class)
	AriadneReactiveWebServerFactory ariadneReactiveWebServerFactory() {
		return new AriadneReactiveWebServerFactory();
	}

	@Bean
	static WebSocketServiceCustomizer ariadneWebSocketServiceCustomizer() {
		return new WebSocketServiceCustomizer();
	}

	@Bean
	@ConditionalOnMissingBean
	ReactiveRouteAttributeFilter ariadneReactiveRouteAttributeFilter() {
		return new ReactiveRouteAttributeFilter();
	}

}
