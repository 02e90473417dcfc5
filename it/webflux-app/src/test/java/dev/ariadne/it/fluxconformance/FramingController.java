package dev.ariadne.it.fluxconformance;

import java.time.Duration;
import java.util.Map;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

/**
 * Answers whose framing matters (a body of known length, one of unknown length, none at all)
 * and answers that fail, before the response is committed or after.
 */
@RestController
class FramingController {

	private final StreamProbe probe;

	FramingController(StreamProbe probe) {
		this.probe = probe;
	}

	/** What {@code /framing/flux} sends, element by element. */
	static final String[] PARTS = { "alpha\n", "beta\n", "gamma\n", "delta\n", "epsilon\n" };

	/** The entity tag of {@code /framing/versioned}. */
	static final String ETAG = "\"v7\"";

	@GetMapping("/framing/mono")
	Mono<String> mono() {
		return Mono.just("one answer of known length");
	}

	@GetMapping("/framing/flux")
	Flux<String> flux() {
		// spaced out, so that the parts leave one by one and the length is never known up front
		return Flux.fromArray(PARTS).delayElements(Duration.ofMillis(5));
	}

	@GetMapping("/framing/no-content")
	Mono<ResponseEntity<Void>> noContent() {
		return Mono.just(ResponseEntity.noContent().header("X-Empty", "yes").build());
	}

	@GetMapping("/framing/versioned")
	Mono<String> versioned(ServerWebExchange exchange) {
		if (exchange.checkNotModified(ETAG)) {
			return Mono.empty();
		}
		return Mono.just("version 7");
	}

	@GetMapping("/errors/conflict")
	Mono<String> conflict() {
		throw new ResponseStatusException(HttpStatus.CONFLICT, "already there");
	}

	@GetMapping("/errors/teapot/{kind}")
	Mono<String> teapot() {
		throw new ResponseStatusException(HttpStatus.I_AM_A_TEAPOT, "short and stout");
	}

	@GetMapping("/errors/thrown")
	Mono<String> thrown() {
		throw new IllegalStateException("thrown by the handler");
	}

	@GetMapping("/errors/mono")
	Mono<String> monoError() {
		return Mono.error(new IllegalStateException("signalled by the Mono"));
	}

	@GetMapping(path = "/errors/after-commit", produces = MediaType.APPLICATION_NDJSON_VALUE)
	Flux<Map<String, Integer>> afterCommit() {
		// a streaming type, so the first element is flushed (the response committed); the error
		// comes once the test has read it and opened the gate
		this.probe.reset();
		return Flux.concat(Mono.just(Map.of("part", 1)),
				this.probe.gate().then(Mono.error(new IllegalStateException("failed mid-stream"))));
	}

}
