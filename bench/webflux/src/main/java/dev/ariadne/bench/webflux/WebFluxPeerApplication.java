package dev.ariadne.bench.webflux;

import reactor.core.publisher.Mono;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The sample app's three routes on Spring Boot WebFlux: run on Ariadne (this module, with the
 * starter) and on Reactor Netty (bench/webflux-netty compiles the same sources without it).
 * Start it with {@code --server.port=PORT --server.address=127.0.0.1}.
 */
@SpringBootApplication
@RestController
public class WebFluxPeerApplication {

	private static final String USER = "{\"id\":1,\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\"}";

	public static void main(String[] args) {
		SpringApplication.run(WebFluxPeerApplication.class, args);
	}

	@GetMapping(path = "/", produces = MediaType.TEXT_PLAIN_VALUE)
	Mono<String> hello() {
		return Mono.just("Hello from Ariadne!");
	}

	@GetMapping(path = "/api/user", produces = MediaType.APPLICATION_JSON_VALUE)
	Mono<String> user() {
		return Mono.just(USER);
	}

	@GetMapping(path = "/api/compute", produces = MediaType.TEXT_PLAIN_VALUE)
	Mono<String> compute() {
		return Mono.fromSupplier(() -> Long.toString(fibonacci(30)));
	}

	private static long fibonacci(int n) {
		return (n < 2) ? n : fibonacci(n - 1) + fibonacci(n - 2);
	}

}
