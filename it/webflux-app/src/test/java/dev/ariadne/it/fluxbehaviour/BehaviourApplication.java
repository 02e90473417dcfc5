package dev.ariadne.it.fluxbehaviour;

import java.time.Duration;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A WebFlux application with the classic mistakes and chores: a handler that blocks its thread
 * for a second, a light route, a server-sent event stream, and a handler that calls another
 * service with {@link WebClient}.
 */
@SpringBootApplication
@RestController
public class BehaviourApplication {

	/** Size of one server-sent event's data, so that a stream of them outgrows a small heap. */
	static final int EVENT_SIZE = 100 * 1024;

	private final ApplicationContext context;

	BehaviourApplication(ApplicationContext context) {
		this.context = context;
	}

	@GetMapping("/block")
	Mono<String> block() throws InterruptedException {
		// the mistake: blocking the thread that runs the handler
		Thread.sleep(1000);
		return Mono.just("blocked");
	}

	@GetMapping("/light")
	Mono<String> light() {
		return Mono.just("light");
	}

	@GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	Flux<ServerSentEvent<String>> events() {
		String data = "x".repeat(EVENT_SIZE);
		return Flux.range(0, 1000)
			.delayElements(Duration.ofMillis(1))
			.map((i) -> ServerSentEvent.builder(data).id(Integer.toString(i)).build());
	}

	@GetMapping("/proxy")
	Mono<String> proxy() {
		int port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		return WebClient.create("http://127.0.0.1:" + port)
			.get()
			.uri("/light")
			.retrieve()
			.bodyToMono(String.class)
			.map((body) -> "proxied " + body);
	}

}
