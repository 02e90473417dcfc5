package dev.ariadne.it.webflux;

import java.util.Map;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * A WebFlux application as its team writes one, with an annotated controller and a functional
 * route: nothing in it knows about Ariadne.
 */
@SpringBootApplication
@RestController
public class WebFluxApplication {

	@GetMapping("/hello/{name}")
	Mono<Map<String, String>> hello(@PathVariable String name) {
		return Mono.just(Map.of("hello", name));
	}

	@GetMapping("/connection")
	Mono<String> connection(ServerHttpRequest request) {
		return Mono.just(request.getURI().getScheme());
	}

	@PostMapping("/echo")
	Flux<DataBuffer> echo(@RequestBody Flux<DataBuffer> body) {
		return body;
	}

	@Bean
	RouterFunction<ServerResponse> items() {
		return RouterFunctions.route()
			.GET("/items/{id}", (request) -> ServerResponse.ok().bodyValue("item " + request.pathVariable("id")))
			.build();
	}

}
