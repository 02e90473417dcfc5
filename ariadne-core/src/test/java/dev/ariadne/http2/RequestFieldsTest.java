package dev.ariadne.http2;

import static dev.ariadne.http2.Blocks.block;
import static dev.ariadne.http2.Blocks.describe;
import static dev.ariadne.http2.Blocks.feed;
import static dev.ariadne.http2.Blocks.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ariadne.http.Headers;
import dev.ariadne.http.ParserLimits;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Version;

/**
 * The request rules of RFC 9113 §8.1 to §8.3 and §8.5, one table row per rule: a header block
 * in, the head {@link RequestFields} makes (see {@link Blocks#describe}) or the reason of the
 * stream error it throws out. The invalid rows put {@code zqx} in what the peer sent wherever
 * the rule allows, and no reason may repeat it. Trailers, limits and reuse follow the tables.
 */
class RequestFieldsTest {

	private static final int STREAM = 3;

	static Stream<Arguments> validBlocks() {
		return Stream.of(
				valid("a GET: target from :path, host from :authority, version HTTP/2.0 (RFC 9113 §8.3.1)",
						get(), true, "GET / ORIGIN / HTTP/2.0 [host: a.example] length=-1 unknownLength=false"
								+ " expectContinue=false"),
				valid("regular fields keep their order and lower-case names; a query stays in the target",
						block(":method", "GET", ":scheme", "https", ":authority", "a.example", ":path", "/p?q=1",
								"accept", "*/*", "x-trace", "1", "accept", "text/html"),
						true, "GET /p?q=1 ORIGIN /p?q=1 HTTP/2.0 [accept: */*, x-trace: 1, accept: text/html,"
								+ " host: a.example] length=-1 unknownLength=false expectContinue=false"),
				valid("pseudo-header fields in any order, as long as they come first (RFC 9113 §8.3)",
						block(":path", "/", ":authority", "a.example", ":method", "GET", ":scheme", "http"),
						true, "GET / ORIGIN / HTTP/2.0 [host: a.example] length=-1 unknownLength=false"
								+ " expectContinue=false"),
				valid("OPTIONS * is asterisk-form (RFC 9113 §8.3.1)",
						block(":method", "OPTIONS", ":scheme", "https", ":authority", "a", ":path", "*"), true,
						"OPTIONS * ASTERISK * HTTP/2.0 [host: a] length=-1 unknownLength=false expectContinue=false"),
				valid("CONNECT has :authority only, an authority-form target (RFC 9113 §8.5)",
						block(":method", "CONNECT", ":authority", "a.example:443"), false,
						"CONNECT a.example:443 AUTHORITY a.example:443 HTTP/2.0 [host: a.example:443] length=-1"
								+ " unknownLength=true expectContinue=false"),
				valid("a host field without :authority is kept, and no second one made (RFC 9113 §8.3.1)",
						block(":method", "GET", ":scheme", "https", ":path", "/", "host", "b.example"), true,
						"GET / ORIGIN / HTTP/2.0 [host: b.example] length=-1 unknownLength=false expectContinue=false"),
				valid("host and :authority naming the same host, in another case, agree (RFC 9113 §8.3.1)",
						get("host", "A.Example"), true, "GET / ORIGIN / HTTP/2.0 [host: A.Example] length=-1"
								+ " unknownLength=false expectContinue=false"),
				valid("a scheme without a mandatory authority needs neither :authority nor host",
						block(":method", "GET", ":scheme", "x-local", ":path", "/"), true,
						"GET / ORIGIN / HTTP/2.0 [] length=-1 unknownLength=false expectContinue=false"),
				valid("content-length is the head's length when a body follows (RFC 9113 §8.1.1)",
						post("content-length", "5"), false, "POST /in ORIGIN /in HTTP/2.0 [content-length: 5,"
								+ " host: a] length=5 unknownLength=false expectContinue=false"),
				valid("repeated equal content-length values are one length (RFC 9110 §8.6)",
						post("content-length", "007", "content-length", "7"), false,
						"POST /in ORIGIN /in HTTP/2.0 [content-length: 007, content-length: 7, host: a] length=7"
								+ " unknownLength=false expectContinue=false"),
				valid("content-length 0 with END_STREAM on HEADERS",
						post("content-length", "0"), true, "POST /in ORIGIN /in HTTP/2.0 [content-length: 0, host: a]"
								+ " length=0 unknownLength=false expectContinue=false"),
				valid("a body without content-length ends with the stream: its length is unknown",
						post(), false, "POST /in ORIGIN /in HTTP/2.0 [host: a] length=-1 unknownLength=true"
								+ " expectContinue=false"),
				valid("te: trailers is the one te allowed (RFC 9113 §8.2.2)",
						get("te", "trailers"), true, "GET / ORIGIN / HTTP/2.0 [te: trailers, host: a.example] length=-1"
								+ " unknownLength=false expectContinue=false"),
				valid("cookie fields are joined with '; ', after the other fields (RFC 9113 §8.2.3)",
						get("cookie", "a=1", "accept", "*/*", "cookie", "b=2", "cookie", "c=3"), true,
						"GET / ORIGIN / HTTP/2.0 [accept: */*, cookie: a=1; b=2; c=3, host: a.example] length=-1"
								+ " unknownLength=false expectContinue=false"),
				valid("one cookie field stays as it is",
						get("cookie", "a=1; b=2"), true, "GET / ORIGIN / HTTP/2.0 [cookie: a=1; b=2, host: a.example]"
								+ " length=-1 unknownLength=false expectContinue=false"),
				valid("expect: 100-continue asks for an interim response (RFC 9110 §10.1.1)",
						post("content-length", "3", "expect", "100-continue"), false,
						"POST /in ORIGIN /in HTTP/2.0 [content-length: 3, expect: 100-continue, host: a] length=3"
								+ " unknownLength=false expectContinue=true"),
				valid("empty values, inner whitespace and obs-text are allowed in a value (RFC 9110 §5.5)",
						get("x-empty", "", "x-a", "a \tb caf\u00e9"), true,
						"GET / ORIGIN / HTTP/2.0 [x-empty: , x-a: a \tb caf\u00e9, host: a.example] length=-1"
								+ " unknownLength=false expectContinue=false"),
				valid("an extension method is any token (RFC 9110 §9.1)",
						block(":method", "PROPFIND", ":scheme", "https", ":authority", "a", ":path", "/dav"), true,
						"PROPFIND /dav ORIGIN /dav HTTP/2.0 [host: a] length=-1 unknownLength=false"
								+ " expectContinue=false"));
	}

