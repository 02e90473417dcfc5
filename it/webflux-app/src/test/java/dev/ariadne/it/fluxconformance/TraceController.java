package dev.ariadne.it.fluxconformance;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.slf4j.MDC;
import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Tells what a handler sees of its request's trace, as {@code traceId/spanId} of
 * {@link Tracer#currentSpan()} (or {@code none}) and the log's MDC {@code traceId}: in the
 * handler method itself, with the thread locals set from the Reactor context as Micrometer's
 * context propagation does it by hand, in an operator on another thread, and once the request
 * body has been read.
 */
@RestController
class TraceController {

	private static final ContextSnapshotFactory SNAPSHOTS = ContextSnapshotFactory.builder().build();

	private final Tracer tracer;

	TraceController(Tracer tracer) {
		this.tracer = tracer;
	}

	@GetMapping("/trace/facts")
	Mono<Map<String, String>> facts() {
		Map<String, String> facts = new LinkedHashMap<>();
		seen(facts, "method");
		return Mono.deferContextual((context) -> {
			try (ContextSnapshot.Scope scope = SNAPSHOTS.setThreadLocalsFrom(context)) {
				seen(facts, "context");
			}
			return Mono.just(facts);
		}).delayElement(Duration.ofMillis(5)).doOnNext((f) -> seen(f, "operator"));
	}

	@PostMapping("/trace/body")
	Mono<Map<String, String>> body(@RequestBody Mono<String> body) {
		return body.map((text) -> {
			Map<String, String> facts = new LinkedHashMap<>();
			facts.put("length", Integer.toString(text.length()));
			seen(facts, "body");
			return facts;
		});
	}

	private void seen(Map<String, String> facts, String where) {
		Span span = this.tracer.currentSpan();
		facts.put(where, (span != null) ? span.context().traceId() + "/" + span.context().spanId() : "none");
		facts.put(where + "Mdc", String.valueOf(MDC.get("traceId")));
	}

}
