package dev.ariadne.it.fluxconformance;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the request side of every WebFlux application does: JSON in and out, path variables and
 * query parameters in percent-encoded UTF-8, forms, multipart uploads, request bodies of every
 * framing, response entities, cookies and request headers.
 */
interface ExchangeCases {

	/**
	 * Returns the running application the cases talk to.
	 * @return the application
	 */
	FluxApp app();

	@Test
	default void readsAndWritesJson() throws Exception {
		HttpResponse<String> response = app().send(app().request("/json/orders")
			.header("Content-Type", "application/json")
			.header("Accept", "application/json")
			.POST(BodyPublishers.ofString("{\"item\":\"th\u00e9 vert\",\"quantity\":2,\"notes\":[\"\u20ac\",\"\ud83c\udf75\"]}",
					StandardCharsets.UTF_8)));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(JsonPath.<String>read(response.body(), "$.item")).isEqualTo("th\u00e9 vert");
		assertThat(JsonPath.<Integer>read(response.body(), "$.quantity")).isEqualTo(2);
		assertThat(JsonPath.<List<String>>read(response.body(), "$.notes")).containsExactly("\u20ac", "\ud83c\udf75");
		assertThat(JsonPath.<Boolean>read(response.body(), "$.accepted")).isTrue();
	}

	@Test
	default void tagsSpringsRequestMeterWithTheStatusAndOutcomeOfAResponseLeftAtTheDefault() throws Exception {
		// the handler sets no status: Spring's observation asks the response for it afterwards
		assertThat(app().get("/users/observed-1").statusCode()).isEqualTo(200);
		Pattern success = Pattern.compile("http_server_requests_seconds_count\\{[^}]*outcome=\"SUCCESS\"[^}]*"
				+ "status=\"200\"[^}]*uri=\"/users/\\{id}\"");
		Pattern unknown = Pattern.compile("http_server_requests_seconds_count\\{[^}]*status=\"UNKNOWN\"[^}]*"
				+ "uri=\"/users/\\{id}\"");
		String scrape = "";
		// the observation stops once the response completes, which may be after the client read it
		for (int i = 0; i < 50 && !success.matcher(scrape).find(); i++) {
			Thread.sleep((i == 0) ? 0 : 100);
			scrape = app().management("/actuator/prometheus").body();
		}
		assertThat(scrape).containsPattern(success).doesNotContainPattern(unknown);
	}

	@Test
	default void answersMalformedJsonWith400AndWebFluxsErrorBody() throws Exception {
		HttpResponse<String> response = app().send(app().request("/json/orders")
			.header("Content-Type", "application/json")
			.header("Accept", "application/json")
			.POST(BodyPublishers.ofString("{\"item\":")));
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(JsonPath.<Integer>read(response.body(), "$.status")).isEqualTo(400);
		assertThat(JsonPath.<String>read(response.body(), "$.error")).isEqualTo("Bad Request");
		assertThat(JsonPath.<String>read(response.body(), "$.path")).isEqualTo("/json/orders");
		assertThat(JsonPath.<String>read(response.body(), "$.requestId")).isNotBlank();
	}

	@Test
	default void decodesPercentEncodedUtf8InPathVariablesAndQueryParameters() throws Exception {
		HttpResponse<String> response = app().get("/greet/%C3%BCber?name=J%C3%BCrgen&tag=a&tag=%F0%9F%98%80&tag=b%20c"
				+ "&plus=1+2%2B3", "Accept", "application/json");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(JsonPath.<String>read(response.body(), "$.path")).isEqualTo("\u00fcber");
		assertThat(JsonPath.<String>read(response.body(), "$.name")).isEqualTo("J\u00fcrgen");
		assertThat(JsonPath.<List<String>>read(response.body(), "$.tag")).containsExactly("a", "\ud83d\ude00", "b c");
		// WebFlux decodes a query as a form does: + is a space, %2B a plus
		assertThat(JsonPath.<String>read(response.body(), "$.plus")).isEqualTo("1 2+3");
	}

