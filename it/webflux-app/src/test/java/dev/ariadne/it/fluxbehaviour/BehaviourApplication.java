package dev.ariadne.it.fluxbehaviour;

import java.time.Duration;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A WebFlux application with the classic mistakes and chores: a handler that blocks its thread
 * for a second, a light route, a server-sent event stream, a handler that calls another
 * service with {@link WebClient}, and one that counts the bytes of a streamed request body.
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

	@GetMapping("/later")
	Mono<String> later() {
		// pending for a second on a timer thread: no thread of the server should wait for it
		return Mono.delay(Duration.ofSeconds(1)).map((tick) -> "later");
	}

	@GetMapping("/where")
	Mono<String> where(ServerHttpRequest request) {
		Object exchange = ServerHttpRequestDecorator.getNativeRequest(request);
		return Mono.just(Thread.currentThread().getName() + " " + exchange.getClass().getName());
	}

	@PostMapping("/count")
	Mono<String> count(@RequestBody Flux<DataBuffer> body) {
		// streamed: each buffer is counted and released, the body is never held whole
		return body.map((buffer) -> {
			long size = buffer.readableByteCount();
			DataBufferUtils.release(buffer);
			return size;
		}).reduce(0L, Long::sum).map(String::valueOf);
	}

}
