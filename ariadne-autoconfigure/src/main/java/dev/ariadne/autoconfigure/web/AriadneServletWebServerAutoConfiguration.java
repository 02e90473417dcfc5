package dev.ariadne.autoconfigure.web;

import jakarta.servlet.ServletRequest;

import dev.ariadne.autoconfigure.AriadneRouteProvider;
import dev.ariadne.autoconfigure.AriadneServerCustomizer;
import dev.ariadne.autoconfigure.AriadneServerProperties;
import dev.ariadne.autoconfigure.AriadneServerSettings;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.server.Middleware;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RequestListener;
import dev.ariadne.servlet.ServletDeployment;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.SearchStrategy;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.server.autoconfigure.servlet.ServletWebServerConfiguration;
import org.springframework.boot.web.server.servlet.ServletWebServerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * that serves a servlet application (Spring MVC) with Ariadne: the application's
 * {@link ServletWebServerFactory} is an {@link AriadneServletWebServerFactory}, ordered before
 * Boot's Tomcat and Jetty auto-configurations, so that adding the starter is all it takes.
 * Imports Boot's {@link ServletWebServerConfiguration}, which applies {@code server.*}; the
 * factory customizer applies {@code ariadne.server.*}. Backs off when the application defines
 * its own {@link ServletWebServerFactory}.
 *
 * <p>Boot's management child context registers this class too, for
 * {@code management.server.port}; there the customizer configures the management listener.
 */
@AutoConfiguration(beforeName = {
		"org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration",
		"org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration" })
@ConditionalOnClass({ ServletRequest.class, ServletDeployment.class, ServletWebServerFactory.class })
@ConditionalOnWebApplication(type = Type.SERVLET)
@EnableConfigurationProperties(AriadneServerProperties.class)
@Import(ServletWebServerConfiguration.class)
public final class AriadneServletWebServerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(value = ServletWebServerFactory.class, search = SearchStrategy.CURRENT)
	AriadneServletWebServerFactory ariadneServletWebServerFactory() {
		return new AriadneServletWebServerFactory();
	}

	@Bean
	@ConditionalOnMissingBean
	AriadneServers ariadneServers() {
		return new AriadneServers();
	}

	@Bean
	AriadneServletWebServerFactoryCustomizer ariadneServletWebServerFactoryCustomizer(ApplicationContext context,
			Environment environment, AriadneServerProperties properties, AriadneServers servers,
			ObjectProvider<AriadneServerCustomizer> customizers, ObjectProvider<Route> routes,
			ObjectProvider<AriadneRouteProvider> routeProviders, ObjectProvider<Middleware> middleware,
			ObjectProvider<RequestListener> requestListeners) {
		AriadneServerSettings settings = new AriadneServerSettings(environment, customizers, routes, routeProviders,
				middleware, requestListeners);
		return new AriadneServletWebServerFactoryCustomizer(context, environment, properties, settings, servers);
	}

}