	@ParameterizedTest
	@MethodSource("validBlocks")
	void makesTheHeadOfAValidBlock(List<String[]> fields, boolean endStream, String expected) throws Http2Exception {
		RequestFields collector = new RequestFields(ParserLimits.DEFAULTS, false);
		feed(collector, fields);
		RequestHead head = collector.head(STREAM, endStream);
		assertThat(describe(head)).isEqualTo(expected);
		assertThat(head.version()).isSameAs(Version.HTTP_2);
		assertThat(head.keepAlive()).isTrue();
		assertThat(head.hasBody()).isEqualTo(!endStream && head.contentLength() != 0);
		assertThat(collector.tooLarge()).isFalse();
	}

	static Stream<Arguments> invalidBlocks() {
		return Stream.of(
				invalid("an upper-case field name (RFC 9113 §8.2.1)", "Upper-case field name", get("x-Zqx", "1")),
				invalid("a space in a field name (RFC 9113 §8.2.1)", "Invalid character in a field name",
						get("x zqx", "1")),
				invalid("a colon inside a field name (RFC 9113 §8.2.1)", "Invalid character in a field name",
						get("x:zqx", "1")),
				invalid("a non-ASCII field name (RFC 9113 §8.2.1)", "Invalid character in a field name",
						get("x-zqx\u00e9", "1")),
				invalid("an empty field name (RFC 9113 §8.2.1)", "Empty field name", get("", "zqx")),
				invalid("NUL in a value (RFC 9113 §8.2.1)", "NUL, CR or LF", get("x-a", "zqx\u0000")),
				invalid("CR in a value (RFC 9113 §8.2.1)", "NUL, CR or LF", get("x-a", "zqx\rzqx")),
				invalid("LF in a value (RFC 9113 §8.2.1)", "NUL, CR or LF", get("x-a", "zqx\nx-b: 1")),
				invalid("LF in a pseudo-header value (RFC 9113 §8.2.1)", "NUL, CR or LF",
						block(":method", "GET", ":scheme", "https", ":authority", "a", ":path", "/zqx\n")),
				invalid("a value starting with a space (RFC 9113 §8.2.1)", "starting or ending with whitespace",
						get("x-a", " zqx")),
				invalid("a value ending with a tab (RFC 9113 §8.2.1)", "starting or ending with whitespace",
						get("x-a", "zqx\t")),
				invalid("another control character in a value (RFC 9110 §5.5)", "Control character",
						get("x-a", "zqx\u0001")),
				invalid("DEL in a value (RFC 9110 §5.5)", "Control character", get("x-a", "zqx\u007f")),
				invalid("a pseudo-header field after a regular one (RFC 9113 §8.3)", "after a regular field",
						block(":method", "GET", ":scheme", "https", "x-a", "1", ":path", "/zqx", ":authority", "a")),
				invalid("an unknown pseudo-header field (RFC 9113 §8.3)", "Unknown pseudo-header",
						get(":zqx", "1")),
				invalid(":protocol without extended CONNECT enabled (RFC 8441 §3)", "Unknown pseudo-header",
						block(":method", "CONNECT", ":protocol", "zqx", ":scheme", "https", ":path", "/",
								":authority", "a")),
				invalid("the response pseudo-header :status in a request (RFC 9113 §8.3.2)",
						"Response pseudo-header", block(":status", "200", ":method", "GET", ":scheme", "https",
								":path", "/", ":authority", "a")),
				invalid("a repeated :method (RFC 9113 §8.3)", "Repeated pseudo-header",
						block(":method", "GET", ":method", "ZQX", ":scheme", "https", ":path", "/", ":authority", "a")),
				invalid("a repeated :scheme (RFC 9113 §8.3)", "Repeated pseudo-header",
						block(":method", "GET", ":scheme", "https", ":scheme", "zqx", ":path", "/")),
				invalid("a repeated :path (RFC 9113 §8.3)", "Repeated pseudo-header",
						block(":method", "GET", ":scheme", "https", ":path", "/", ":path", "/zqx")),
				invalid("a repeated :authority (RFC 9113 §8.3)", "Repeated pseudo-header",
						get(":authority", "zqx")),
				invalid("no :method (RFC 9113 §8.3.1)", "Missing :method",
						block(":scheme", "https", ":path", "/zqx", ":authority", "a")),
				invalid("no :scheme (RFC 9113 §8.3.1)", "Missing :scheme",
						block(":method", "GET", ":path", "/zqx", ":authority", "a")),
				invalid("no :path (RFC 9113 §8.3.1)", "Missing :path",
						block(":method", "GET", ":scheme", "https", ":authority", "a")),
				invalid("no field at all (RFC 9113 §8.3.1)", "Missing :method", block()),
				invalid("an empty :method (RFC 9113 §8.3.1)", "Empty :method",
						block(":method", "", ":scheme", "https", ":path", "/", ":authority", "a")),
				invalid("a :method that is not a token (RFC 9110 §9.1)", ":method is not a token",
						block(":method", "G(zqx)", ":scheme", "https", ":path", "/", ":authority", "a")),
				invalid("an empty :path (RFC 9113 §8.3.1)", "Empty :path",
						block(":method", "GET", ":scheme", "https", ":path", "", ":authority", "a")),
				invalid("a :path not starting with / (RFC 9113 §8.3.1)", "neither starting with / nor *",
						block(":method", "GET", ":scheme", "https", ":path", "zqx", ":authority", "a")),
				invalid("a :path that is an absolute URI (RFC 9113 §8.3.1)", "neither starting with / nor *",
						block(":method", "GET", ":scheme", "https", ":path", "https://zqx/", ":authority", "a")),
				invalid("* with a method other than OPTIONS (RFC 9112 §3.2.4)", "allowed only with OPTIONS",
						block(":method", "GET", ":scheme", "https", ":path", "*", ":authority", "a")),
				invalid("a space in :path, as a request line refuses it (RFC 9112 §3.2)",
						"Invalid character in the request target",
						block(":method", "GET", ":scheme", "https", ":path", "/zqx zqx", ":authority", "a")),
				invalid("a fragment in :path (RFC 9113 §8.3.1)", "Invalid character in the request target",
						block(":method", "GET", ":scheme", "https", ":path", "/zqx#f", ":authority", "a")),
				invalid("a non-ASCII :path, as a request line refuses it", "Invalid character in the request target",
						block(":method", "GET", ":scheme", "https", ":path", "/zqx\u00e9", ":authority", "a")),
				invalid("an invalid :scheme (RFC 3986 §3.1)", "Invalid :scheme",
						block(":method", "GET", ":scheme", "1zqx", ":path", "/", ":authority", "a")),
				invalid("an http request without :authority or host (RFC 9113 §8.3.1)",
						"without :authority or host", block(":method", "GET", ":scheme", "http", ":path", "/zqx")),
				invalid("connection (RFC 9113 §8.2.2)", "Connection-specific", get("connection", "zqx")),
				invalid("keep-alive (RFC 9113 §8.2.2)", "Connection-specific", get("keep-alive", "zqx")),
				invalid("proxy-connection (RFC 9113 §8.2.2)", "Connection-specific", get("proxy-connection", "zqx")),
				invalid("transfer-encoding (RFC 9113 §8.2.2)", "Connection-specific",
						get("transfer-encoding", "chunked")),
				invalid("upgrade (RFC 9113 §8.2.2)", "Connection-specific", get("upgrade", "zqx")),
				invalid("te other than trailers (RFC 9113 §8.2.2)", "te with a value other than trailers",
						get("te", "zqx")),
				invalid("te listing trailers and more (RFC 9113 §8.2.2)", "te with a value other than trailers",
						get("te", "trailers, zqx")),
				invalid("content-length not digits (RFC 9110 §8.6)", "Invalid content-length", post("content-length",
						"zqx")),
				invalid("a negative content-length (RFC 9110 §8.6)", "Invalid content-length",
						post("content-length", "-1")),
				invalid("a signed content-length (RFC 9110 §8.6)", "Invalid content-length",
						post("content-length", "+1")),
				invalid("an empty content-length (RFC 9110 §8.6)", "Invalid content-length",
						post("content-length", "")),
				invalid("a content-length list, which HTTP/2 has no reason to send (RFC 9110 §8.6)",
						"Invalid content-length", post("content-length", "5, 5")),
				invalid("differing content-length values (RFC 9110 §8.6)", "Differing content-length",
						post("content-length", "5", "content-length", "6")),
				invalid("content-length above 0 with END_STREAM on HEADERS (RFC 9113 §8.1.1)",
						"content-length above 0", post("content-length", "5")),
				invalid("CONNECT with :scheme (RFC 9113 §8.5)", "CONNECT with :scheme or :path",
						block(":method", "CONNECT", ":scheme", "https", ":authority", "a:443")),
				invalid("CONNECT with :path (RFC 9113 §8.5)", "CONNECT with :scheme or :path",
						block(":method", "CONNECT", ":path", "/zqx", ":authority", "a:443")),
				invalid("CONNECT without :authority (RFC 9113 §8.5)", "CONNECT without :authority",
						block(":method", "CONNECT", "host", "zqx:443")),
				invalid("CONNECT to an authority without a port (RFC 9113 §8.5)", "host:port",
						block(":method", "CONNECT", ":authority", "zqx")),
				invalid("userinfo in :authority (RFC 9113 §8.3.1)", "Userinfo in :authority",
						block(":method", "GET", ":scheme", "https", ":authority", "zqx@a", ":path", "/")),
				invalid("an invalid character in :authority (RFC 3986 §3.2.2)", "Invalid character in :authority",
						block(":method", "GET", ":scheme", "https", ":authority", "a/zqx", ":path", "/")),
				invalid("an empty :authority (RFC 9113 §8.3.1)", "Empty :authority",
						block(":method", "GET", ":scheme", "https", ":authority", "", ":path", "/zqx")),
				invalid("an invalid character in host (RFC 3986 §3.2.2)", "Invalid character in host",
						block(":method", "GET", ":scheme", "https", ":path", "/", "host", "a/zqx")),
				invalid("host and :authority naming different hosts (RFC 9113 §8.3.1)", "host differs from :authority",
						get("host", "zqx.example")),
				invalid("two host fields (RFC 9110 §7.2)", "More than one host",
						block(":method", "GET", ":scheme", "https", ":path", "/", "host", "a", "host", "zqx")),
				invalid("the first violation is the one reported", "Upper-case field name",
						get("X-Zqx", "1", "connection", "close", ":status", "200")));
	}

