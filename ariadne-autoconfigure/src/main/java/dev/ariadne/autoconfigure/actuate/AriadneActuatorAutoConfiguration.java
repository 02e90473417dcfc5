package dev.ariadne.autoconfigure.actuate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneAutoConfiguration;
import dev.ariadne.autoconfigure.AriadneManagementServer;
import dev.ariadne.autoconfigure.AriadneRouteProvider;
import dev.ariadne.autoconfigure.AriadneServerInitializedEvent;
import dev.ariadne.autoconfigure.AriadneServerProperties;
import dev.ariadne.autoconfigure.AriadneServerSettings;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.autoconfigure.AriadneTls;
import dev.ariadne.autoconfigure.SharedListenerWarning;
import dev.ariadne.autoconfigure.actuate.ManagementServerSettings.PortType;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.stats.RequestListener;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.IncludeExcludeEndpointFilter;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointFilter;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationFilter;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.ParameterValueMapper;
import org.springframework.boot.actuate.endpoint.jackson.EndpointJsonMapper;
import org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper;
import org.springframework.boot.actuate.endpoint.web.EndpointMediaTypes;
import org.springframework.boot.actuate.endpoint.web.ExposableWebEndpoint;
import org.springframework.boot.actuate.endpoint.web.PathMapper;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpointDiscoverer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnNotWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointWebExtension;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointProperties;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.health.registry.ReactiveHealthContributorRegistry;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * that serves Spring Boot Actuator's web endpoints from Ariadne, in an application without a
 * servlet or reactive stack, where Spring Boot creates the endpoint beans but nothing that
 * serves them over HTTP.
 *
 * <p>It discovers the web endpoints as Boot's {@code WebEndpointAutoConfiguration} does,
 * honouring {@code management.endpoints.web.exposure.*}, {@code .base-path},
 * {@code .path-mapping.*} and endpoint access, and registers the health endpoint's web
 * extension, so that a {@code DOWN} health answers {@code 503}. Where the endpoints are served
 * depends on {@code management.server.port}:
 * <ul>
 * <li>not set, or equal to {@code ariadne.server.port}: on the application's listener, which
 * logs a warning at startup when it runs the {@code blocking} model;</li>
 * <li>another port, 0 included: on a management listener of its own, an
 * {@link AriadneManagementServer} bound to {@code management.server.address} under
 * {@code management.server.base-path}, with a small thread budget isolated from the
 * application's pool (the {@code event-loop} model with 1 selector thread and at most 2
 * worker threads), so that health checks and scrapes are answered while the application's
 * pool is starved; the application's listener then serves only the endpoints' additional
 * paths for the server namespace (such as {@code /livez} and {@code /readyz} when
 * {@code management.endpoint.health.probes.add-additional-paths} is set);</li>
 * <li>negative: nowhere.</li>
 * </ul>
 * Backs off in a servlet or reactive web application, where Spring Boot serves the
 * endpoints itself.
 */
@AutoConfiguration(before = AriadneAutoConfiguration.class,
		afterName = { "org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration",
				"org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration",
				"org.springframework.boot.actuate.autoconfigure.endpoint.jackson.JacksonEndpointAutoConfiguration",
				"org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration" })
@ConditionalOnClass({ WebEndpointDiscoverer.class, WebEndpointProperties.class, JsonMapper.class, AriadneServer.class })
@ConditionalOnNotWebApplication
@EnableConfigurationProperties({ WebEndpointProperties.class, AriadneServerProperties.class })
public final class AriadneActuatorAutoConfiguration {

	/** Name of the management listener, as its {@code listener} metric tag. */
	static final String MANAGEMENT_LISTENER = "management";

	/** Name of the route provider bean, as {@code AriadneAutoConfiguration} expects it. */
	static final String ACTUATOR_ROUTE_PROVIDER = "ariadneActuatorRouteProvider";

	/** Worker threads of the management listener. */
	static final int MANAGEMENT_MAX_THREADS = 2;

