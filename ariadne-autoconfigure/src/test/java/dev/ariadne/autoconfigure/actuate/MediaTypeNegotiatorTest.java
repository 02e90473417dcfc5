package dev.ariadne.autoconfigure.actuate;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.util.InvalidMimeTypeException;
import org.springframework.util.MimeType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link MediaTypeNegotiator}.
 */
class MediaTypeNegotiatorTest {

	private static final String TEXT = "text/plain;version=0.0.4;charset=utf-8";

	private static final String OPEN_METRICS = "application/openmetrics-text;version=1.0.0;charset=utf-8";

	private static final String PROTOBUF = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
			+ "encoding=delimited";

	private final MediaTypeNegotiator prometheus = new MediaTypeNegotiator(List.of(TEXT, OPEN_METRICS, PROTOBUF));

	private final MediaTypeNegotiator json = new MediaTypeNegotiator(List.of(
			"application/vnd.spring-boot.actuator.v3+json", "application/vnd.spring-boot.actuator.v2+json",
			"application/json"));

	@ParameterizedTest(name = "Accept: {0} -> {1}")
	@CsvSource(delimiter = '|', textBlock = """
			''                                                                                         | text
			*/*                                                                                        | text
			text/plain                                                                                 | text
			text/*                                                                                     | text
			application/openmetrics-text                                                               | openmetrics
			application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1       | openmetrics
			text/plain;q=0.5, application/openmetrics-text;q=0.9                                       | openmetrics
			*/*;q=0.1, text/plain;q=0.2                                                                | text
			text/plain;q=0.5, application/openmetrics-text;q=0.5                                       | text
			application/*;q=0.9, application/openmetrics-text;q=0.9                                    | openmetrics
			application/json, text/plain;q=0.1                                                         | text
			application/vnd.google.protobuf                                                            | protobuf
			""")
	void choosesThePrometheusFormat(String accept, String expected) {
		MimeType type = this.prometheus.negotiate(accept.isEmpty() ? List.of() : List.of(accept));
		String name = switch (type.getSubtype()) {
			case "plain" -> "text";
			case "openmetrics-text" -> "openmetrics";
			default -> "protobuf";
		};
		assertThat(name).isEqualTo(expected);
	}

	@Test
	void choosesTheFirstProducedTypeWithoutAccept() {
		assertThat(this.json.negotiate(List.of())).hasToString("application/vnd.spring-boot.actuator.v3+json");
	}

	@Test
	void honoursEveryAcceptField() {
		assertThat(this.json.negotiate(List.of("text/html", "application/json"))).hasToString("application/json");
	}

	@Test
	void refusesWhenNothingProducedIsAcceptable() {
		assertThat(this.prometheus.negotiate(List.of("application/json"))).isNull();
		assertThat(this.json.negotiate(List.of("text/plain"))).isNull();
	}

	@Test
	void neverChoosesATypeWithZeroQuality() {
		assertThat(this.json.negotiate(List.of("application/json;q=0"))).isNull();
		assertThat(this.json.negotiate(List.of("application/json;q=0, */*;q=0.1")))
			.hasToString("application/vnd.spring-boot.actuator.v3+json");
	}

	@Test
	void rejectsAnUnreadableHeader() {
		assertThatExceptionOfType(InvalidMimeTypeException.class)
			.isThrownBy(() -> this.json.negotiate(List.of("not a type")));
		assertThatExceptionOfType(InvalidMimeTypeException.class)
			.isThrownBy(() -> this.json.negotiate(List.of("application/json;q=high")));
	}

}