	@ParameterizedTest
	@MethodSource("invalidBlocks")
	void refusesAMalformedBlockWithAStreamError(List<String[]> fields, String reason) {
		RequestFields collector = new RequestFields(ParserLimits.DEFAULTS, false);
		feed(collector, fields);
		// END_STREAM: no row depends on a body following, and content-length above 0 needs it
		Http2Exception error = catchThrowableOfType(Http2Exception.class, () -> collector.head(STREAM, true));
		assertMalformed(error, reason);
		assertThat(collector.tooLarge()).isFalse();
	}

	@Test
	void acceptsProtocolOnlyForCONNECTWhenExtendedCONNECTIsEnabled() throws Http2Exception {
		RequestFields collector = new RequestFields(ParserLimits.DEFAULTS, true);
		feed(collector, block(":method", "CONNECT", ":protocol", "websocket", ":scheme", "https", ":path", "/chat",
				":authority", "a.example"));
		RequestHead head = collector.head(STREAM, false);
		assertThat(describe(head)).isEqualTo("CONNECT /chat ORIGIN /chat HTTP/2.0 [host: a.example] length=-1"
				+ " unknownLength=true expectContinue=false");
		assertThat(collector.protocol()).isEqualTo("websocket");

		feed(collector, get(":protocol", "websocket"));
		assertMalformed(catchThrowableOfType(Http2Exception.class, () -> collector.head(STREAM, true)),
				":protocol on a request other than CONNECT");
		assertThat(collector.protocol()).isNull();

		feed(collector, block(":method", "CONNECT", ":protocol", "websocket", ":scheme", "https", ":path", "/"));
		assertMalformed(catchThrowableOfType(Http2Exception.class, () -> collector.head(STREAM, false)),
				"Extended CONNECT without :authority");

		feed(collector, block(":method", "CONNECT", ":protocol", "websocket", ":authority", "a:443"));
		assertMalformed(catchThrowableOfType(Http2Exception.class, () -> collector.head(STREAM, false)),
				"Missing :scheme");
	}

