package dev.ariadne.it.fluxconformance;

import java.util.Map;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The WebFlux conformance application: what WebFlux applications commonly do, with annotated
 * controllers ({@link ExchangeController}, {@link FramingController}, {@link StreamController},
 * {@link FactsController}) and a functional {@link RouterFunction}, and nothing in it that knows
 * about Ariadne.
 */
@SpringBootApplication
public class ConformanceApplication {

	@Bean
	StreamProbe streamProbe() {
		return new StreamProbe();
	}

	@Bean
	SpanRecorder spanRecorder() {
		return new SpanRecorder();
	}

	@Bean
	RouterFunction<ServerResponse> functionalRoutes() {
		return RouterFunctions.route()
			.GET("/fn/items/{id}",
					(request) -> ServerResponse.ok()
						.contentType(MediaType.APPLICATION_JSON)
						.bodyValue(Map.of("item", request.pathVariable("id"), "style", "functional")))
			.POST("/fn/form",
					(request) -> request.formData()
						.flatMap((form) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(form)))
			.build();
	}

}
