package dev.ariadne.it.fluxconformance;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.RawClient;
import dev.ariadne.RawClient.IncompleteResponseException;
import dev.ariadne.RawResponse;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * How WebFlux answers what goes wrong: no route, a wrong method, an exception with a status,
 * an exception or error signal without one, and an error after the response was committed.
 */
interface ErrorCases {

	/**
	 * Returns the running application the cases talk to.
	 * @return the application
	 */
	FluxApp app();

	@Test
	default void answers404ForAnUnknownPath() throws Exception {
		HttpResponse<String> response = app().get("/no/such/thing", "Accept", "application/json");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(JsonPath.<String>read(response.body(), "$.path")).isEqualTo("/no/such/thing");
		assertThat(JsonPath.<Integer>read(response.body(), "$.status")).isEqualTo(404);
	}

	@Test
	default void answers405ForAMethodTheRouteDoesNotTake() throws Exception {
		HttpResponse<String> response = app().send(app().request("/framing/mono")
			.header("Accept", "application/json")
			.method("DELETE", BodyPublishers.noBody()));
		assertThat(response.statusCode()).isEqualTo(405);
		assertThat(JsonPath.<Integer>read(response.body(), "$.status")).isEqualTo(405);
		assertThat(JsonPath.<String>read(response.body(), "$.path")).isEqualTo("/framing/mono");
		// Boot's error handler renders the body and drops the exception's Allow header, on
		// Reactor Netty as well; a server that sends one must name what the route takes
		response.headers()
			.firstValue("Allow")
			.ifPresent((allow) -> assertThat(allow.split(",\\s*")).contains("GET").doesNotContain("DELETE"));
		// a functional route that takes no POST does not match at all
		HttpResponse<String> functional = app().send(app().request("/fn/items/7")
			.header("Accept", "application/json")
			.POST(BodyPublishers.ofString("{}")));
		assertThat(functional.statusCode()).isEqualTo(404);
	}

	@Test
	default void answersAResponseStatusExceptionWithItsStatus() throws Exception {
		HttpResponse<String> response = app().get("/errors/conflict", "Accept", "application/json");
		assertThat(response.statusCode()).isEqualTo(409);
		assertThat(JsonPath.<String>read(response.body(), "$.error")).isEqualTo("Conflict");
		assertThat(JsonPath.<String>read(response.body(), "$.path")).isEqualTo("/errors/conflict");
	}

	@Test
	default void answersAThrownExceptionWith500AndWebFluxsErrorBody() throws Exception {
		HttpResponse<String> response = app().get("/errors/thrown", "Accept", "application/json");
		assertThat(response.statusCode()).isEqualTo(500);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(JsonPath.<Integer>read(response.body(), "$.status")).isEqualTo(500);
		assertThat(JsonPath.<String>read(response.body(), "$.error")).isEqualTo("Internal Server Error");
		assertThat(JsonPath.<String>read(response.body(), "$.path")).isEqualTo("/errors/thrown");
		assertThat(response.body()).doesNotContain("thrown by the handler");
	}

	@Test
	default void answersAMonoErrorWith500() throws Exception {
		HttpResponse<String> response = app().get("/errors/mono", "Accept", "application/json");
		assertThat(response.statusCode()).isEqualTo(500);
		assertThat(JsonPath.<String>read(response.body(), "$.path")).isEqualTo("/errors/mono");
	}

	@Test
	default void endsAStreamThatFailsAfterCommitIncompleteAndClosesTheConnection() throws Exception {
		try (RawClient client = app().raw()) {
			client.send("GET /errors/after-commit HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
			String first = new String(client.peek(40), StandardCharsets.ISO_8859_1);
			assertThat(first).startsWith("HTTP/1.1 200 ");
			// the first element is on its way, the response committed: now the stream fails
			app().probe().open();
			IncompleteResponseException incomplete = catchThrowableOfType(IncompleteResponseException.class,
					client::read);
			assertThat(incomplete).as("a failed stream must not end as if complete").isNotNull();
			RawResponse partial = incomplete.partial();
			assertThat(partial.status()).isEqualTo(200);
			assertThat(partial.framing()).isEqualTo(RawResponse.Framing.CHUNKED);
			assertThat(partial.bodyText()).isEqualTo("{\"part\":1}\n");
		}
		// and the server serves the next client
		assertThat(app().get("/framing/mono").statusCode()).isEqualTo(200);
	}

}
