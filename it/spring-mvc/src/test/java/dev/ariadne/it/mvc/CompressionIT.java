package dev.ariadne.it.mvc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;

import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring MVC application with {@code server.compression.enabled=true}, in every I/O model:
 * bodies Spring MVC writes without a length (a {@code StreamingResponseBody}, JSON) are judged
 * as Tomcat and Jetty judge them (flushed or large: compressed; ended short: plain with their
 * length), a short one with its length is not compressed, a static resource keeps working
 * conditional requests and ranges, and a {@code HEAD} says what a {@code GET} would get.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class CompressionIT {

	private static ConformanceApp app;

	private final IoModel model;

	CompressionIT(IoModel model) {
		this.model = model;
	}

	@BeforeParameterizedClassInvocation
	static void start(IoModel model) {
		app = ConformanceApp.start(model, "server.compression.enabled=true",
				"server.compression.mime-types=text/plain,application/json");
	}

	@AfterParameterizedClassInvocation
	static void stop() {
		if (app != null) {
			app.close();
			app = null;
		}
	}

	@Test
	void compressesAStreamingResponseBodyOfUnknownLength() throws Exception {
		assertThat(app.model()).isEqualTo(this.model);
		HttpResponse<byte[]> gzipped = send("GET", "/compression/stream?size=200000", "gzip");
		assertThat(gzipped.statusCode()).isEqualTo(200);
		assertThat(gzipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
		assertThat(gzipped.headers().allValues("Vary")).contains("Accept-Encoding");
		assertThat(gzipped.body().length).isLessThan(200000 / 4);
		assertThat(gunzip(gzipped.body())).isEqualTo(CompressionController.text(200000));
		HttpResponse<byte[]> plain = send("GET", "/compression/stream?size=200000", null);
		assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
		assertThat(plain.headers().allValues("Vary")).as("another client would get gzip").contains("Accept-Encoding");
		assertThat(new String(plain.body(), StandardCharsets.US_ASCII)).isEqualTo(CompressionController.text(200000));
		HttpResponse<byte[]> head = send("HEAD", "/compression/stream?size=200000", "gzip");
		assertThat(head.headers().firstValue("Content-Encoding")).hasValue("gzip");
		assertThat(head.body()).isEmpty();
	}

	@Test
	void judgesJsonWrittenWithoutALengthByItsSize() throws Exception {
		HttpResponse<byte[]> large = send("GET", "/compression/items?count=500", "gzip");
		assertThat(large.headers().firstValue("Content-Encoding")).hasValue("gzip");
		String json = new String(send("GET", "/compression/items?count=500", null).body(), StandardCharsets.UTF_8);
		assertThat(gunzip(large.body())).isEqualTo(json).startsWith("[{").contains("item number 499");
		// Spring MVC no longer flushes a converter's output: a short body ends in the container's
		// buffer and is judged by its size, as on Tomcat and Jetty
		HttpResponse<byte[]> small = send("GET", "/compression/items?count=1", "gzip");
		assertThat(small.headers().firstValue("Content-Encoding")).isEmpty();
		assertThat(small.headers().firstValue("Content-Length")).hasValue(String.valueOf(small.body().length));
		assertThat(new String(small.body(), StandardCharsets.UTF_8)).contains("item number 0");
	}

	@Test
	void leavesAShortBodyOfKnownLengthPlain() throws Exception {
		HttpResponse<byte[]> word = send("GET", "/compression/word", "gzip");
		assertThat(word.headers().firstValue("Content-Encoding")).isEmpty();
		assertThat(word.headers().firstValue("Content-Length")).hasValue("12");
		assertThat(new String(word.body(), StandardCharsets.US_ASCII)).isEqualTo("compressible");
	}

	@Test
	void keepsConditionalRequestsAndRangesOfAStaticResourceWorking() throws Exception {
		HttpResponse<byte[]> file = send("GET", "/assets/files/alphabet.txt", "gzip");
		assertThat(file.headers().firstValue("Content-Encoding")).hasValue("gzip");
		assertThat(gunzip(file.body())).isEqualTo("abcdefghijklmnopqrstuvwxyz\n".repeat(1000));
		String etag = file.headers().firstValue("ETag").orElseThrow();
		assertThat(etag).as("the compressed bytes are not the file's").startsWith("W/\"");
		HttpResponse<byte[]> notModified = send(ConformanceApp.client(),
				app.request("/assets/files/alphabet.txt").header("Accept-Encoding", "gzip").header("If-None-Match", etag));
		assertThat(notModified.statusCode()).isEqualTo(304);
		HttpResponse<byte[]> range = send(ConformanceApp.client(),
				app.request("/assets/files/alphabet.txt").header("Accept-Encoding", "gzip").header("Range", "bytes=0-25"));
		assertThat(range.statusCode()).isEqualTo(206);
		assertThat(range.headers().firstValue("Content-Encoding")).as("a range of the file's own bytes").isEmpty();
		assertThat(new String(range.body(), StandardCharsets.US_ASCII)).isEqualTo("abcdefghijklmnopqrstuvwxyz");
	}

	private static HttpResponse<byte[]> send(String method, String path, String acceptEncoding)
			throws IOException, InterruptedException {
		HttpRequest.Builder request = app.request(path).method(method, HttpRequest.BodyPublishers.noBody());
		if (acceptEncoding != null) {
			request.header("Accept-Encoding", acceptEncoding);
		}
		return send(ConformanceApp.client(), request);
	}

	private static HttpResponse<byte[]> send(java.net.http.HttpClient client, HttpRequest.Builder request)
			throws IOException, InterruptedException {
		return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
	}

	private static String gunzip(byte[] bytes) throws IOException {
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