	// ---- trailers

	@Test
	void makesTrailersFromABlockWithoutPseudoHeaderFields() throws Http2Exception {
		RequestFields collector = new RequestFields(ParserLimits.DEFAULTS, false);
		feed(collector, block("grpc-status", "0", "x-checksum", "abc", "cookie", "a=1", "cookie", "b=2"));
		Headers trailers = collector.trailers(STREAM);
		assertThat(describe(trailers)).isEqualTo("[grpc-status: 0, x-checksum: abc, cookie: a=1; b=2]");

		feed(collector, block());
		assertThat(collector.trailers(STREAM).isEmpty()).isTrue();
	}

	static Stream<Arguments> invalidTrailers() {
		return Stream.of(argumentSet("a pseudo-header field (RFC 9113 §8.1)", block(":path", "/zqx"), "Pseudo-header"),
				argumentSet("a pseudo-header field after a regular one (RFC 9113 §8.1)",
						block("x-a", "1", ":status", "200"), "Pseudo-header field after a regular field"),
				argumentSet("an upper-case name (RFC 9113 §8.2.1)", block("X-Zqx", "1"), "Upper-case field name"),
				argumentSet("CR in a value (RFC 9113 §8.2.1)", block("x-a", "zqx\r"), "NUL, CR or LF"),
				argumentSet("a connection-specific field (RFC 9113 §8.2.2)", block("connection", "zqx"),
						"Connection-specific"),
				argumentSet("te other than trailers (RFC 9113 §8.2.2)", block("te", "zqx"), "te with a value"));
	}

