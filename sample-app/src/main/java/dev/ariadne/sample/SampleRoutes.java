package dev.ariadne.sample;

import java.nio.charset.StandardCharsets;

import dev.ariadne.server.routing.Route;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The sample's routes, declared as {@link Route} beans that Ariadne's auto-configuration
 * serves.
 */
@Configuration(proxyBeanMethods = false)
public class SampleRoutes {

	private static final byte[] USER = "{\"id\":1,\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\"}"
		.getBytes(StandardCharsets.UTF_8);

	/**
	 * Greets: the lightest route.
	 * @return the {@code GET /} route
	 */
	@Bean
	Route helloRoute() {
		return Route.get("/", (request, response) -> response.send("Hello from Ariadne!"));
	}

	/**
	 * Answers a fixed user as JSON: a light route.
	 * @return the {@code GET /api/user} route
	 */
	@Bean
	Route userRoute() {
		return Route.get("/api/user", (request, response) -> response.contentType("application/json").send(USER));
	}

	/**
	 * Computes the 30th Fibonacci number the slow way: the CPU-heavy route.
	 * @return the {@code GET /api/compute} route
	 */
	@Bean
	Route computeRoute() {
		return Route.get("/api/compute", (request, response) -> response.send(Long.toString(fibonacci(30))));
	}

	/**
	 * Returns a Fibonacci number by plain recursion, without memoization, so that it costs
	 * about 1.6 million calls for {@code n = 30}.
	 * @param n the index, {@code fibonacci(0) = 0}
	 * @return the {@code n}th Fibonacci number
	 */
	static long fibonacci(int n) {
		return (n < 2) ? n : fibonacci(n - 1) + fibonacci(n - 2);
	}

}
