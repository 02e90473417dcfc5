package dev.ariadne.sample;

import dev.ariadne.server.routing.Route;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Ariadne's own {@link Route} API beside Spring MVC: a route declared as a bean is served by
 * the same listener, with the same pools and meters, ahead of the servlet chain (no
 * {@code DispatcherServlet}, no filters), for the few endpoints where that matters.
 */
@Configuration(proxyBeanMethods = false)
public class SampleRoutes {

	/**
	 * Answers {@code pong}, without Spring MVC.
	 * @return the {@code GET /ping} route
	 */
	@Bean
	Route pingRoute() {
		return Route.get("/ping", (request, response) -> response.send("pong"));
	}

}