	@ParameterizedTest
	@MethodSource("invalidTrailers")
	void refusesMalformedTrailersWithAStreamError(List<String[]> fields, String reason) {
		RequestFields collector = new RequestFields(ParserLimits.DEFAULTS, false);
		feed(collector, fields);
		assertMalformed(catchThrowableOfType(Http2Exception.class, () -> collector.trailers(STREAM)), reason);
	}

	@Test
	void givesTheHeadItsTrailers() throws Http2Exception {
		RequestFields collector = new RequestFields(ParserLimits.DEFAULTS, false);
		feed(collector, post());
		RequestHead head = collector.head(STREAM, false);
		assertThat(head.trailers().isEmpty()).isTrue();
		feed(collector, block("x-sum", "7"));
		head.trailers(collector.trailers(STREAM));
		assertThat(head.trailers().get("X-Sum")).isEqualTo("7");
	}

	// ---- limits and reuse

	@Test
	void refusesMoreRegularFieldsThanTheLimitAsTooLarge() throws Http2Exception {
		ParserLimits three = new ParserLimits(100, 1000, 3, 1000);
		RequestFields collector = new RequestFields(three, false);
		feed(collector, get("a", "1", "b", "2", "cookie", "c=3"));
		assertThat(collector.head(STREAM, true).headers().size()).isEqualTo(4);
		assertThat(collector.tooLarge()).isFalse();

		feed(collector, get("a", "1", "b", "2", "cookie", "c=3", "cookie", "d=4"));
		assertMalformed(catchThrowableOfType(Http2Exception.class, () -> collector.head(STREAM, true)),
				"More than 3 header fields");
		assertThat(collector.tooLarge()).isTrue();

		feed(collector, block("a", "1", "b", "2", "c", "3", "d", "4"));
		assertMalformed(catchThrowableOfType(Http2Exception.class, () -> collector.trailers(STREAM)),
				"More than 3 header fields");
		assertThat(collector.tooLarge()).isTrue();

		// a violation before the limit is reached is malformed, not too large
		feed(collector, get("A", "1", "b", "2", "c", "3", "d", "4"));
		assertMalformed(catchThrowableOfType(Http2Exception.class, () -> collector.head(STREAM, true)),
				"Upper-case field name");
		assertThat(collector.tooLarge()).isFalse();
	}

