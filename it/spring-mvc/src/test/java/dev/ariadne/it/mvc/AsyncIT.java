package dev.ariadne.it.mvc;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring MVC's async request processing on the container's {@code startAsync}, in every I/O
 * model: {@code DeferredResult} completed by another thread, its timeout and its error,
 * {@code Callable} on Spring's task executor, 100 server-sent events streamed as they are
 * sent, a {@code ResponseBodyEmitter} and a {@code StreamingResponseBody}.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class AsyncIT {

	private final IoModel model;

	private ConformanceApp app;

	AsyncIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void app() {
		this.app = ConformanceApp.shared(this.model);
		this.app.bean(Gate.class).close();
	}

	@AfterEach
	void openGate() {
		if (this.app != null) {
			this.app.bean(Gate.class).open();
		}
	}

	@Test
	void answersADeferredResultCompletedByAnotherThread() throws Exception {
		HttpResponse<String> response = this.app.get("/async/deferred?value=caf%C3%A9", "Accept", "application/json");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<String>read(response.body(), "$.value")).isEqualTo("caf\u00e9");
		assertThat(JsonPath.<String>read(response.body(), "$.thread")).isEqualTo("conformance-app-async");
	}

	@Test
	void answersADeferredResultThatTimesOutWith503() throws Exception {
		HttpResponse<String> response = this.app.get("/async/deferred-timeout", "Accept", "application/json");
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(JsonPath.<Integer>read(response.body(), "$.status")).isEqualTo(503);
		assertThat(JsonPath.<String>read(response.body(), "$.path")).isEqualTo("/app/async/deferred-timeout");
	}

	@Test
	void answersADeferredErrorThroughTheErrorPage() throws Exception {
		HttpResponse<String> response = this.app.get("/async/deferred-error", "Accept", "application/json");
		assertThat(response.statusCode()).isEqualTo(500);
		assertThat(JsonPath.<String>read(response.body(), "$.error")).isEqualTo("Internal Server Error");
		assertThat(JsonPath.<String>read(response.body(), "$.path")).isEqualTo("/app/async/deferred-error");
	}

	@Test
	void runsACallableOnSpringsTaskExecutor() throws Exception {
		HttpResponse<String> response = this.app.get("/async/callable");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).startsWith("callable on task-");
	}

	@Test
	void streamsAHundredServerSentEventsAsTheyAreSent() throws Exception {
		HttpResponse<Stream<String>> response = ConformanceApp.client()
			.send(this.app.request("/async/sse?count=100&gated=true").header("Accept", "text/event-stream").build(),
					BodyHandlers.ofLines());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/event-stream"));
		List<String> data = new ArrayList<>();
		try (Stream<String> lines = response.body()) {
			Iterator<String> events = lines.iterator();
			// the first event arrives while the application holds the other 99 back
			assertThat(nextData(events)).isEqualTo("event 0");
			this.app.bean(Gate.class).open();
			String next;
			while ((next = nextData(events)) != null) {
				data.add(next);
			}
		}
		assertThat(data).hasSize(99);
		for (int i = 1; i < 100; i++) {
			assertThat(data.get(i - 1)).isEqualTo("event " + i);
		}
	}

	private static String nextData(Iterator<String> lines) {
		while (lines.hasNext()) {
			String line = lines.next();
			if (line.startsWith("data:")) {
				return line.substring("data:".length());
			}
		}
		return null;
	}

	@Test
	void streamsAResponseBodyEmittersObjects() throws Exception {
		HttpResponse<String> response = this.app.get("/async/emitter?count=3");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n");
	}

	@Test
	void streamsAStreamingResponseBodyChunked() throws Exception {
		int size = 8 * 1024 * 1024;
		try (RawClient client = this.app.raw()) {
			RawResponse response = client.exchange(ConformanceApp.get("/app/async/stream?size=" + size, ""));
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.header("Transfer-Encoding")).isEqualTo("chunked");
			assertThat(response.body()).hasSize(size);
			for (int i = 0; i < size; i += 4099) {
				assertThat(response.body()[i]).as("byte %d", i).isEqualTo(AsyncController.pattern(i));
			}
			// the connection carries the next request
			assertThat(client.exchange(ConformanceApp.get("/app/async/callable", "")).status()).isEqualTo(200);
		}
	}

	@Test
	void streamsAStreamingResponseBodyToAClientReadingItAsAStream() throws Exception {
		HttpResponse<InputStream> response = ConformanceApp.client()
			.send(this.app.request("/async/stream?size=1000000").build(), BodyHandlers.ofInputStream());
		assertThat(response.statusCode()).isEqualTo(200);
		try (InputStream body = response.body()) {
			byte[] bytes = body.readAllBytes();
			assertThat(bytes).hasSize(1_000_000);
			assertThat(bytes[999_999]).isEqualTo(AsyncController.pattern(999_999));
		}
	}


}
