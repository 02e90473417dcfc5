package dev.ariadne.autoconfigure;

import java.util.Collection;

import dev.ariadne.server.routing.Route;

/**
 * Contributes routes to the auto-configured {@link dev.ariadne.AriadneServer} that
 * cannot be declared as {@link Route} beans, typically because they are derived from other
 * beans, as Actuator's web endpoints are.
 *
 * <p>Providers are asked once, when the server bean is created, in
 * {@link org.springframework.core.annotation.Order @Order} order, after the {@link Route}
 * beans. The server's middleware applies to their routes as to any other. A provider runs
 * while the server bean is being created, so neither it nor any bean it creates may depend
 * on the server directly: reach it through an
 * {@link org.springframework.beans.factory.ObjectProvider ObjectProvider} instead.
 */
@FunctionalInterface
public interface AriadneRouteProvider {

	/**
	 * Returns the routes to add to the application's server.
	 * @return the routes, possibly empty
	 */
	Collection<Route> routes();

}
