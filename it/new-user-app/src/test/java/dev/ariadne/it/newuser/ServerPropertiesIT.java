package dev.ariadne.it.newuser;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's {@code server.*} properties, honoured as Tomcat and Jetty honour them: compression,
 * the server header, the context path and the error pages.
 */
class ServerPropertiesIT {

	private static ConfigurableApplicationContext context;

	private static int port;

	private final HttpClient client = HttpClient.newHttpClient();

	@BeforeAll
	static void start() {
		context = SpringApplication.run(NewUserApplication.class, "--server.port=0",
				"--server.servlet.context-path=/shop", "--server.compression.enabled=true",
				"--server.compression.min-response-size=1KB", "--server.server-header=Shop/1.0",
				"--management.server.port=0");
		port = ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@AfterAll
	static void stop() {
		context.close();
	}

	@Test
	void compressesBodiesAboveTheMinimumForClientsThatAcceptGzip() throws Exception {
		HttpResponse<byte[]> large = get("/shop/text/5000", "Accept-Encoding", "gzip");
		assertThat(large.statusCode()).isEqualTo(200);
		assertThat(large.headers().firstValue("Content-Encoding")).hasValue("gzip");
		assertThat(large.headers().allValues("Vary")).anySatisfy((vary) -> assertThat(vary).contains("Accept-Encoding"));
		assertThat(gunzip(large.body())).isEqualTo("a".repeat(5000));
		assertThat(large.body().length).isLessThan(200);
	}

	@Test
	void compressesAnAsynchronousAnswerWhole() throws Exception {
		HttpResponse<byte[]> large = get("/shop/text/later/5000", "Accept-Encoding", "gzip");
		assertThat(large.statusCode()).isEqualTo(200);
		assertThat(large.headers().firstValue("Content-Encoding")).hasValue("gzip");
		assertThat(gunzip(large.body())).as("the gzip stream ends before the response does").isEqualTo("a".repeat(5000));
	}

	@Test
	void leavesSmallBodiesAndClientsWithoutGzipAlone() throws Exception {
		HttpResponse<byte[]> small = get("/shop/text/100", "Accept-Encoding", "gzip");
		assertThat(small.headers().firstValue("Content-Encoding")).isEmpty();
		assertThat(new String(small.body())).isEqualTo("a".repeat(100));
		HttpResponse<byte[]> identity = get("/shop/text/5000", "Accept-Encoding", "identity");
		assertThat(identity.headers().firstValue("Content-Encoding")).isEmpty();
		assertThat(identity.headers().firstValue("Content-Length")).hasValue("5000");
		HttpResponse<byte[]> refused = get("/shop/text/5000", "Accept-Encoding", "gzip;q=0");
		assertThat(refused.headers().firstValue("Content-Encoding")).isEmpty();
	}

	@Test
	void setsTheServerHeader() throws Exception {
		assertThat(get("/shop/greeting/Ada", "Accept", "application/json").headers().firstValue("Server"))
			.hasValue("Shop/1.0");
	}

	@Test
	void servesUnderTheContextPathOnly() throws Exception {
		assertThat(get("/shop/greeting/Ada", "Accept", "application/json").statusCode()).isEqualTo(200);
		assertThat(get("/greeting/Ada", "Accept", "application/json").statusCode()).isEqualTo(404);
	}

	@Test
	void answersErrorsWithBootsErrorPageAsJsonOrHtml() throws Exception {
		HttpResponse<byte[]> json = get("/shop/missing", "Accept", "application/json");
		assertThat(json.statusCode()).isEqualTo(404);
		assertThat(new String(json.body())).contains("\"status\":404").contains("\"path\":\"/shop/missing\"");
		HttpResponse<byte[]> html = get("/shop/fail", "Accept", "text/html");
		assertThat(html.statusCode()).isEqualTo(500);
		assertThat(new String(html.body())).contains("Whitelabel Error Page");
	}

	private HttpResponse<byte[]> get(String path, String header, String value) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.header(header, value)
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofByteArray());
	}

	private static String gunzip(byte[] bytes) throws IOException {
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
			return new String(in.readAllBytes());
		}
	}

}
