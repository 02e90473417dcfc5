package dev.ariadne.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import dev.ariadne.server.AccessLogConfig;
import dev.ariadne.server.Middleware;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RequestListener;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;

/**
 * What an application gives its Ariadne listener: the configuration mapped from
 * {@code ariadne.server.*} and the {@link AriadneServerCustomizer} beans, the {@link Route} and
 * {@link AriadneRouteProvider} beans with their route pools, the {@link Middleware} and the
 * {@link RequestListener} beans, each in {@link org.springframework.core.annotation.Order @Order}
 * order. Shared by the {@code Route} server of non-web applications and the web-server
 * factories of servlet and reactive ones, so that both read the beans the same way.
 */
public final class AriadneServerSettings {

	/**
	 * Start of the access-log file names of the management listener, before the application's
	 * prefix, as Boot's management server names the access log of Tomcat and Jetty.
	 */
	public static final String MANAGEMENT_ACCESS_LOG_PREFIX = "management_";

	private final Environment environment;

	private final ObjectProvider<AriadneServerCustomizer> customizers;

	private final ObjectProvider<Route> routes;

	private final ObjectProvider<AriadneRouteProvider> routeProviders;

	private final ObjectProvider<Middleware> middleware;

	private final ObjectProvider<RequestListener> requestListeners;

	/**
	 * Collects the settings of a context.
	 * @param environment the environment
	 * @param customizers the configuration customizers
	 * @param routes the routes
	 * @param routeProviders the route providers
	 * @param middleware the middleware
	 * @param requestListeners the request listeners
	 */
	public AriadneServerSettings(Environment environment, ObjectProvider<AriadneServerCustomizer> customizers,
			ObjectProvider<Route> routes, ObjectProvider<AriadneRouteProvider> routeProviders,
			ObjectProvider<Middleware> middleware, ObjectProvider<RequestListener> requestListeners) {
		this.environment = environment;
		this.customizers = customizers;
		this.routes = routes;
		this.routeProviders = routeProviders;
		this.middleware = middleware;
		this.requestListeners = requestListeners;
	}

	/**
	 * Maps the properties, then the customizers, to a validated configuration.
	 * @param properties the bound {@code ariadne.server.*} properties
	 * @return the configuration
	 * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException
	 * naming the property when one is invalid
	 */
	public ServerConfig serverConfig(AriadneServerProperties properties) {
		return new AriadneServerConfigMapper(this.environment).map(properties, this.customizers.orderedStream().toList());
	}

	/**
	 * Returns the declared routes with the pools of {@code ariadne.server.routes.*} applied.
	 * @param properties the bound properties
	 * @param servletPatterns whether keys that match no route are servlet path patterns (a
	 * servlet or reactive application) rather than mistakes
	 * @return the routes, in order
	 */
	public List<Route> routes(AriadneServerProperties properties, boolean servletPatterns) {
		List<Route> declared = new ArrayList<>(this.routes.orderedStream().toList());
		this.routeProviders.orderedStream().forEach((provider) -> declared.addAll(provider.routes()));
		return new RoutePoolAssignments(properties.getRoutes(), !servletPatterns).apply(declared);
	}

	/**
	 * Returns the middleware, in order.
	 * @return the middleware
	 */
	public List<Middleware> middleware() {
		return this.middleware.orderedStream().toList();
	}

	/**
	 * Returns the request listeners, in order.
	 * @return the listeners
	 */
	public List<RequestListener> requestListeners() {
		return this.requestListeners.orderedStream().toList();
	}

	/**
	 * Returns the access log of the management listener, when it has a port of its own: the
	 * application's settings, into files whose names start with {@value #MANAGEMENT_ACCESS_LOG_PREFIX}
	 * ({@code management_access_log.2026-12-01.log}), as Boot names the access log of Tomcat's and
	 * Jetty's management server; to standard output beside the application's when that is where
	 * the application's lines go.
	 * @param application the application listener's access log
	 * @return the management listener's
	 */
	public static AccessLogConfig managementAccessLog(AccessLogConfig application) {
		if (!application.enabled() || application.prefix().startsWith(MANAGEMENT_ACCESS_LOG_PREFIX)) {
			return application;
		}
		return application.toBuilder().prefix(MANAGEMENT_ACCESS_LOG_PREFIX + application.prefix()).build();
	}

}
