package dev.ariadne.it.fluxconformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring's own request meter ({@code http_server_requests_seconds}, from the
 * {@code http.server.requests} observation) for the answers every dashboard tells apart: 200,
 * 404, 418 and 500, each tagged with its status, outcome, exception and handler pattern. The
 * expected tags are what Reactor Netty gives (this case runs there too).
 */
interface RequestMeterCases {

	/** Requests of the case, as path, expected status, outcome, exception and pattern. */
	List<List<String>> ANSWERS = List.of(List.of("/users/metered-200", "200", "SUCCESS", "none", "/users/{id}"),
			// no handler: Boot's static resources (/**) take the request and find nothing
			List.of("/metered/no/such/thing", "404", "CLIENT_ERROR", "NoResourceFoundException", "/**"),
			List.of("/errors/teapot/earl-grey", "418", "CLIENT_ERROR", "ResponseStatusException", "/errors/teapot/{kind}"),
			List.of("/errors/thrown", "500", "SERVER_ERROR", "IllegalStateException", "/errors/thrown"));

	/**
	 * Returns the running application the cases talk to.
	 * @return the application
	 */
	FluxApp app();

	@Test
	default void tagsSpringsRequestMeterWithTheStatusOutcomeAndPatternOf200_404_418And500() throws Exception {
		for (List<String> answer : ANSWERS) {
			assertThat(app().get(answer.get(0), "Accept", "application/json").statusCode()).as(answer.get(0))
				.isEqualTo(Integer.parseInt(answer.get(1)));
		}
		String scrape = "";
		// the observation stops once the response completes, which may be after the client read it
		for (int i = 0; i < 50 && !ANSWERS.stream().allMatch(found(scrape)); i++) {
			Thread.sleep((i == 0) ? 0 : 100);
			scrape = app().management("/actuator/prometheus").body();
		}
		for (List<String> answer : ANSWERS) {
			// every GET under the pattern, from this case or another, got the same tags
			List<Map<String, String>> series = series(scrape, "http_server_requests_seconds_count").stream()
				.filter((labels) -> labels.get("uri").equals(answer.get(4)) && labels.get("method").equals("GET"))
				.toList();
			assertThat(series).as(answer.get(0))
				.containsExactly(Map.of("error", answer.get(3), "exception", answer.get(3), "method", "GET", "outcome",
						answer.get(2), "status", answer.get(1), "uri", answer.get(4)));
		}
	}

	private static java.util.function.Predicate<List<String>> found(String scrape) {
		return (answer) -> series(scrape, "http_server_requests_seconds_count").stream()
			.anyMatch((labels) -> answer.get(4).equals(labels.get("uri")) && answer.get(1).equals(labels.get("status")));
	}

	/**
	 * Returns the label sets of a meter's series in a Prometheus scrape.
	 * @param scrape the scrape, in the text format
	 * @param name the series' name
	 * @return the label sets, each in the order of the scrape
	 */
	static List<Map<String, String>> series(String scrape, String name) {
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
