package dev.ariadne.http;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a chunked body ends, found in bytes as they arrive: only once the last chunk and the
 * trailer section are complete, however the bytes are split, and at once for bytes the parser
 * refuses.
 */
class ChunkedScannerTest {

	@ParameterizedTest
	@ValueSource(strings = { "0\r\n\r\n", "5\r\nhello\r\n0\r\n\r\n", "5;ext=v\r\nhello\r\n0;last\r\n\r\n",
			"3\r\n\r\n\n\r\n0\r\nTrailer: x\r\nMore: y\r\n\r\n", "A\r\n0123456789\r\n1\r\n0\r\n0\r\n\r\n",
			"0000000005\r\nhello\r\n0\r\n\r\n" })
	void endsExactlyAtTheEndOfTheTrailerSectionWhereverTheBytesAreSplit(String body) {
		int end = body.length();
		// the body starts at 3 in a buffer with bytes before it, and a pipelined request after it
		byte[] buffer = ("abc" + body + "GET /next HTTP/1.1\r\n").getBytes(StandardCharsets.ISO_8859_1);
		for (int split = 0; split <= end; split++) {
			ChunkedScanner scanner = new ChunkedScanner(ParserLimits.DEFAULTS);
			assertThat(scanner.ended(buffer, 3, 3 + split)).as("%s ended after %d of %d bytes", body, split, end)
				.isEqualTo(split == end);
			assertThat(scanner.ended(buffer, 3, 3 + end)).as("%s, the rest after %d bytes", body, split).isTrue();
		}
		ChunkedScanner oneByOne = new ChunkedScanner(ParserLimits.DEFAULTS);
		for (int arrived = 0; arrived <= end; arrived++) {
			assertThat(oneByOne.ended(buffer, 3, 3 + arrived)).as("%s a byte at a time, %d", body, arrived)
				.isEqualTo(arrived == end);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "x\r\n", "5\nhello", "5 \r\n", "5\r\nhello\n", "5\r\nhelloXY", "0\r\nTrailer: x\n",
			"0\r\n\rX", "5;ext\nhello" })
	void answersEndedAtOnceForBytesTheParserRefuses(String body) {
		byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
		assertThat(new ChunkedScanner(ParserLimits.DEFAULTS).ended(bytes, 0, bytes.length)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "10001\r\n", "9\r\n123456789\r\nffff\r\n" })
	void answersEndedAtOnceForAChunkPastTheBodyLimit(String body) {
		byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
		ParserLimits limits = new ParserLimits(100, 100, 10, 0x10000);
		assertThat(new ChunkedScanner(limits).ended(bytes, 0, bytes.length)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "5\r\nhel", "5\r\nhello\r\n", "5\r\nhello\r\n0\r\n", "5\r\nhello\r\n0\r\nTrailer: x\r\n",
			"fffff\r\n" })
	void waitsForTheRestOfAnUnfinishedBody(String body) {
		byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
		assertThat(new ChunkedScanner(ParserLimits.DEFAULTS).ended(bytes, 0, bytes.length)).isFalse();
	}

}
