package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.List;

import dev.ariadne.server.IoModel;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The access log of a Spring MVC application, as a user turns it on with
 * {@code ariadne.server.accesslog.*}: a JSON line for every request, HTTP/1.1 and h2c, with
 * Spring MVC's pattern as the route, the time waited for a worker, the pool and the I/O model;
 * the management listener's requests in a file of their own ({@code management_access_log...},
 * as Boot names Tomcat's); every line written when the context has closed; and the combined
 * format by default.
 */
class AccessLogIT {

	private static final String TODAY = LocalDate.now().format(DateTimeFormatter.ofPattern(".yyyy-MM-dd"));

	private static final JsonMapper json = JsonMapper.builder().build();

	@TempDir
	Path directory;

	private ConformanceApp app;

	private HttpClient h2c;

	@AfterEach
	void stop() throws Exception {
		if (this.h2c != null) {
			this.h2c.stop();
		}
		if (this.app != null) {
			this.app.close();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void writesAJsonLineForEveryRequestOfTheApplicationAndOfItsManagementListener(IoModel model) throws Exception {
		this.app = ConformanceApp.start(model, "ariadne.server.accesslog.enabled=true",
				"ariadne.server.accesslog.format=json", "ariadne.server.accesslog.directory=" + this.directory,
				"server.http2.enabled=true");
		assertThat(this.app.get("/api/items/tea/green?q=x", "User-Agent", "conformance", "Referer",
				"http://shop.example/").statusCode()).isEqualTo(200);
		assertThat(this.app.get("/api/missing").statusCode()).isEqualTo(404);
		this.h2c = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
		this.h2c.start();
		ContentResponse stream = this.h2c.GET(this.app.uri("/api/protocol"));
		assertThat(stream.getVersion()).isEqualTo(HttpVersion.HTTP_2);
		assertThat(this.app.management("/actuator/health").statusCode()).isEqualTo(200);
		this.h2c.stop();
		this.h2c = null;
		this.app.close();
		this.app = null;

		// every line is in its file once the context has closed: nothing to wait for
		List<JsonNode> lines = lines("access_log" + TODAY + ".log");
		assertThat(lines).hasSize(3);
		for (JsonNode line : lines) {
			assertThat(line.get("listener").asString()).isEqualTo("app");
			assertThat(line.get("io_model").asString()).isEqualTo(model.value());
			assertThat(line.get("pool").asString()).isEqualTo("default");
			assertThat(line.get("remote").asString()).isEqualTo("127.0.0.1");
			assertThat(line.get("wait_ms").asDouble()).isNotNegative();
			assertThat(line.get("duration_ms").asDouble()).isPositive();
			assertThat(line.get("time").asString()).startsWith(LocalDate.now(java.time.ZoneOffset.UTC).toString());
		}
		JsonNode item = find(lines, "/app/api/items/tea/green?q=x");
		assertThat(item.get("method").asString()).isEqualTo("GET");
		assertThat(item.get("protocol").asString()).isEqualTo("HTTP/1.1");
		assertThat(item.get("status").asInt()).isEqualTo(200);
		assertThat(item.get("bytes").asLong()).isPositive();
		assertThat(item.get("route").asString()).isEqualTo("/api/items/{name}/{variant}");
		assertThat(item.get("user_agent").asString()).isEqualTo("conformance");
		assertThat(item.get("referer").asString()).isEqualTo("http://shop.example/");
		assertThat(find(lines, "/app/api/missing").get("status").asInt()).isEqualTo(404);
		JsonNode h2 = find(lines, "/app/api/protocol");
		assertThat(h2.get("protocol").asString()).isEqualTo("HTTP/2.0");
		assertThat(h2.get("status").asInt()).isEqualTo(200);
		assertThat(h2.get("route").asString()).isEqualTo("/api/protocol");

		List<JsonNode> management = lines("management_access_log" + TODAY + ".log");
		assertThat(management).singleElement().satisfies((line) -> {
			assertThat(line.get("target").asString()).isEqualTo("/actuator/health");
			assertThat(line.get("listener").asString()).isEqualTo("management");
			assertThat(line.get("io_model").asString()).isEqualTo("event-loop");
			assertThat(line.get("status").asInt()).isEqualTo(200);
		});
	}

	@Test
	void writesTheCombinedFormatByDefault() throws Exception {
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, "ariadne.server.accesslog.enabled=true",
				"ariadne.server.accesslog.directory=" + this.directory);
		HttpResponse<String> response = this.app.get("/api/items/tea/green?q=x", "User-Agent", "conformance \"1\"",
				"Referer", "http://shop.example/");
		assertThat(response.statusCode()).isEqualTo(200);
		this.app.close();
		this.app = null;
		assertThat(Files.readAllLines(this.directory.resolve("access_log" + TODAY + ".log"))).singleElement()
			.asString()
			.matches("127\\.0\\.0\\.1 - - \\[[0-9]{2}/[A-Z][a-z]{2}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2} [-+][0-9]{4}\\] "
					+ "\"GET /app/api/items/tea/green\\?q=x HTTP/1\\.1\" 200 " + response.body().length()
					+ " \"http://shop\\.example/\" \"conformance \\\\\"1\\\\\"\"");
	}

	private List<JsonNode> lines(String file) throws IOException {
		return Files.readAllLines(this.directory.resolve(file)).stream().map(json::readTree).toList();
	}

	private static JsonNode find(List<JsonNode> lines, String target) {
		return lines.stream()
			.filter((line) -> line.get("target").asString().equals(target))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no line for " + target + " in " + lines));
	}

}
