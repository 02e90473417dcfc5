package dev.ariadne.autoconfigure;

import dev.ariadne.server.AriadneServer;
import dev.ariadne.server.Middleware;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RequestListener;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * for the Ariadne HTTP server.
 *
 * <p>Creates an {@link AriadneServer} from the {@code ariadne.server.*} properties, the
 * {@link AriadneServerCustomizer} beans, and every {@link Route}, {@link Middleware} and
 * {@link RequestListener} bean of the context, taken in
 * {@link org.springframework.core.annotation.Order @Order} order; middleware runs in that order
 * around each handler. The server starts once the context is refreshed and shuts down
 * gracefully when it closes. Backs off when the application defines its own
 * {@link AriadneServer}, which is then started and stopped with the context.
 */
@AutoConfiguration
@EnableConfigurationProperties(AriadneServerProperties.class)
public final class AriadneAutoConfiguration {

	@Bean(destroyMethod = "stop")
	@ConditionalOnMissingBean
	AriadneServer ariadneServer(AriadneServerProperties properties, ConfigurableEnvironment environment,
			ObjectProvider<AriadneServerCustomizer> customizers, ObjectProvider<Route> routes,
			ObjectProvider<Middleware> middleware, ObjectProvider<RequestListener> requestListeners) {
		ServerConfig config = new AriadneServerConfigMapper(environment).map(properties,
				customizers.orderedStream().toList());
		AriadneServer.Builder server = AriadneServer.builder(config);
		routes.orderedStream().forEach(server::route);
		middleware.orderedStream().forEach(server::middleware);
		requestListeners.orderedStream().forEach(server::requestListener);
		return server.build();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnSingleCandidate(AriadneServer.class)
	AriadneServerLifecycle ariadneServerLifecycle(AriadneServer ariadneServer, ConfigurableEnvironment environment,
			ApplicationEventPublisher eventPublisher) {
		return new AriadneServerLifecycle(ariadneServer, environment, eventPublisher);
	}

	@Bean
	@ConfigurationPropertiesBinding
	static IoModelConverter ariadneIoModelConverter() {
		return new IoModelConverter();
	}

}