	@Test
	default void readsUrlEncodedFormsInAnnotatedAndFunctionalHandlers() throws Exception {
		for (String path : List.of("/form", "/fn/form")) {
			HttpResponse<String> response = app().send(app().request(path)
				.header("Content-Type", "application/x-www-form-urlencoded")
				.header("Accept", "application/json")
				.POST(BodyPublishers.ofString("name=Ada+Lovelace&color=red&color=gr%C3%BCn&sum=1%2B1&empty=")));
			assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
			assertThat(JsonPath.<List<String>>read(response.body(), "$.name")).as(path).containsExactly("Ada Lovelace");
			assertThat(JsonPath.<List<String>>read(response.body(), "$.color")).as(path)
				.containsExactly("red", "gr\u00fcn");
			assertThat(JsonPath.<List<String>>read(response.body(), "$.sum")).as(path).containsExactly("1+1");
			assertThat(JsonPath.<List<String>>read(response.body(), "$.empty")).as(path).containsExactly("");
		}
	}

	@Test
	default void receivesAMegabyteMultipartUploadIntact() throws Exception {
		byte[] content = new byte[1024 * 1024];
		new Random(16).nextBytes(content);
		String boundary = "flux-conformance-4b1d";
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"title\"\r\n"
				+ "Content-Type: text/plain; charset=UTF-8\r\n\r\nR\u00e9sum\u00e9\r\n")
			.getBytes(StandardCharsets.UTF_8));
		body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"data.bin\""
				+ "\r\nContent-Type: application/octet-stream\r\n\r\n")
			.getBytes(StandardCharsets.UTF_8));
		body.writeBytes(content);
		body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
		HttpResponse<String> response = app().send(app().request("/upload")
			.header("Content-Type", "multipart/form-data; boundary=" + boundary)
			.header("Accept", "application/json")
			.POST(BodyPublishers.ofByteArray(body.toByteArray())));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(JsonPath.<String>read(response.body(), "$.title")).isEqualTo("R\u00e9sum\u00e9");
		assertThat(JsonPath.<String>read(response.body(), "$.filename")).isEqualTo("data.bin");
		assertThat(JsonPath.<String>read(response.body(), "$.contentType")).isEqualTo("application/octet-stream");
		assertThat(JsonPath.<Integer>read(response.body(), "$.size")).isEqualTo(content.length);
		assertThat(JsonPath.<String>read(response.body(), "$.sha256"))
			.isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)));
	}

	@Test
	default void echoesABodySentWithContentLength() throws Exception {
		byte[] content = new byte[200_000];
		new Random(4).nextBytes(content);
		HttpResponse<byte[]> response = FluxApp.client()
			.send(app().request("/echo").POST(BodyPublishers.ofByteArray(content)).build(),
					HttpResponse.BodyHandlers.ofByteArray());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Length")).hasValue(Integer.toString(content.length));
		assertThat(response.body()).isEqualTo(content);
	}

	@Test
	default void echoesABodySentChunkedInSeveralWrites() throws Exception {
		String[] chunks = { "first chunk, ", "\u00e9\u00e8 second, ", "x".repeat(5000), ", last" };
		ByteArrayOutputStream expected = new ByteArrayOutputStream();
		try (RawClient client = app().raw()) {
			client.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
					+ "Transfer-Encoding: chunked\r\n\r\n");
			for (String chunk : chunks) {
				byte[] bytes = chunk.getBytes(StandardCharsets.UTF_8);
				expected.writeBytes(bytes);
				ByteArrayOutputStream framed = new ByteArrayOutputStream();
				framed.writeBytes((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
				framed.writeBytes(bytes);
				framed.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
				client.send(framed.toByteArray());
			}
			RawResponse response = client.send("0\r\n\r\n").read();
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).isEqualTo(expected.toByteArray());
			// the connection is still in step after the chunked request
			assertThat(client.exchange("GET /framing/mono HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status())
				.isEqualTo(200);
		}
	}

	@Test
	default void echoesEmptyPostsOnOneConnection() throws Exception {
		// the second has neither Content-Length nor Transfer-Encoding: its body is empty too
		// (RFC 9112, 6.3)
		try (RawClient client = app().raw()) {
			for (String length : List.of("Content-Length: 0\r\n", "", "Content-Length: 0\r\n")) {
				RawResponse response = client.exchange("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\n" + length + "\r\n");
				assertThat(response.status()).as(length).isEqualTo(200);
				assertThat(response.body()).as(length).isEmpty();
				assertThat(response.framing()).as(length).isNotEqualTo(RawResponse.Framing.CLOSE);
			}
		}
	}

	@Test
	default void countsATwentyMegabyteBodyStreamedThroughAFluxOfDataBuffers() throws Exception {
		long size = 20L * 1024 * 1024;
		HttpResponse<String> response = app().send(app().request("/count")
			.header("Content-Type", "application/octet-stream")
			.POST(BodyPublishers.fromPublisher(BodyPublishers.ofInputStream(() -> new InputStream() {

				private long left = size;

				@Override
				public int read() {
					return (this.left-- > 0) ? 7 : -1;
				}

				@Override
				public int read(byte[] buffer, int offset, int length) {
					if (this.left <= 0) {
						return -1;
					}
					int n = (int) Math.min(length, this.left);
					this.left -= n;
					return n;
				}

			}), size)));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo(Long.toString(size));
	}

	@Test
	default void sendsACreatedEntityWithItsLocationAndCustomHeaders() throws Exception {
		HttpResponse<String> response = app().send(app().request("/things")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"name\":\"lamp\"}")));
		assertThat(response.statusCode()).isEqualTo(201);
		assertThat(response.headers().firstValue("Location")).hasValue("/things/lamp");
		assertThat(response.headers().firstValue("X-Thing")).hasValue("lamp");
		assertThat(response.headers().allValues("X-Trace")).containsExactly("one", "two");
		assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(response.body()).isEqualTo("{\"name\":\"lamp\"}");
	}

	@Test
	default void setsSeveralCookiesAndReadsTwoFromOneCookieHeader() throws Exception {
		HttpResponse<String> set = app().get("/cookies/set");
		assertThat(set.statusCode()).isEqualTo(200);
		List<String> cookies = set.headers().allValues("Set-Cookie");
		assertThat(cookies).hasSize(2);
		assertThat(cookies.get(0)).startsWith("session=abc123")
			.contains("; Path=/", "; Max-Age=3600", "; Expires=", "; HttpOnly", "; SameSite=Strict");
		assertThat(cookies.get(1)).startsWith("theme=dark").contains("; Max-Age=2592000", "; SameSite=Lax")
			.doesNotContain("HttpOnly");
		HttpResponse<String> read = app().get("/cookies/read", "Cookie", "theme=dark; session=abc123");
		assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
		assertThat(read.body()).isEqualTo("session=abc123, theme=dark");
	}

	@Test
	default void readsAMultiValueRequestHeader() throws Exception {
		try (RawClient client = app().raw()) {
			RawResponse response = client.exchange("GET /headers/read HTTP/1.1\r\nHost: 127.0.0.1\r\n"
					+ "X-Multi: one, two\r\nX-Single: only\r\nX-Multi: three\r\nX-List: a, b\r\n"
					+ "Accept: application/json\r\n\r\n");
			assertThat(response.status()).as(response.bodyText()).isEqualTo(200);
			// each field line is one value; Spring splits a single line at its commas
			assertThat(JsonPath.<List<String>>read(response.bodyText(), "$.multi")).containsExactly("one, two",
					"three");
			assertThat(JsonPath.<List<String>>read(response.bodyText(), "$.list")).containsExactly("a", "b");
			assertThat(JsonPath.<String>read(response.bodyText(), "$.single")).isEqualTo("only");
		}
	}

}
