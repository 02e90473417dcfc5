package dev.ariadne.autoconfigure.actuate;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneServers;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * for the {@link AriadneEndpoint ariadne endpoint}, created when it is available: exposed
 * (over the web, {@code management.endpoints.web.exposure.include}, or JMX) and not turned
 * off by its access setting. Imports the hints a native image needs for it
 * ({@link AriadneEndpointRuntimeHints}).
 */
@AutoConfiguration
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class, AriadneServer.class })
@ImportRuntimeHints(AriadneEndpointRuntimeHints.class)
public final class AriadneEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	AriadneEndpoint ariadneEndpoint(ObjectProvider<AriadneServers> servers) {
		return new AriadneEndpoint(servers);
	}

}
