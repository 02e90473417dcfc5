package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's error page, reached through the container's error dispatch: 404, 405, a thrown
 * exception and {@code @ResponseStatus}, as JSON for API clients and as the whitelabel HTML
 * page for browsers, in every I/O model.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class ErrorPagesIT {

	private static final String JSON = "application/json";

	private static final String HTML = "text/html";

	private final IoModel model;

	private ConformanceApp app;

	ErrorPagesIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void app() {
		this.app = ConformanceApp.shared(this.model);
	}

	@Test
	void answersAnUnknownPathWith404() throws Exception {
		assertJsonError(this.app.get("/no/such/page", "Accept", JSON), 404, "Not Found", "/app/no/such/page");
		assertWhitelabel(this.app.get("/no/such/page", "Accept", HTML), 404, "Not Found");
	}

	@Test
	void answersAnUnsupportedMethodWith405AndAllow() throws Exception {
		HttpResponse<String> json = ConformanceApp.client()
			.send(this.app.request("/api/cart").header("Accept", JSON).DELETE().build(),
					HttpResponse.BodyHandlers.ofString());
		assertJsonError(json, 405, "Method Not Allowed", "/app/api/cart");
		assertThat(json.headers().firstValue("Allow")).hasValueSatisfying(
				(allow) -> assertThat(allow.split(",\\s*")).containsExactlyInAnyOrder("GET", "POST"));
	}

	@Test
	void answersAThrownExceptionWith500() throws Exception {
		assertJsonError(this.app.get("/api/fail", "Accept", JSON), 500, "Internal Server Error", "/app/api/fail");
		assertWhitelabel(this.app.get("/api/fail", "Accept", HTML), 500, "Internal Server Error");
	}

	@Test
	void answersAnAnnotatedExceptionWithItsStatus() throws Exception {
		assertJsonError(this.app.get("/api/conflict", "Accept", JSON), 409, "Conflict", "/app/api/conflict");
		assertWhitelabel(this.app.get("/api/conflict", "Accept", HTML), 409, "Conflict");
	}

	@Test
	void answersAMissingParameterWith400() throws Exception {
		assertJsonError(this.app.get("/api/items/a/b", "Accept", JSON), 400, "Bad Request", "/app/api/items/a/b");
	}

	@Test
	void countsAnErrorUnderTheRouteThatFailedRatherThanTheErrorPage() throws Exception {
		assertThat(this.app.get("/api/fail", "Accept", JSON).statusCode()).isEqualTo(500);
		assertThat(this.app.get("/api/conflict", "Accept", JSON).statusCode()).isEqualTo(409);
		assertThat(this.app.get("/api/items/a/b", "Accept", JSON).statusCode()).isEqualTo(400);
		List<Pattern> meters = List.of(requests("/api/fail", 500), requests("/api/conflict", 409),
				requests("/api/items/\\{name}/\\{variant}", 400));
		String scrape = "";
		// a request is counted once its exchange ends, which may be after the client read it
		for (int i = 0; i < 50 && !allFound(meters, scrape); i++) {
			Thread.sleep((i == 0) ? 0 : 100);
			scrape = this.app.management("/actuator/prometheus").body();
		}
		for (Pattern meter : meters) {
			assertThat(scrape).containsPattern(meter);
		}
		assertThat(scrape).doesNotContainPattern(requests("/error", 500)).doesNotContainPattern(requests("/error", 409));
	}

	@Test
	void countsAnOptionsRequestUnderThePatternItAskedAbout() throws Exception {
		HttpResponse<String> options = ConformanceApp.client()
			.send(this.app.request("/api/cart").method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(options.statusCode()).isEqualTo(200);
		assertThat(options.headers().firstValue("Allow")).isPresent();
		// Spring MVC's own OPTIONS handler leaves no pattern behind: not the servlet's "/" either
		Pattern meter = Pattern.compile("ariadne_requests_seconds_count\\{[^}]*method=\"OPTIONS\"[^}]*"
				+ "route=\"/api/cart\"[^}]*status=\"200\"");
		String scrape = "";
		for (int i = 0; i < 50 && !meter.matcher(scrape).find(); i++) {
			Thread.sleep((i == 0) ? 0 : 100);
			scrape = this.app.management("/actuator/prometheus").body();
		}
		assertThat(scrape).containsPattern(meter)
			.doesNotContainPattern("ariadne_requests_seconds_count\\{[^}]*method=\"OPTIONS\"[^}]*route=\"/\"");
	}

	private static boolean allFound(List<Pattern> patterns, String text) {
		return patterns.stream().allMatch((pattern) -> pattern.matcher(text).find());
	}

	private static Pattern requests(String route, int status) {
		return Pattern.compile("ariadne_requests_seconds_count\\{[^}]*listener=\"app\"[^}]*route=\"" + route
				+ "\"[^}]*status=\"" + status + "\"");
	}

	@Test
	void keepsTheConnectionAfterAnErrorPageWithACompleteBody() throws IOException {
		try (RawClient client = this.app.raw()) {
			RawResponse notFound = client.exchange(ConformanceApp.get("/app/no/such/page", "Accept: application/json\r\n"));
			assertThat(notFound.status()).isEqualTo(404);
			assertThat(notFound.announcesClose()).isFalse();
			assertThat(JsonPath.<Integer>read(notFound.bodyText(), "$.status")).isEqualTo(404);
			RawResponse conflict = client.exchange(ConformanceApp.get("/app/api/conflict", "Accept: application/json\r\n"));
			assertThat(conflict.status()).isEqualTo(409);
			assertThat(JsonPath.<String>read(conflict.bodyText(), "$.path")).isEqualTo("/app/api/conflict");
		}
	}

	private static void assertJsonError(HttpResponse<String> response, int status, String error, String path) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue(JSON);
		assertThat(JsonPath.<Integer>read(response.body(), "$.status")).isEqualTo(status);
		assertThat(JsonPath.<String>read(response.body(), "$.error")).isEqualTo(error);
		assertThat(JsonPath.<String>read(response.body(), "$.path")).isEqualTo(path);
		assertThat(JsonPath.<String>read(response.body(), "$.timestamp")).isNotBlank();
	}

	private static void assertWhitelabel(HttpResponse<String> response, int status, String error) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
		assertThat(response.body()).startsWith("<html><body><h1>Whitelabel Error Page</h1>")
			.contains("There was an unexpected error (type=" + error + ", status=" + status + ").");
	}

}
