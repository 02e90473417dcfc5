package dev.ariadne.it.fluxconformance;

import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code ServerHttpRequest} tells a WebFlux handler of its request: the URI built from the
 * {@code Host} header with its encoding intact, the path, the method, both ends of the
 * connection, and no TLS on plaintext.
 */
interface RequestFactsCases {

	/**
	 * Returns the running application the cases talk to.
	 * @return the application
	 */
	FluxApp app();

	@Test
	default void buildsTheUriFromTheHostHeaderWithItsEncodingIntact() throws Exception {
		String target = "/facts/caf%C3%A9/a%20b?q=%C3%BCber+alles&r=x%2By&r=%26";
		try (RawClient client = app().raw()) {
			RawResponse response = client.exchange("GET " + target + " HTTP/1.1\r\nHost: conformance.test:8123\r\n"
					+ "Accept: application/json\r\n\r\n");
			assertThat(response.status()).as(response.bodyText()).isEqualTo(200);
			String facts = response.bodyText();
			assertThat(JsonPath.<String>read(facts, "$.uri")).isEqualTo("http://conformance.test:8123" + target);
			assertThat(JsonPath.<String>read(facts, "$.scheme")).isEqualTo("http");
			assertThat(JsonPath.<String>read(facts, "$.host")).isEqualTo("conformance.test");
			assertThat(JsonPath.<Integer>read(facts, "$.port")).isEqualTo(8123);
			assertThat(JsonPath.<String>read(facts, "$.rawPath")).isEqualTo("/facts/caf%C3%A9/a%20b");
			assertThat(JsonPath.<String>read(facts, "$.rawQuery")).isEqualTo("q=%C3%BCber+alles&r=x%2By&r=%26");
			assertThat(JsonPath.<String>read(facts, "$.path")).isEqualTo("/facts/caf%C3%A9/a%20b");
			assertThat(JsonPath.<String>read(facts, "$.sslInfo")).isEqualTo("none");
		}
	}

	@Test
	default void buildsTheUriWithoutAPortWhenTheHostHeaderHasNone() throws Exception {
		try (RawClient client = app().raw()) {
			RawResponse response = client.exchange("GET /facts/plain HTTP/1.1\r\nHost: conformance.test\r\n"
					+ "Accept: application/json\r\n\r\n");
			assertThat(response.status()).as(response.bodyText()).isEqualTo(200);
			assertThat(JsonPath.<String>read(response.bodyText(), "$.uri")).isEqualTo("http://conformance.test/facts/plain");
			assertThat(JsonPath.<Integer>read(response.bodyText(), "$.port")).isEqualTo(-1);
		}
	}

	@Test
	default void tellsBothEndsOfTheConnection() throws Exception {
		try (RawClient client = app().raw()) {
			RawResponse response = client.exchange("GET /facts/ends HTTP/1.1\r\nHost: 127.0.0.1\r\n"
					+ "Accept: application/json\r\n\r\n");
			assertThat(response.status()).isEqualTo(200);
			String facts = response.bodyText();
			assertThat(JsonPath.<String>read(facts, "$.remoteAddress")).isEqualTo("127.0.0.1");
			assertThat(JsonPath.<Integer>read(facts, "$.remotePort")).isEqualTo(client.localPort());
			assertThat(JsonPath.<String>read(facts, "$.localAddress")).isEqualTo("127.0.0.1");
			assertThat(JsonPath.<Integer>read(facts, "$.localPort")).isEqualTo(app().port());
		}
	}

	@Test
	default void tellsEveryMethod() throws Exception {
		for (String method : List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS")) {
			HttpResponse<String> response = app().send(app().request("/facts/method")
				.header("Accept", "application/json")
				.method(method, method.equals("GET") ? BodyPublishers.noBody() : BodyPublishers.ofString("x")));
			assertThat(response.statusCode()).as(method + ": " + response.body()).isEqualTo(200);
			assertThat(JsonPath.<String>read(response.body(), "$.method")).isEqualTo(method);
			assertThat(JsonPath.<String>read(response.body(), "$.path")).isEqualTo("/facts/method");
		}
	}

}
