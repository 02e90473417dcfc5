package dev.ariadne.it.newuser;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.ariadne.autoconfigure.web.AriadneWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The new user's application answering 200, 400, 404, 406, 418 and 500, on Boot's Tomcat (the
 * starter's web server left out) and on Ariadne in every I/O model: Spring's
 * {@code http_server_requests_seconds} has the same status, outcome, exception and pattern on
 * both, and Ariadne's {@code ariadne_requests_seconds} counts each answer under its handler's
 * pattern, never under the error page's {@code /error} or the raw path. With Boot's static
 * resources left out, a path no handler takes is {@code NOT_FOUND} in both meters.
 */
@ParameterizedClass(name = "{0}, static resources {1}")
@CsvSource({ "tomcat, true", "event-loop, true", "blocking, true", "virtual-threads, true", "tomcat, false",
		"event-loop, false" })
class RequestMetersIT {

	private static final HttpClient CLIENT = HttpClient.newHttpClient();

	private static ConfigurableApplicationContext context;

	private final String server;

	private final boolean staticResources;

	RequestMetersIT(String server, boolean staticResources) {
		this.server = server;
		this.staticResources = staticResources;
	}

	@BeforeParameterizedClassInvocation
	static void start(String server, boolean staticResources) {
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
				"--management.server.port=0", "--management.server.address=127.0.0.1",
				"--management.endpoints.web.exposure.include=prometheus",
				"--spring.web.resources.add-mappings=" + staticResources));
		if (server.equals("tomcat")) {
			args.add("--spring.autoconfigure.exclude=dev.ariadne.autoconfigure.web.AriadneServletWebServerAutoConfiguration");
		}
		else {
			args.add("--ariadne.server.io-model=" + server);
		}
		context = SpringApplication.run(NewUserApplication.class, args.toArray(String[]::new));
	}

	@AfterParameterizedClassInvocation
	static void stop() {
		if (context != null) {
			context.close();
			context = null;
		}
	}

	@Test
	void tagsBothRequestMetersWithTheStatusOutcomeAndHandlersPatternOf200_400_404_406_418And500() throws Exception {
		assertThat(((WebServerApplicationContext) context).getWebServer())
			.isInstanceOf(this.server.equals("tomcat") ? TomcatWebServer.class : AriadneWebServer.class);
		// path, status, outcome, exception (as Spring MVC resolves it), pattern, Accept
		String notFound = this.staticResources ? "/**" : "NOT_FOUND";
		List<List<String>> answers = List.of(
				List.of("/greeting/Ada", "200", "SUCCESS", "none", "/greeting/{name}", "application/json"),
				List.of("/text/many", "400", "CLIENT_ERROR", "none", "/text/{size}", "text/plain"),
				List.of("/no/such/thing", "404", "CLIENT_ERROR", "none", notFound, "application/json"),
				List.of("/greeting/Bob", "406", "CLIENT_ERROR", "none", "/greeting/{name}", "image/png"),
				List.of("/teapot/earl-grey", "418", "CLIENT_ERROR", "none", "/teapot/{kind}", "application/json"),
				List.of("/fail", "500", "SERVER_ERROR", "IllegalStateException", "/fail", "application/json"));
		for (List<String> answer : answers) {
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + answer.get(0)))
				.header("Accept", answer.get(5))
				.build();
			assertThat(CLIENT.send(request, HttpResponse.BodyHandlers.ofString()).statusCode()).as(answer.get(0))
				.isEqualTo(Integer.parseInt(answer.get(1)));
		}
		String scrape = "";
		// a request is counted once its exchange ends, which may be after the client read it
		for (int i = 0; i < 50 && !counted(scrape, answers.size()); i++) {
			Thread.sleep((i == 0) ? 0 : 100);
			scrape = scrape();
		}
		assertThat(series(scrape, "http_server_requests_seconds_count")).as("Spring's request meter")
			.filteredOn((labels) -> !labels.get("uri").startsWith("/actuator"))
			.containsExactlyInAnyOrderElementsOf(answers.stream()
				.map((answer) -> Map.of("error", answer.get(3), "exception", answer.get(3), "method", "GET", "outcome",
						answer.get(2), "status", answer.get(1), "uri", answer.get(4)))
				.toList());
		if (!this.server.equals("tomcat")) {
			assertThat(series(scrape, "ariadne_requests_seconds_count")).as("Ariadne's request meter")
				.filteredOn((labels) -> labels.get("listener").equals("app"))
				.containsExactlyInAnyOrderElementsOf(answers.stream()
					.map((answer) -> Map.of("listener", "app", "method", "GET", "outcome", answer.get(2), "refusal", "none",
							"route", answer.get(4), "status", answer.get(1)))
					.toList());
		}
	}

	private boolean counted(String scrape, int answers) {
		long spring = series(scrape, "http_server_requests_seconds_count").stream()
			.filter((labels) -> !labels.get("uri").startsWith("/actuator"))
			.count();
		long ariadne = series(scrape, "ariadne_requests_seconds_count").stream()
			.filter((labels) -> labels.get("listener").equals("app"))
			.count();
		return spring >= answers && (this.server.equals("tomcat") || ariadne >= answers);
	}

	private static int port() {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	private static String scrape() throws Exception {
		int port = context.getEnvironment().getRequiredProperty("local.management.port", Integer.class);
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
			.build();
		return CLIENT.send(request, HttpResponse.BodyHandlers.ofString()).body();
	}

	/** Returns the label sets of a meter's series in a Prometheus scrape. */
	private static List<Map<String, String>> series(String scrape, String name) {
		Pattern label = Pattern.compile("([a-z_]+)=\"((?:[^\"\\\\]|\\\\.)*)\"");
		List<Map<String, String>> series = new ArrayList<>();
		for (String line : scrape.split("\n")) {
			if (line.startsWith(name + "{")) {
				Map<String, String> labels = new LinkedHashMap<>();
				Matcher matcher = label.matcher(line.substring(name.length() + 1, line.lastIndexOf('}')));
				while (matcher.find()) {
					labels.put(matcher.group(1), matcher.group(2));
				}
				series.add(labels);
			}
		}
		return series;
	}

}
