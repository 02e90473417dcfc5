package dev.ariadne.autoconfigure;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import dev.ariadne.AriadneServer;
import dev.ariadne.server.Middleware;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RequestListener;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnNotWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * for the Ariadne HTTP server.
 *
 * <p>Creates an {@link AriadneServer} from the {@code ariadne.server.*} properties, the
 * {@link AriadneServerCustomizer} beans, and every {@link Route}, {@link AriadneRouteProvider},
 * {@link Middleware} and {@link RequestListener} bean of the context, taken in
 * {@link org.springframework.core.annotation.Order @Order} order; middleware runs in that order
 * around each handler. The server starts once the context is refreshed and shuts down
 * gracefully when it closes; readiness turns to refusing traffic before it drains. Backs off
 * when the application defines its own {@link AriadneServer}, which is then started and
 * stopped with the context.
 */
@AutoConfiguration
@ConditionalOnNotWebApplication
@EnableConfigurationProperties(AriadneServerProperties.class)
public final class AriadneAutoConfiguration {

	/**
	 * Name of the route provider bean of {@code AriadneActuatorAutoConfiguration}, present when
	 * Actuator's endpoints are served by Ariadne.
	 */
	private static final String ACTUATOR_ROUTE_PROVIDER = "ariadneActuatorRouteProvider";

	private static final String MANAGEMENT_PORT_PROPERTY = "management.server.port";

	/**
	 * Name of the {@code ariadne} endpoint's bean, present when the endpoint is available; the
	 * startup summary then points to its live page.
	 */
	private static final String ARIADNE_ENDPOINT = "ariadneEndpoint";

	@Bean(destroyMethod = "stop")
	@ConditionalOnMissingBean
	AriadneServer ariadneServer(AriadneServerProperties properties, ConfigurableEnvironment environment,
			ObjectProvider<AriadneServerCustomizer> customizers, ObjectProvider<Route> routes,
			ObjectProvider<AriadneRouteProvider> routeProviders, ObjectProvider<Middleware> middleware,
			ObjectProvider<RequestListener> requestListeners, ObjectProvider<SslBundles> sslBundles) {
		AriadneServerSettings settings = new AriadneServerSettings(environment, customizers, routes, routeProviders,
				middleware, requestListeners);
		ServerConfig config = settings.serverConfig(properties);
		TlsConfig tls = AriadneTls.fromProperties(properties.getSsl(), sslBundles.getIfAvailable());
		if (tls != null && config.tls() == null) {
			config = config.toBuilder().tls(tls).build();
		}
		AriadneServer.Builder server = AriadneServer.builder(config)
			.diagnosis(properties.getDiagnosis().isEnabled());
		server.routes(settings.routes(properties, false));
		settings.middleware().forEach(server::middleware);
		settings.requestListeners().forEach(server::requestListener);
		return server.build();
	}

	/**
	 * The additional listeners ({@code ariadne.server.additional-listeners}): the application
	 * server's configuration on other ports, each serving the same routes, middleware and
	 * request listeners with pools of its own.
	 */
	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	@ConditionalOnSingleCandidate(AriadneServer.class)
	AriadneAdditionalServers ariadneAdditionalServers(AriadneServer ariadneServer, AriadneServerProperties properties,
			ConfigurableEnvironment environment, ObjectProvider<AriadneServerCustomizer> customizers,
			ObjectProvider<Route> routes, ObjectProvider<AriadneRouteProvider> routeProviders,
			ObjectProvider<Middleware> middleware, ObjectProvider<RequestListener> requestListeners,
			ObjectProvider<SslBundles> sslBundles) {
		List<AdditionalListener> listeners = AdditionalListener.of(properties.getAdditionalListeners(),
				sslBundles.getIfAvailable());
		AriadneServerSettings settings = new AriadneServerSettings(environment, customizers, routes, routeProviders,
				middleware, requestListeners);
		List<AriadneServer> servers = new ArrayList<>(listeners.size());
		for (AdditionalListener listener : listeners) {
			AriadneServer.Builder server = AriadneServer.builder(listener.configure(ariadneServer.config()))
				.diagnosis(properties.getDiagnosis().isEnabled());
			server.routes(settings.routes(properties, false));
			settings.middleware().forEach(server::middleware);
			settings.requestListeners().forEach(server::requestListener);
			servers.add(server.build());
		}
		return new AriadneAdditionalServers(servers, listeners);
	}

