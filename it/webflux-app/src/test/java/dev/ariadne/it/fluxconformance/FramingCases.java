package dev.ariadne.it.fluxconformance;

import java.io.IOException;

import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.RawResponse.Framing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How WebFlux answers go on the wire, read by a strict raw client: a {@code Mono} with its
 * length, a {@code Flux} chunked, {@code HEAD}, 204 and 304 without a body, connections kept
 * alive and pipelined, and a chunked request body with a bare LF in its framing refused.
 */
interface FramingCases {

	/**
	 * Returns the running application the cases talk to.
	 * @return the application
	 */
	FluxApp app();

	/** The head of a chunked request to the echo endpoint, which reads the whole body. */
	String CHUNKED_ECHO = "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
			+ "Transfer-Encoding: chunked\r\n\r\n";

	private static String get(String target) {
		return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
	}

	@Test
	default void sendsAMonoWithItsContentLength() throws IOException {
		try (RawClient client = app().raw()) {
			RawResponse response = client.exchange(get("/framing/mono"));
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.framing()).isEqualTo(Framing.LENGTH);
			assertThat(response.header("Content-Length")).isEqualTo("26");
			assertThat(response.bodyText()).isEqualTo("one answer of known length");
		}
	}

	@Test
	default void sendsAFluxOfUnknownLengthChunkedAndWhole() throws IOException {
		try (RawClient client = app().raw()) {
			RawResponse response = client.exchange(get("/framing/flux"));
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.framing()).isEqualTo(Framing.CHUNKED);
			assertThat(response.header("Content-Type")).startsWith("text/plain");
			// how the parts are cut into chunks is the server's choice: Reactor Netty sends one
			// chunk per part, a servlet container holds them in its buffer until it fills or ends
			assertThat(response.bodyText()).isEqualTo(String.join("", FramingController.PARTS));
		}
	}

	@Test
	default void answersHeadWithTheHeadersOfGetAndNoBody() throws IOException {
		try (RawClient client = app().raw()) {
			RawResponse get = client.exchange(get("/framing/mono"));
			RawResponse head = client.send("HEAD /framing/mono HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
				.readHeadResponse();
			assertThat(head.status()).isEqualTo(200);
			assertThat(head.header("Content-Type")).isEqualTo(get.header("Content-Type"));
			assertThat(head.header("Content-Length")).isEqualTo(get.header("Content-Length"));
			assertThat(head.body()).isEmpty();
			RawResponse headOfFlux = client.send("HEAD /framing/flux HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
				.readHeadResponse();
			assertThat(headOfFlux.status()).isEqualTo(200);
			assertThat(headOfFlux.header("Content-Type")).startsWith("text/plain");
			// the connection is in step: no body bytes were sent after either head
			RawResponse next = client.exchange(get("/framing/mono"));
			assertThat(next.status()).isEqualTo(200);
			assertThat(next.bodyText()).isEqualTo(get.bodyText());
			assertThat(client.hasBytesWaiting()).isFalse();
		}
	}

	@Test
	default void sendsNoBodyWith204Or304() throws IOException {
		try (RawClient client = app().raw()) {
			RawResponse noContent = client.exchange(get("/framing/no-content"));
			assertThat(noContent.status()).isEqualTo(204);
			assertThat(noContent.header("X-Empty")).isEqualTo("yes");
			assertThat(noContent.header("Content-Length")).isNull();
			RawResponse full = client.exchange(get("/framing/versioned"));
			assertThat(full.status()).isEqualTo(200);
			assertThat(full.header("ETag")).isEqualTo(FramingController.ETAG);
			assertThat(full.bodyText()).isEqualTo("version 7");
			RawResponse notModified = client.exchange("GET /framing/versioned HTTP/1.1\r\nHost: 127.0.0.1\r\n"
					+ "If-None-Match: " + FramingController.ETAG + "\r\n\r\n");
			assertThat(notModified.status()).isEqualTo(304);
			assertThat(notModified.header("ETag")).isEqualTo(FramingController.ETAG);
			assertThat(notModified.body()).isEmpty();
			// nothing followed either answer: the next response is read as one
			assertThat(client.exchange(get("/framing/mono")).status()).isEqualTo(200);
		}
	}

	@Test
	default void servesThreeRequestsOnOneKeptAliveConnection() throws IOException {
		try (RawClient client = app().raw()) {
			for (String path : new String[] { "/framing/mono", "/framing/flux", "/users/3" }) {
				RawResponse response = client.exchange(get(path));
				assertThat(response.status()).as(path).isEqualTo(200);
				assertThat(response.announcesClose()).as(path).isFalse();
			}
		}
	}

	@ParameterizedTest(name = "{0} -> 400")
	@MethodSource("dev.ariadne.AbstractProtocolIT#bareLfInChunkedFraming")
	default void refusesABareLfInChunkedFramingWith400AndCloses(String description, String body, String reason)
			throws IOException {
		try (RawClient client = app().raw()) {
			RawResponse response = client.exchange(CHUNKED_ECHO + body);
			assertThat(response.status()).as("%s", response).isEqualTo(400);
			assertThat(response.bodyText()).doesNotContain("hello");
			assertThat(response.announcesClose()).as("%s", response).isTrue();
			client.expectClosed();
		}
	}

	@Test
	default void answersTwoPipelinedRequestsInOrder() throws IOException {
		try (RawClient client = app().raw()) {
			client.send(get("/framing/flux") + get("/users/pipelined"));
			RawResponse first = client.read();
			RawResponse second = client.read();
			assertThat(first.status()).isEqualTo(200);
			assertThat(first.bodyText()).isEqualTo(String.join("", FramingController.PARTS));
			assertThat(second.status()).isEqualTo(200);
			assertThat(second.bodyText()).isEqualTo("{\"id\":\"pipelined\"}");
		}
	}

}
