package dev.ariadne.server.accesslog;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The formats as tables: an exchange's line in each named format and for every pattern code;
 * what a client controls escaped so that it can neither end a line nor start one, in NCSA and
 * in JSON; and the patterns refused, with what is wrong with them.
 */
class AccessLogFormatTest {

	private static final long TIME = Instant.parse("2026-12-01T10:15:30.123Z").toEpochMilli();

	private static final String REQUEST_LINE = "\"GET /api/user/42?verbose=true HTTP/1.1\"";

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
			"common | 203.0.113.7 - - [01/Dec/2026:10:15:30 +0000] " + REQUEST_LINE + " 200 27",
			"combined | 203.0.113.7 - - [01/Dec/2026:10:15:30 +0000] " + REQUEST_LINE
					+ " 200 27 \"https://shop.example/\" \"curl/8.5.0\"",
			"json | {\"time\":\"2026-12-01T10:15:30.123Z\",\"listener\":\"app\",\"io_model\":\"event-loop\","
					+ "\"pool\":\"default\",\"remote\":\"203.0.113.7\",\"method\":\"GET\","
					+ "\"target\":\"/api/user/42?verbose=true\",\"protocol\":\"HTTP/1.1\",\"status\":200,\"bytes\":27,"
					+ "\"duration_ms\":1234.567,\"wait_ms\":0.012,\"route\":\"/api/user/{id}\","
					+ "\"referer\":\"https://shop.example/\",\"user_agent\":\"curl/8.5.0\"}",
			"%a %h %A %p %l %u | 203.0.113.7 203.0.113.7 127.0.0.1 8080 - -",
			"%m %U %q %H %s | GET /api/user/42 ?verbose=true HTTP/1.1 200",
			"%b %B %D %T %{ms}T %{us}T %{s}T | 27 27 1234567 1 1234 1234567 1",
			"%{wait}x %{pool}x %{model}x %{listener}x %{route}x | 0.012 default event-loop app /api/user/{id}",
			"%{X-Request-Id}i %{x-request-id}i %{Content-Type}o %{Missing}i | abc-1 abc-1 application/json -",
			"100%% [%t] | 100% [[01/Dec/2026:10:15:30 +0000]]" })
	void writesTheLineOfEachFormatAndCode(String format, String expected) {
		AccessLogFormat compiled = format(format);
		assertThat(line(compiled, exchange(compiled))).isEqualTo(expected + "\n");
	}

	@Test
	void writesTheTimeInTheLogsZoneForNcsaAndInUtcForJson() {
		LineContext paris = new LineContext("app", "event-loop", ZoneId.of("Europe/Paris"));
		AccessLogFormat time = AccessLogFormat.pattern("%t");
		assertThat(line(time, exchange(time), paris)).isEqualTo("[01/Dec/2026:11:15:30 +0100]\n");
		AccessLogFormat json = AccessLogFormat.json();
		assertThat(line(json, exchange(json), paris)).startsWith("{\"time\":\"2026-12-01T10:15:30.123Z\"");
	}

	@Test
	void writesWhatIsUnknownAsADashAndAJsonLineWithoutIt() {
		AccessLogEntry entry = new AccessLogEntry(2, 0);
		entry.epochMillis = TIME;
		entry.pool = "default";
		entry.route = "INVALID";
		entry.status = 400;
		entry.bytes = 0;
		assertThat(line(AccessLogFormat.combined(), entry))
			.isEqualTo("- - - [01/Dec/2026:10:15:30 +0000] \"-\" 400 - \"-\" \"-\"\n");
		assertThat(line(AccessLogFormat.pattern("%m %U %q|%H %B"), entry)).isEqualTo("- - |- 0\n");
		assertThat(line(AccessLogFormat.json(), entry)).isEqualTo("{\"time\":\"2026-12-01T10:15:30.123Z\","
				+ "\"listener\":\"app\",\"io_model\":\"event-loop\",\"pool\":\"default\",\"remote\":\"-\",\"status\":400,"
				+ "\"bytes\":0,\"duration_ms\":0.000,\"wait_ms\":0.000,\"route\":\"INVALID\"}\n");
	}

	@Test
	void writesAnHttp2RequestWithItsProtocolAndAnIpv6Client() {
		AccessLogFormat format = AccessLogFormat.pattern("%a \"%r\"");
		AccessLogEntry entry = exchange(format);
		entry.protocol = "HTTP/2.0";
		entry.remote = new InetSocketAddress("::1", 40000);
		assertThat(line(format, entry))
			.isEqualTo("0:0:0:0:0:0:0:1 \"GET /api/user/42?verbose=true HTTP/2.0\"\n");
	}

	/** What a client sent, escaped: in NCSA with backslashes and \xhh, in JSON with JSON's escapes. */
	static Stream<Arguments> clientText() {
		return Stream.of(arguments("a quote", "say \"hi\"", "say \\\"hi\\\"", "say \\\"hi\\\""),
				arguments("a backslash", "back\\slash", "back\\\\slash", "back\\\\slash"),
				arguments("CR LF", "a\r\nb", "a\\r\\nb", "a\\r\\nb"),
				arguments("a tab", "a\tb", "a\\tb", "a\\tb"),
				arguments("NUL and ESC", "a\u0000b\u001bc", "a\\x00b\\x1bc", "a\\u0000b\\u001bc"),
				arguments("DEL", "a\u007fb", "a\\x7fb", "a\\u007fb"),
				arguments("a Latin-1 byte", "caf\u00e9", "caf\\xe9", "caf\u00e9"),
				arguments("NEL", "a\u0085b", "a\\x85b", "a\\u0085b"),
				arguments("the line and paragraph separators", "a\u2028b\u2029c", "a\\xe2\\x80\\xa8b\\xe2\\x80\\xa9c",
						"a\\u2028b\\u2029c"),
				arguments("an emoji", "a\ud83d\ude00b", "a\\xf0\\x9f\\x98\\x80b", "a\ud83d\ude00b"),
				arguments("a lone surrogate", "a\ud800b", "a\\xef\\xbf\\xbdb", "a\\ud800b"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("clientText")
	void escapesWhatAClientSent(String description, String value, String ncsa, String json) {
		AccessLogFormat pattern = AccessLogFormat.pattern("%{User-Agent}i");
		assertThat(line(pattern, exchange(pattern, Map.of("User-Agent", value), Map.of()))).as(description)
			.isEqualTo(ncsa + "\n");
		AccessLogFormat jsonFormat = AccessLogFormat.json();
		assertThat(line(jsonFormat, exchange(jsonFormat, Map.of("User-Agent", value), Map.of()))).as(description)
			.endsWith(",\"user_agent\":\"" + json + "\"}\n");
	}

	@Test
	void aValueThatTriesToInjectALineStaysInItsOwnField() {
		String forged = "x\" 200 1\n198.51.100.1 - - [01/Dec/2026:10:15:31 +0000] \"GET /admin HTTP/1.1\" 200 1";
		Map<String, String> fields = Map.of("User-Agent", forged, "Referer", "r\r\n");
		String combined = null;
		for (AccessLogFormat format : new AccessLogFormat[] { AccessLogFormat.combined(), AccessLogFormat.json() }) {
			AccessLogEntry entry = exchange(format, fields, Map.of());
			entry.target = "/a\r\nb";
			String line = line(format, entry);
			assertThat(line.indexOf('\n')).as(format.toString()).isEqualTo(line.length() - 1);
			assertThat(line).as(format.toString()).doesNotContain("\r");
			combined = (combined == null) ? line : combined;
		}
		// the quotes a client sent are escaped, so the fields still split on the unescaped ones
		assertThat(combined.replace("\\\"", "").chars().filter((c) -> c == '"').count()).isEqualTo(6);
		assertThat(combined).contains("\"x\\\" 200 1\\n198.51.100.1 - - [01/Dec/2026:10:15:31 +0000] \\\"GET /admin");
	}

	static Stream<Arguments> badPatterns() {
		return Stream.of(arguments("", "must not be empty"), arguments("%h %", "ends with a lone %"),
				arguments("%h %Z", "has the unknown code %Z at index 3"),
				arguments("%{Referer", "has %{ without a closing } and a code letter at index 0"),
				arguments("%{Referer}", "has %{ without a closing } and a code letter at index 0"),
				arguments("%{}i", "has %{}i at index 0, which names no header field"),
				arguments("%{a b}i", "has %{a b}i at index 0, which names no header field"),
				arguments("%{m}T", "has %{m}T at index 0; the units are ms, us and s"),
				arguments("%{thread}x",
						"has %{thread}x at index 0; Ariadne's fields are wait, pool, model, listener and route"),
				arguments("%{x}s", "has the unknown code %{x}s at index 0"),
				arguments("a\tb", "has a control character at index 1"),
				arguments("a\nb", "has a control character at index 1"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badPatterns")
	void refusesAPatternSayingWhatIsWrong(String pattern, String message) {
		assertThatIllegalArgumentException().isThrownBy(() -> AccessLogFormat.pattern(pattern))
			.withMessage(message);
	}

	private static AccessLogFormat format(String name) {
		return switch (name) {
			case "common" -> AccessLogFormat.common();
			case "combined" -> AccessLogFormat.combined();
			case "json" -> AccessLogFormat.json();
			default -> AccessLogFormat.pattern(name);
		};
	}

	private static final Map<String, String> REQUEST_FIELDS = Map.of("Referer", "https://shop.example/",
			"User-Agent", "curl/8.5.0", "X-Request-Id", "abc-1");

	private static final Map<String, String> RESPONSE_FIELDS = Map.of("Content-Type", "application/json");

	private static AccessLogEntry exchange(AccessLogFormat format) {
		return exchange(format, REQUEST_FIELDS, RESPONSE_FIELDS);
	}

	/** An entry as the request path fills it for a format: the fields it names copied into its slots. */
	private static AccessLogEntry exchange(AccessLogFormat format, Map<String, String> request,
			Map<String, String> response) {
		AccessLogEntry entry = new AccessLogEntry(format.requestFields().length, format.responseFields().length);
		entry.method = "GET";
		entry.target = "/api/user/42?verbose=true";
		entry.pathAndQuery = entry.target;
		entry.protocol = "HTTP/1.1";
		entry.remote = new InetSocketAddress("203.0.113.7", 51234);
		entry.local = new InetSocketAddress("127.0.0.1", 8080);
		entry.status = 200;
		entry.bytes = 27;
		entry.durationNanos = 1_234_567_890;
		entry.waitNanos = 12_345;
		entry.pool = "default";
		entry.route = "/api/user/{id}";
		entry.epochMillis = TIME;
		for (int i = 0; i < format.requestFields().length; i++) {
			entry.requestFields[i] = find(request, format.requestFields()[i]);
		}
		for (int i = 0; i < format.responseFields().length; i++) {
			entry.responseFields[i] = find(response, format.responseFields()[i]);
		}
		return entry;
	}

	private static String find(Map<String, String> fields, String name) {
		return fields.entrySet()
			.stream()
			.filter((field) -> field.getKey().equalsIgnoreCase(name))
			.map(Map.Entry::getValue)
			.findFirst()
			.orElse(null);
	}

	private static String line(AccessLogFormat format, AccessLogEntry entry) {
		return line(format, entry, new LineContext("app", "event-loop", ZoneOffset.UTC));
	}

	private static String line(AccessLogFormat format, AccessLogEntry entry, LineContext context) {
		LineBuffer out = new LineBuffer(16);
		format.write(entry, out, context);
		return out.toString();
	}

}
