package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Static resources from {@code classpath:/static}, served by Spring MVC's resource handler:
 * Boot's on {@code /**} with {@code Last-Modified}, the application's on {@code /assets/**}
 * with an {@code ETag} too; conditional requests, byte ranges and {@code HEAD}, in every I/O
 * model.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class StaticResourcesIT {

	/** {@code static/files/alphabet.txt}: the alphabet and a line feed, 1,000 times. */
	private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz\n".repeat(1000);

	private final IoModel model;

	private ConformanceApp app;

	StaticResourcesIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void app() {
		this.app = ConformanceApp.shared(this.model);
	}

	@Test
	void servesAResourceWithItsTypeLengthAndValidators() throws Exception {
		try (RawClient client = this.app.raw()) {
			RawResponse response = client.exchange(ConformanceApp.get("/app/assets/files/alphabet.txt", ""));
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.header("Content-Type")).startsWith("text/plain");
			assertThat(response.header("Content-Length")).isEqualTo("27000");
			assertThat(response.header("Accept-Ranges")).isEqualTo("bytes");
			assertThat(response.header("ETag")).matches("\"[0-9a-f]+-[0-9a-f]+\"");
			assertThat(response.header("Last-Modified")).endsWith(" GMT");
			assertThat(response.bodyText()).isEqualTo(ALPHABET);
		}
	}

	@Test
	void answersNotModifiedToAMatchingETagOrDate() throws Exception {
		HttpResponse<String> first = this.app.get("/assets/files/alphabet.txt");
		String etag = first.headers().firstValue("ETag").orElseThrow();
		HttpResponse<String> byTag = this.app.get("/assets/files/alphabet.txt", "If-None-Match", etag);
		assertThat(byTag.statusCode()).isEqualTo(304);
		assertThat(byTag.body()).isEmpty();
		assertThat(byTag.headers().firstValue("ETag")).hasValue(etag);
		HttpResponse<String> otherTag = this.app.get("/assets/files/alphabet.txt", "If-None-Match", "\"other\"");
		assertThat(otherTag.statusCode()).isEqualTo(200);
		String lastModified = this.app.get("/files/alphabet.txt").headers().firstValue("Last-Modified").orElseThrow();
		HttpResponse<String> byDate = this.app.get("/files/alphabet.txt", "If-Modified-Since", lastModified);
		assertThat(byDate.statusCode()).isEqualTo(304);
		assertThat(byDate.body()).isEmpty();
		HttpResponse<String> older = this.app.get("/files/alphabet.txt", "If-Modified-Since",
				"Thu, 01 Jan 1998 00:00:00 GMT");
		assertThat(older.statusCode()).isEqualTo(200);
		assertThat(older.body()).isEqualTo(ALPHABET);
	}

	@Test
	void servesByteRanges() throws Exception {
		HttpResponse<String> range = this.app.get("/files/alphabet.txt", "Range", "bytes=27-52");
		assertThat(range.statusCode()).isEqualTo(206);
		assertThat(range.headers().firstValue("Content-Range")).hasValue("bytes 27-52/27000");
		assertThat(range.body()).isEqualTo("abcdefghijklmnopqrstuvwxyz");
		HttpResponse<String> suffix = this.app.get("/files/alphabet.txt", "Range", "bytes=-27");
		assertThat(suffix.statusCode()).isEqualTo(206);
		assertThat(suffix.headers().firstValue("Content-Range")).hasValue("bytes 26973-26999/27000");
		assertThat(suffix.body()).isEqualTo("abcdefghijklmnopqrstuvwxyz\n");
		HttpResponse<String> two = this.app.get("/files/alphabet.txt", "Range", "bytes=0-0,28-28");
		assertThat(two.statusCode()).isEqualTo(206);
		assertThat(two.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("multipart/byteranges; boundary="));
		assertThat(two.body()).contains("Content-Range: bytes 0-0/27000\r\n\r\na\r\n")
			.contains("Content-Range: bytes 28-28/27000\r\n\r\nb\r\n");
		HttpResponse<String> unsatisfiable = this.app.get("/files/alphabet.txt", "Range", "bytes=30000-");
		assertThat(unsatisfiable.statusCode()).isEqualTo(416);
		assertThat(unsatisfiable.headers().firstValue("Content-Range")).hasValue("bytes */27000");
	}

	@Test
	void answersHeadWithoutABody() throws IOException {
		try (RawClient client = this.app.raw()) {
			RawResponse head = client.send("HEAD /app/files/alphabet.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
				.readHeadResponse();
			assertThat(head.status()).isEqualTo(200);
			assertThat(head.header("Content-Length")).isEqualTo("27000");
			RawResponse next = client.exchange(ConformanceApp.get("/app/files/alphabet.txt", "Range: bytes=0-2\r\n"));
			assertThat(next.status()).isEqualTo(206);
			assertThat(new String(next.body(), StandardCharsets.US_ASCII)).isEqualTo("abc");
		}
	}

	@Test
	void answersAMissingResourceWith404() throws Exception {
		assertThat(this.app.get("/assets/files/missing.txt").statusCode()).isEqualTo(404);
		assertThat(this.app.get("/files/missing.txt").statusCode()).isEqualTo(404);
	}

}