	@Bean
	@ConditionalOnMissingBean(WebEndpointsSupplier.class)
	WebEndpointDiscoverer ariadneWebEndpointDiscoverer(ApplicationContext applicationContext,
			ParameterValueMapper parameterValueMapper, ObjectProvider<EndpointMediaTypes> endpointMediaTypes,
			WebEndpointProperties properties, ObjectProvider<PathMapper> pathMappers,
			ObjectProvider<AdditionalPathsMapper> additionalPathsMappers,
			ObjectProvider<OperationInvokerAdvisor> invokerAdvisors,
			ObjectProvider<EndpointFilter<ExposableWebEndpoint>> endpointFilters,
			ObjectProvider<OperationFilter<WebOperation>> operationFilters,
			EndpointAccessResolver endpointAccessResolver) {
		List<PathMapper> mappers = new ArrayList<>(pathMappers.orderedStream().toList());
		mappers.add(pathMapper(properties.getPathMapping()));
		List<EndpointFilter<ExposableWebEndpoint>> filters = new ArrayList<>(endpointFilters.orderedStream().toList());
		WebEndpointProperties.Exposure exposure = properties.getExposure();
		filters.add(new IncludeExcludeEndpointFilter<>(ExposableWebEndpoint.class, exposure.getInclude(),
				exposure.getExclude(), EndpointExposure.WEB.getDefaultIncludes()));
		List<OperationFilter<WebOperation>> accessFilters = new ArrayList<>(
				operationFilters.orderedStream().toList());
		accessFilters.add(OperationFilter.byAccess(endpointAccessResolver));
		return new WebEndpointDiscoverer(applicationContext, parameterValueMapper,
				endpointMediaTypes.getIfAvailable(() -> EndpointMediaTypes.DEFAULT), mappers,
				additionalPathsMappers.orderedStream().toList(), invokerAdvisors.orderedStream().toList(), filters,
				accessFilters);
	}

	/**
	 * Maps endpoint ids to {@code management.endpoints.web.path-mapping.*}, as Boot's own
	 * (package-private) mapper does; unmapped endpoints keep their id as their path.
	 */
	private static PathMapper pathMapper(Map<String, String> pathMapping) {
		Map<EndpointId, String> paths = new HashMap<>();
		pathMapping.forEach((id, path) -> paths.put(EndpointId.fromPropertyValue(id), path));
		return (endpointId) -> {
			String path = paths.get(endpointId);
			return (path != null && !path.isBlank()) ? path : null;
		};
	}

	@Bean
	@ConditionalOnMissingBean
	ActuatorRouteFactory ariadneActuatorRouteFactory(WebEndpointsSupplier webEndpointsSupplier,
			ObjectProvider<EndpointMediaTypes> endpointMediaTypes, WebEndpointProperties properties,
			ObjectProvider<EndpointJsonMapper> endpointJsonMapper, ObjectProvider<JsonMapper> jsonMapper) {
		return new ActuatorRouteFactory(webEndpointsSupplier,
				endpointMediaTypes.getIfAvailable(() -> EndpointMediaTypes.DEFAULT),
				jsonMapper(endpointJsonMapper, jsonMapper), properties.getBasePath(),
				properties.getDiscovery().isEnabled());
	}

