package dev.ariadne.http;

import static dev.ariadne.http.Wire.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.nio.ByteBuffer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link ParserLimits}: each is accepted exactly at its value and answered with its status one
 * byte (or one field) past it, and an endless line fails as soon as it passes its limit, so the
 * parser never buffers more than the limits allow.
 */
class RequestParserLimitsTest {

	private static final ParserLimits SMALL = new ParserLimits(32, 64, 4, 10);

	/** Size of the pieces an endless request is fed in. */
	private static final int PIECE = 7;

	static Stream<Arguments> requestsAtTheLimits() {
		return Stream.of(
				argumentSet("request line of maxLineLength bytes", requestLine(32, "\r\n") + "Host: a\r\n\r\n"),
				argumentSet("request line of maxLineLength bytes, bare LF", requestLine(32, "\n") + "Host: a\n\n"),
				argumentSet("header section of maxHeaderSize bytes, final CRLF included",
						"GET / HTTP/1.1\r\nHost: a\r\nX: " + "v".repeat(48) + "\r\n\r\n"),
				argumentSet("header section of maxHeaderSize bytes, bare LF",
						"GET / HTTP/1.1\nHost: a\nX: " + "v".repeat(51) + "\n\n"),
				argumentSet("maxHeaderCount fields", "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"),
				argumentSet("declared body of maxBodySize bytes",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789"),
				argumentSet("chunked body of maxBodySize bytes", chunked("4\r\n0123\r\n6\r\n456789\r\n0\r\n\r\n")),
				argumentSet("trailer section of maxHeaderSize bytes", chunked("0\r\nX: " + "v".repeat(57) + "\r\n\r\n")),
				argumentSet("maxHeaderCount trailer fields", chunked("0\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n")));
	}

	static Stream<Arguments> requestsPastTheLimits() {
		return Stream.of(
				argumentSet("request line one byte over maxLineLength -> 414",
						requestLine(33, "\r\n") + "Host: a\r\n\r\n", 414),
				argumentSet("request line one byte over maxLineLength, bare LF -> 414",
						requestLine(33, "\n") + "Host: a\n\n", 414),
				argumentSet("header section one byte over maxHeaderSize -> 431",
						"GET / HTTP/1.1\r\nHost: a\r\nX: " + "v".repeat(49) + "\r\n\r\n", 431),
				argumentSet("header section one byte over maxHeaderSize, bare LF -> 431",
						"GET / HTTP/1.1\nHost: a\nX: " + "v".repeat(52) + "\n\n", 431),
				argumentSet("one field more than maxHeaderCount -> 431",
						"GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", 431),
				argumentSet("declared body one byte over maxBodySize, head only -> 413",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", 413),
				argumentSet("declared body beyond the range of a long -> 413",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
				argumentSet("chunked body one byte over maxBodySize, before the chunk's data -> 413",
						chunked("4\r\n0123\r\n7\r\n"), 413),
				argumentSet("largest chunk size a long holds -> 413", chunked("7fffffffffffffff\r\n"), 413),
				argumentSet("trailer section one byte over maxHeaderSize -> 431",
						chunked("0\r\nX: " + "v".repeat(58) + "\r\n\r\n"), 431),
				argumentSet("one trailer field more than maxHeaderCount -> 431",
						chunked("0\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n"), 431));
	}

	@ParameterizedTest
	@MethodSource("requestsAtTheLimits")
	void acceptsRequestsAtTheLimits(String request) throws HttpParseException {
		assertThat(Wire.feed(SMALL, Wire.whole(bytes(request)))).last().asString().startsWith("complete");
		assertThat(Wire.feed(SMALL, Wire.pieces(bytes(request), 1))).last().asString().startsWith("complete");
	}

	@ParameterizedTest
	@MethodSource("requestsPastTheLimits")
	void rejectsRequestsPastTheLimits(String request, int status) {
		assertThat(Wire.statusOf(SMALL, Wire.whole(bytes(request)))).isEqualTo(status);
		assertThat(Wire.statusOf(SMALL, Wire.pieces(bytes(request), 1))).isEqualTo(status);
	}

	@Test
	void rejectsADeclaredBodyOverTheLimitBeforeReportingTheHead() {
		RecordingSink sink = new RecordingSink();
		RequestParser parser = new RequestParser(SMALL, sink);
		ByteBuffer head = ByteBuffer.wrap(bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n"));
		assertThatExceptionOfType(HttpParseException.class).isThrownBy(() -> parser.parse(head))
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(Status.CONTENT_TOO_LARGE_413));
		assertThat(sink.events()).isEmpty();
	}

	@Test
	void acceptsOnlyBodilessRequestsWhenMaxBodySizeIsZero() throws HttpParseException {
		ParserLimits noBody = new ParserLimits(32, 64, 4, 0);
		assertThat(Wire.feed(noBody, Wire.whole(bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"))))
			.last()
			.isEqualTo("complete");
		assertThat(Wire.feed(noBody, Wire.whole(bytes(chunked("0\r\n\r\n"))))).last().isEqualTo("complete");
		assertThat(Wire.statusOf(noBody, Wire.whole(bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\n"))))
			.isEqualTo(413);
		assertThat(Wire.statusOf(noBody, Wire.whole(bytes(chunked("1\r\n"))))).isEqualTo(413);
	}

	@Test
	void failsAnEndlessRequestLineAsSoonAsItPassesMaxLineLength() {
		ParserLimits limits = new ParserLimits(64, 1024, 10, 10);
		Rejection rejection = feedEndlessly(limits, "GET /", "a");
		assertThat(rejection.status()).isEqualTo(414);
		// one byte of slack for a CR that may still come
		assertThat(rejection.fed()).isGreaterThan(64).isLessThanOrEqualTo(64 + 1 + PIECE);
	}

	@Test
	void failsAnEndlessFieldLineAsSoonAsTheSectionPassesMaxHeaderSize() {
		String requestLine = "GET / HTTP/1.1\r\n";
		Rejection rejection = feedEndlessly(new ParserLimits(64, 128, 10, 10), requestLine + "Host: a\r\nX: ", "a");
		assertThat(rejection.status()).isEqualTo(431);
		assertThat(rejection.fed() - requestLine.length()).isGreaterThan(128).isLessThanOrEqualTo(128 + PIECE);
	}

	@Test
	void failsEndlesslyManyShortFieldsAsSoonAsTheSectionPassesMaxHeaderSize() {
		String requestLine = "GET / HTTP/1.1\r\n";
		Rejection rejection = feedEndlessly(new ParserLimits(64, 128, 1000, 10), requestLine + "Host: a\r\n", "X: a\r\n");
		assertThat(rejection.status()).isEqualTo(431);
		assertThat(rejection.fed() - requestLine.length()).isGreaterThan(128).isLessThanOrEqualTo(128 + PIECE);
	}

	@Test
	void failsAnEndlessChunkSizeLineAsSoonAsItPassesItsLimit() {
		String head = chunked("");
		Rejection rejection = feedEndlessly(SMALL, head + "1;ext=", "a");
		assertThat(rejection.status()).isEqualTo(400);
		assertThat(rejection.fed() - head.length()).isGreaterThan(RequestParser.MAX_CHUNK_LINE_LENGTH)
			.isLessThanOrEqualTo(RequestParser.MAX_CHUNK_LINE_LENGTH + PIECE);
	}

	@Test
	void failsEndlessBytesAfterChunkDataAsSoonAsTheyCannotBeItsCrlf() {
		String data = chunked("3\r\nabc");
		Rejection rejection = feedEndlessly(SMALL, data, "x");
		assertThat(rejection.status()).isEqualTo(400);
		// the first byte might be the CR of the CRLF; the second cannot be
		assertThat(rejection.fed() - data.length()).isGreaterThan(1).isLessThanOrEqualTo(1 + PIECE);
	}

	@Test
	void failsAnEndlessTrailerLineAsSoonAsTheSectionPassesMaxHeaderSize() {
		String body = chunked("0\r\n");
		Rejection rejection = feedEndlessly(SMALL, body + "X: ", "a");
		assertThat(rejection.status()).isEqualTo(431);
		assertThat(rejection.fed() - body.length()).isGreaterThan(64).isLessThanOrEqualTo(64 + PIECE);
	}

	@Test
	void failsEndlessEmptyLinesBeforeTheRequestLine() {
		Rejection rejection = feedEndlessly(SMALL, "", "\r\n");
		assertThat(rejection.status()).isEqualTo(400);
		int tolerated = 2 * RequestParser.MAX_LEADING_EMPTY_LINES;
		assertThat(rejection.fed()).isGreaterThan(tolerated).isLessThanOrEqualTo(tolerated + 2 + PIECE);
	}

	/**
	 * Feeds {@code prefix} and then {@code repeated} over and over, in pieces of {@link #PIECE}
	 * bytes through one small reused buffer, until the parser throws.
	 */
	private static Rejection feedEndlessly(ParserLimits limits, String prefix, String repeated) {
		RequestParser parser = new RequestParser(limits, new RecordingSink());
		byte[] start = bytes(prefix);
		byte[] unit = bytes(repeated);
		ByteBuffer in = ByteBuffer.allocate(PIECE);
		long fed = 0;
		while (fed < 1_000_000) {
			while (in.hasRemaining()) {
				in.put((fed < start.length) ? start[(int) fed] : unit[(int) ((fed - start.length) % unit.length)]);
				fed++;
			}
			in.flip();
			try {
				parser.parse(in);
			}
			catch (HttpParseException ex) {
				return new Rejection(ex.status().code(), fed);
			}
			in.compact();
		}
		throw new AssertionError("No limit stopped a request of " + fed + " bytes");
	}

	private static String requestLine(int length, String lineEnd) {
		String line = "GET /" + "a".repeat(length - "GET / HTTP/1.1".length()) + " HTTP/1.1";
		assertThat(line).hasSize(length);
		return line + lineEnd;
	}

	private static String chunked(String body) {
		return "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + body;
	}

	/** The status a parser threw, and how many bytes it had been given by then. */
	private record Rejection(int status, long fed) {
	}

}
