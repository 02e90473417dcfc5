package dev.ariadne.it.fluxconformance;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.server.IoModel;
import io.micrometer.tracing.exporter.FinishedSpan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Hooks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The trace cases with Reactor's automatic context propagation on
 * ({@code spring.reactor.context-propagation=auto}, how a WebFlux application gets its trace
 * into every log line), on Reactor Netty and on Ariadne in every I/O model: the handler method,
 * an operator on another thread and the operator that reads the request body (delivered by
 * the server's own threads) all see the request's server span as {@code Tracer.currentSpan()}
 * and in the MDC, and no thread keeps it for the next request.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = { "reactor-netty", "event-loop", "blocking", "virtual-threads" })
class AutomaticTracePropagationIT implements TraceCases {

	private static final String AUTO = "spring.reactor.context-propagation=auto";

	private static FluxApp app;

	private final String server;

	AutomaticTracePropagationIT(String server) {
		this.server = server;
	}

	@BeforeParameterizedClassInvocation
	static void start(String server) {
		app = server.equals("reactor-netty") ? FluxApp.onReactorNetty(AUTO) : FluxApp.onAriadne(IoModel.fromValue(server), AUTO);
	}

	@AfterParameterizedClassInvocation
	static void stop() {
		if (app != null) {
			app.close();
			app = null;
		}
		// Boot turns it on for the whole JVM and leaves it on: the other suites run without it
		Hooks.disableAutomaticContextPropagation();
	}

	@Override
	public FluxApp app() {
		assertThat(app.name()).isEqualTo(this.server);
		return app;
	}

	@Test
	void showsTheServerSpanToTheHandlerMethodAndItsOperators() throws Exception {
		String trace = TraceCases.newTraceId();
		HttpResponse<String> response = app().get("/trace/facts", "traceparent", TraceCases.traceparent(trace));
		assertThat(response.statusCode()).isEqualTo(200);
		FinishedSpan span = serverSpan(trace);
		for (String where : List.of("method", "context", "operator")) {
			assertThat(JsonPath.<String>read(response.body(), "$." + where)).as(where)
				.isEqualTo(trace + "/" + span.getSpanId());
			assertThat(JsonPath.<String>read(response.body(), "$." + where + "Mdc")).as(where).isEqualTo(trace);
		}
	}

	@Test
	void showsTheServerSpanToTheOperatorThatReadsTheRequestBody() throws Exception {
		// larger than the input buffer read before dispatch: the server's threads deliver the rest
		String content = "x".repeat(256 * 1024);
		String trace = TraceCases.newTraceId();
		HttpResponse<String> response = app().send(app().request("/trace/body")
			.header("traceparent", TraceCases.traceparent(trace))
			.header("Content-Type", "text/plain")
			.POST(BodyPublishers.ofString(content)));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(JsonPath.<String>read(response.body(), "$.length")).isEqualTo(Integer.toString(content.length()));
		FinishedSpan span = serverSpan(trace);
		assertThat(span.getTags()).containsEntry("status", "200").containsEntry("uri", "/trace/body");
		assertThat(JsonPath.<String>read(response.body(), "$.body")).isEqualTo(trace + "/" + span.getSpanId());
		assertThat(JsonPath.<String>read(response.body(), "$.bodyMdc")).isEqualTo(trace);
	}

}
