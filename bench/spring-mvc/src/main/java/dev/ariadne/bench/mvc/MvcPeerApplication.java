package dev.ariadne.bench.mvc;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The sample app's three routes on Spring Boot with Spring MVC on Tomcat (Boot's defaults), so
 * the benchmark compares the sample app on Ariadne with the stack a Spring user would otherwise
 * run. Start it with {@code --server.port=PORT --server.address=127.0.0.1}.
 */
@SpringBootApplication
@RestController
public class MvcPeerApplication {

	private static final String USER = "{\"id\":1,\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\"}";

	public static void main(String[] args) {
		SpringApplication.run(MvcPeerApplication.class, args);
	}

	@GetMapping(path = "/", produces = MediaType.TEXT_PLAIN_VALUE)
	String hello() {
		return "Hello from Ariadne!";
	}

	@GetMapping(path = "/api/user", produces = MediaType.APPLICATION_JSON_VALUE)
	String user() {
		return USER;
	}

	@GetMapping(path = "/api/compute", produces = MediaType.TEXT_PLAIN_VALUE)
	String compute() {
		return Long.toString(fibonacci(30));
	}

	private static long fibonacci(int n) {
		return (n < 2) ? n : fibonacci(n - 1) + fibonacci(n - 2);
	}

}
