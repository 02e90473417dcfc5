package dev.ariadne.sample;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The seed's workload as a plain Spring MVC controller: a light text route, a light JSON route
 * and a CPU-heavy route. Nothing here knows about Ariadne; the starter serves it.
 */
@RestController
public class SampleController {

	private static final String USER = "{\"id\":1,\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\"}";

	/**
	 * Greets: the lightest route.
	 * @return the greeting
	 */
	@GetMapping(path = "/", produces = MediaType.TEXT_PLAIN_VALUE)
	public String hello() {
		return "Hello from Ariadne!";
	}

	/**
	 * Answers a fixed user as JSON: a light route.
	 * @return the user
	 */
	@GetMapping(path = "/api/user", produces = MediaType.APPLICATION_JSON_VALUE)
	public String user() {
		return USER;
	}

	/**
	 * Computes the 30th Fibonacci number the slow way: the CPU-heavy route.
	 * @return {@code 832040}
	 */
	@GetMapping(path = "/api/compute", produces = MediaType.TEXT_PLAIN_VALUE)
	public String compute() {
		return Long.toString(fibonacci(30));
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
