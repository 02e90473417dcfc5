package dev.ariadne.autoconfigure.web;

import dev.ariadne.autoconfigure.AriadneRouteProvider;
import dev.ariadne.autoconfigure.AriadneServerCustomizer;
import dev.ariadne.autoconfigure.AriadneServerProperties;
import dev.ariadne.autoconfigure.AriadneServerSettings;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.server.Middleware;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RequestListener;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * What the servlet and the reactive auto-configurations share: the registry of running
 * listeners and the customizer that applies {@code ariadne.server.*} to Ariadne's web-server
 * factory, in the application's context and in Boot's management child context.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AriadneServerProperties.class)
class AriadneWebServerFactoryConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AriadneServers ariadneServers() {
		return new AriadneServers();
	}

	@Bean
	AriadneWebServerFactoryCustomizer ariadneWebServerFactoryCustomizer(ApplicationContext context,
			Environment environment, AriadneServerProperties properties, AriadneServers servers,
			ObjectProvider<AriadneServerCustomizer> customizers, ObjectProvider<Route> routes,
			ObjectProvider<AriadneRouteProvider> routeProviders, ObjectProvider<Middleware> middleware,
			ObjectProvider<RequestListener> requestListeners) {
		AriadneServerSettings settings = new AriadneServerSettings(environment, customizers, routes, routeProviders,
				middleware, requestListeners);
		return new AriadneWebServerFactoryCustomizer(context, environment, properties, settings, servers);
	}

}