	@Bean
	@ConditionalOnMissingBean
	AriadneServers ariadneServers() {
		return new AriadneServers();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnSingleCandidate(AriadneServer.class)
	AriadneServerLifecycle ariadneServerLifecycle(AriadneServer ariadneServer, ConfigurableEnvironment environment,
			ApplicationEventPublisher eventPublisher, ObjectProvider<AriadneManagementServer> managementServer,
			ApplicationContext applicationContext, AriadneServers servers,
			ObjectProvider<AriadneAdditionalServers> additionalServers) {
		boolean livePage = applicationContext.containsBean(ARIADNE_ENDPOINT)
				&& ariadneServer.diagnosis().isPresent();
		return new AriadneServerLifecycle(ariadneServer, environment, eventPublisher, () -> {
			AriadneManagementServer management = managementServer.getIfAvailable();
			String summary = managementSummary(management, applicationContext.containsBean(ACTUATOR_ROUTE_PROVIDER),
					environment);
			Integer managementPort = environment.getProperty(MANAGEMENT_PORT_PROPERTY, Integer.class);
			boolean disabled = managementPort != null && managementPort < 0;
			boolean servedOverHttp = management != null
					|| applicationContext.containsBean(ACTUATOR_ROUTE_PROVIDER) && !disabled;
			String live = (livePage && servedOverHttp) ? livePageUrl(management, ariadneServer, environment) : null;
			return (summary != null && live != null) ? summary + "; live diagnosis on " + live : summary;
		}).registerIn(servers).withAdditional(additionalServers.getIfAvailable());
	}

	/**
	 * Returns where the {@code ariadne} endpoint's live page is served: on the management
	 * listener when there is one, else on the application's, under Actuator's base path.
	 * @return the page's URL, or {@code null} when Actuator is not served over HTTP here
	 */
	private static String livePageUrl(AriadneManagementServer management, AriadneServer application,
			Environment environment) {
		AriadneServer server = (management != null) ? management.server() : application;
		ServerConfig config = server.config();
		InetSocketAddress bound = server.isRunning() ? server.localAddress()
				: new InetSocketAddress(config.address(), config.port());
		if (bound.getPort() == 0) {
			return null;
		}
		String serverBasePath = (management != null) ? environment.getProperty("management.server.base-path", "") : "";
		String basePath = environment.getProperty("management.endpoints.web.base-path", "/actuator");
		String path = environment.getProperty("management.endpoints.web.path-mapping.ariadne", "ariadne");
		String address = AriadneServerLifecycle.describe(bound).replace("0.0.0.0:", "localhost:");
		String scheme = (config.tls() != null) ? "https://" : "http://";
		return scheme + address + trimSlash(serverBasePath) + trimSlash(basePath) + trimSlash(path) + "/live";
	}

	private static String trimSlash(String path) {
		String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
		return (trimmed.isEmpty() || trimmed.startsWith("/")) ? trimmed : "/" + trimmed;
	}

	/**
	 * Describes where the Actuator endpoints are served, for the startup summary.
	 * @param management the management listener, or {@code null}
	 * @param actuator whether the application's listener serves Actuator's routes
	 * @param environment the environment, for the management port
	 * @return the description, or {@code null} when Actuator is not served at all
	 */
	private static String managementSummary(AriadneManagementServer management, boolean actuator,
			Environment environment) {
		if (management != null) {
			ServerConfig config = management.server().config();
			String where = management.server().isRunning()
					? AriadneServerLifecycle.describe(management.server().localAddress())
					: AriadneServerLifecycle.describe(new InetSocketAddress(config.address(), config.port()));
			return "management on " + where + " (io-model " + config.ioModel().value() + ", threads.max "
					+ config.maxThreads() + ")";
		}
		if (!actuator) {
			return null;
		}
		Integer port = environment.getProperty(MANAGEMENT_PORT_PROPERTY, Integer.class);
		if (port != null && port < 0) {
			return "actuator not served over HTTP (" + MANAGEMENT_PORT_PROPERTY + "=" + port + ")";
		}
		return "actuator on the application port";
	}

	@Bean
	ReadinessOnCloseListener ariadneReadinessOnCloseListener(ApplicationContext applicationContext) {
		return new ReadinessOnCloseListener(applicationContext);
	}

	@Bean
	@ConfigurationPropertiesBinding
	static IoModelConverter ariadneIoModelConverter() {
		return new IoModelConverter();
	}

}
