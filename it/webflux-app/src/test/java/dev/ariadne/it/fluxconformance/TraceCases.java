package dev.ariadne.it.fluxconformance;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.exporter.FinishedSpan;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Spring's request observation does with a trace under Micrometer Tracing (Brave here):
 * an incoming W3C {@code traceparent} is continued by a server span that ends with the
 * response's status, outcome and error, the handler finds that span through the Reactor
 * context (as Micrometer's context propagation reads it), and a request that carries no trace
 * starts its own, never continuing the one a previous request left on a thread.
 */
interface TraceCases {

	/** The span id of the client's span in every {@code traceparent} sent. */
	String CLIENT_SPAN = "00f067aa0ba902b7";

	/**
	 * Returns the running application the cases talk to.
	 * @return the application
	 */
	FluxApp app();

	@Test
	default void continuesTheTraceOfAnIncomingTraceparentAndEndsItsSpanWithTheStatus() throws Exception {
		String trace = newTraceId();
		HttpResponse<String> response = app().get("/trace/facts", "traceparent", traceparent(trace));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		FinishedSpan span = serverSpan(trace);
		assertThat(span.getParentId()).isEqualTo(CLIENT_SPAN);
		assertThat(span.getKind()).isEqualTo(Span.Kind.SERVER);
		assertThat(span.getName()).isEqualTo("http get /trace/facts");
		assertThat(span.getTags()).containsEntry("status", "200")
			.containsEntry("outcome", "SUCCESS")
			.containsEntry("uri", "/trace/facts")
			.containsEntry("method", "GET");
		assertThat(span.getError()).isNull();
		// the handler finds the server span in the Reactor context, and the log's MDC with it
		String ids = trace + "/" + span.getSpanId();
		assertThat(JsonPath.<String>read(response.body(), "$.context")).isEqualTo(ids);
		assertThat(JsonPath.<String>read(response.body(), "$.contextMdc")).isEqualTo(trace);
		// on a thread of its own, without automatic propagation, nothing: never another trace
		for (String where : List.of("method", "operator")) {
			assertThat(JsonPath.<String>read(response.body(), "$." + where)).as(where).isIn("none", ids);
		}
	}

	@Test
	default void endsTheSpanOfAFailedRequestWithItsStatusAndError() throws Exception {
		String trace = newTraceId();
		HttpResponse<String> response = app().get("/errors/thrown", "Accept", "application/json", "traceparent",
				traceparent(trace));
		assertThat(response.statusCode()).isEqualTo(500);
		FinishedSpan span = serverSpan(trace);
		assertThat(span.getParentId()).isEqualTo(CLIENT_SPAN);
		assertThat(span.getTags()).containsEntry("status", "500")
			.containsEntry("outcome", "SERVER_ERROR")
			.containsEntry("uri", "/errors/thrown")
			.containsEntry("exception", "IllegalStateException");
		assertThat(span.getError()).isInstanceOf(IllegalStateException.class);
	}

	@Test
	default void startsANewTraceForARequestWithoutOneOnTheSameConnection() throws Exception {
		String trace = newTraceId();
		try (RawClient client = app().raw()) {
			RawResponse traced = client.exchange("GET /trace/facts HTTP/1.1\r\nHost: 127.0.0.1\r\ntraceparent: "
					+ traceparent(trace) + "\r\n\r\n");
			assertThat(JsonPath.<String>read(traced.bodyText(), "$.context")).startsWith(trace + "/");
			for (int i = 0; i < 3; i++) {
				RawResponse plain = client.exchange("GET /trace/facts HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
				assertThat(plain.status()).isEqualTo(200);
				String context = JsonPath.read(plain.bodyText(), "$.context");
				assertThat(context).isNotEqualTo("none").doesNotStartWith(trace);
				assertThat(JsonPath.<String>read(plain.bodyText(), "$.contextMdc")).isEqualTo(context.split("/")[0]);
				assertThat(JsonPath.<String>read(plain.bodyText(), "$.method")).isIn("none", context);
			}
		}
	}

	/**
	 * Returns the server span of a trace, waiting for it: the observation ends once the response
	 * completes, which may be after the client read it.
	 * @param trace the trace's id
	 * @return the one server span of the trace
	 */
	default FinishedSpan serverSpan(String trace) throws InterruptedException {
		List<FinishedSpan> spans = List.of();
		for (int i = 0; i < 100 && spans.isEmpty(); i++) {
			Thread.sleep((i == 0) ? 0 : 50);
			spans = app().spans().spans(trace).stream().filter((span) -> span.getKind() == Span.Kind.SERVER).toList();
		}
		assertThat(spans).as("server spans of trace " + trace).hasSize(1);
		return spans.get(0);
	}

	/**
	 * Returns a W3C {@code traceparent} of the client's span in a trace, sampled.
	 * @param trace the trace's id
	 * @return the header's value
	 */
	static String traceparent(String trace) {
		return "00-" + trace + "-" + CLIENT_SPAN + "-01";
	}

	/**
	 * Returns a new random trace id.
	 * @return 32 hex digits
	 */
	static String newTraceId() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return String.format("%016x%016x", random.nextLong() | 1L, random.nextLong());
	}

}