	@Test
	void servesEveryBlockOfAConnectionWithOneInstance() throws Http2Exception {
		RequestFields collector = new RequestFields(ParserLimits.DEFAULTS, false);
		feed(collector, get("cookie", "a=1", "cookie", "b=2", "content-length", "0"));
		RequestHead first = collector.head(1, true);

		feed(collector, get("connection", "close"));
		assertMalformed(catchThrowableOfType(Http2Exception.class, () -> collector.head(3, true)),
				"Connection-specific");

		feed(collector, get(":authority", "b"));
		collector.reset();
		feed(collector, block(":method", "GET", ":scheme", "https", ":path", "/two", ":authority", "b", "cookie", "c=3"));
		RequestHead second = collector.head(5, true);

		assertThat(describe(first)).isEqualTo("GET / ORIGIN / HTTP/2.0 [content-length: 0, cookie: a=1; b=2,"
				+ " host: a.example] length=0 unknownLength=false expectContinue=false");
		assertThat(describe(second)).isEqualTo("GET /two ORIGIN /two HTTP/2.0 [cookie: c=3, host: b] length=-1"
				+ " unknownLength=false expectContinue=false");
		assertThat(first.headers()).isNotSameAs(second.headers());
	}

	@Test
	void reportsTheStreamTheBlockBelongsTo() {
		RequestFields collector = new RequestFields(ParserLimits.DEFAULTS, false);
		feed(collector, get("upgrade", "h2c"));
		Http2Exception error = catchThrowableOfType(Http2Exception.class, () -> collector.head(7, true));
		assertThat(error.streamId()).isEqualTo(7);
		assertThat(error.isConnectionError()).isFalse();
	}

	private static void assertMalformed(Http2Exception error, String reason) {
		assertThat(error).as("a stream error").isNotNull();
		assertThat(error.isConnectionError()).isFalse();
		assertThat(error.streamId()).isIn(STREAM, 7);
		assertThat(error.error()).isEqualTo(ErrorCode.PROTOCOL_ERROR);
		assertThat(error.reason()).contains(reason);
		assertThat(error.reason().toLowerCase()).doesNotContain("zqx");
	}

	private static List<String[]> post(String... more) {
		List<String[]> fields = block(":method", "POST", ":scheme", "https", ":authority", "a", ":path", "/in");
		fields.addAll(block(more));
		return fields;
	}

	private static Arguments valid(String rule, List<String[]> fields, boolean endStream, String expected) {
		return argumentSet(rule, fields, endStream, expected);
	}

	private static Arguments invalid(String rule, String reason, List<String[]> fields) {
		return argumentSet(rule, fields, reason);
	}

}
