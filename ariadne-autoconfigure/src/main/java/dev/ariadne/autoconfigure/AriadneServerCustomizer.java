package dev.ariadne.autoconfigure;

import dev.ariadne.server.ServerConfig;

/**
 * Callback interface for beans that customize the configuration of the auto-configured
 * {@link dev.ariadne.AriadneServer} beyond what {@code ariadne.server.*} properties
 * offer.
 *
 * <p>Customizers are called after the properties have been applied, in
 * {@link org.springframework.core.annotation.Order @Order} order, so they win over the
 * properties. The configuration is validated once every customizer has run.
 */
@FunctionalInterface
public interface AriadneServerCustomizer {

	/**
	 * Customizes the server configuration.
	 * @param config the builder, holding the values from the properties and from the
	 * customizers called before this one
	 */
	void customize(ServerConfig.Builder config);

}