	/**
	 * Returns the isolated endpoint mapper; with
	 * {@code management.endpoints.jackson.isolated-json-mapper=false}, the application's own
	 * mapper, or one that leaves out {@code null} values as the isolated one does.
	 */
	private static JsonMapper jsonMapper(ObjectProvider<EndpointJsonMapper> endpointJsonMapper,
			ObjectProvider<JsonMapper> jsonMapper) {
		EndpointJsonMapper endpoint = endpointJsonMapper.getIfAvailable();
		if (endpoint != null) {
			return endpoint.get();
		}
		JsonMapper application = jsonMapper.getIfUnique();
		return (application != null) ? application
				: JsonMapper.builder()
					.changeDefaultPropertyInclusion(
							(inclusion) -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL))
					.build();
	}

	/**
	 * Mounts the endpoints on the application's listener, or only their server-namespace
	 * additional paths when they have a listener of their own. The application's startup
	 * summary looks for this bean by name.
	 */
	@Bean(ACTUATOR_ROUTE_PROVIDER)
	@ConditionalOnMissingBean(name = ACTUATOR_ROUTE_PROVIDER)
	AriadneRouteProvider ariadneActuatorRouteProvider(ActuatorRouteFactory routeFactory, Environment environment) {
		ManagementServerSettings settings = ManagementServerSettings.get(environment);
		return () -> switch (settings.portType()) {
			case SAME -> routeFactory.routes(WebServerNamespace.SERVER, "");
			case DIFFERENT -> routeFactory.additionalPathRoutes(WebServerNamespace.SERVER);
			case DISABLED -> List.of();
		};
	}

	@Bean
	@ConditionalOnMissingBean(name = "ariadneSharedListenerWarning")
	@ConditionalOnManagementPort(PortType.SAME)
	ApplicationListener<AriadneServerInitializedEvent> ariadneSharedListenerWarning() {
		return (event) -> SharedListenerWarning.warnIfBlocking(event.getServer().config());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnManagementPort(PortType.DIFFERENT)
	static class ManagementServerConfiguration {

		private static final String MANAGEMENT_SSL_BUNDLE = "management.server.ssl.bundle";

		@Bean
		@ConditionalOnMissingBean
		AriadneManagementServer ariadneManagementServer(ActuatorRouteFactory routeFactory,
				AriadneServerProperties properties, Environment environment,
				ObjectProvider<RequestListener> requestListeners, ObjectProvider<SslBundles> sslBundles,
				ObjectProvider<AriadneServer> application) {
			ManagementServerSettings settings = ManagementServerSettings.get(environment);
			ServerConfig.Builder config = ServerConfig.builder()
				.name(MANAGEMENT_LISTENER)
				.address(settings.address())
				.port(settings.port())
				.ioModel(IoModel.EVENT_LOOP)
				.selectors(1)
				.maxThreads(MANAGEMENT_MAX_THREADS)
				.shutdownGracePeriod(properties.getShutdown().getGracePeriod());
			AriadneServer applicationServer = application.getIfUnique();
			if (applicationServer != null) {
				config.accessLog(AriadneServerSettings.managementAccessLog(applicationServer.config().accessLog()));
			}
			String bundle = environment.getProperty(MANAGEMENT_SSL_BUNDLE);
			if (bundle != null && !bundle.isBlank()
					&& environment.getProperty("management.server.ssl.enabled", Boolean.class, true)) {
				SslBundles bundles = sslBundles.getIfAvailable();
				config.tls(AriadneTls
					.builder(MANAGEMENT_SSL_BUNDLE, AriadneTls.bundle(MANAGEMENT_SSL_BUNDLE, bundle, bundles), bundle,
							bundles)
					.handshakeTimeout(properties.getSsl().getHandshakeTimeout())
					.build());
			}
			AriadneServer.Builder server = AriadneServer.builder(config.build())
				.diagnosis(properties.getDiagnosis().isEnabled())
				.routes(routeFactory.routes(WebServerNamespace.MANAGEMENT, settings.basePath()));
			requestListeners.orderedStream().forEach(server::requestListener);
			return new AriadneManagementServer(server.build());
		}

		@Bean
		@ConditionalOnMissingBean(name = "ariadneManagementServerLifecycle")
		SmartLifecycle ariadneManagementServerLifecycle(AriadneManagementServer managementServer,
				ConfigurableEnvironment environment, ObjectProvider<AriadneServers> servers) {
			return managementServer.lifecycle(environment, servers.getIfAvailable());
		}

	}

	/**
	 * Registers the health endpoint's web extension, which Boot registers only in servlet and
	 * reactive applications: it maps a health status to its HTTP status ({@code DOWN} and
	 * {@code OUT_OF_SERVICE} to {@code 503}) and serves groups and additional paths.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthEndpoint.class)
	static class HealthEndpointWebExtensionConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(HealthEndpoint.class)
		@ConditionalOnAvailableEndpoint(endpoint = HealthEndpoint.class, exposure = EndpointExposure.WEB)
		HealthEndpointWebExtension healthEndpointWebExtension(HealthContributorRegistry registry,
				ObjectProvider<ReactiveHealthContributorRegistry> reactiveRegistry, HealthEndpointGroups groups,
				HealthEndpointProperties properties) {
			return new HealthEndpointWebExtension(registry, reactiveRegistry.getIfAvailable(), groups,
					properties.getLogging().getSlowIndicatorThreshold());
		}

	}

}
