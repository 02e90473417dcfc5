package dev.ariadne.servlet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code Range} headers against a representation's length (RFC 9110 section 14.2): what is sent,
 * as {@code first-last} pairs in the order asked, {@code whole} for a header that is absent or
 * ignored, {@code unsatisfiable} for 416.
 */
class ByteRangesTest {

	@ParameterizedTest(name = "[{0}] of {1} -> {2}")
	@CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
			NULL                         | 100 | whole
			bytes=0-9                    | 100 | 0-9
			bytes=0-0                    | 100 | 0-0
			bytes=90-                    | 100 | 90-99
			bytes=-10                    | 100 | 90-99
			bytes=-100                   | 100 | 0-99
			bytes=-1000                  | 100 | 0-99
			bytes=0-                     | 100 | 0-99
			bytes=50-1000                | 100 | 50-99
			bytes=99-99                  | 100 | 99-99
			BYTES=0-9                    | 100 | 0-9
			Bytes=0-9                    | 100 | 0-9
			bytes=0-9,20-29              | 100 | 0-9,20-29
			bytes=20-29,0-9              | 100 | 20-29,0-9
			bytes=0-9, 20-29             | 100 | 0-9,20-29
			bytes= 0-9 ,20-29            | 100 | 0-9,20-29
			bytes=0-9,,20-29             | 100 | 0-9,20-29
			bytes=0-9,200-300            | 100 | 0-9
			bytes=0-9,-5                 | 100 | 0-9,95-99
			bytes=100-                   | 100 | unsatisfiable
			bytes=100-200                | 100 | unsatisfiable
			bytes=100-,200-              | 100 | unsatisfiable
			bytes=-0                     | 100 | unsatisfiable
			bytes=0-                     | 0   | unsatisfiable
			bytes=-5                     | 0   | unsatisfiable
			bytes=0-9,5-14               | 100 | whole
			bytes=0-9,9-14               | 100 | whole
			bytes=-10,95-                | 100 | whole
			bytes=0-,50-60               | 100 | whole
			bytes=9-0                    | 100 | whole
			bytes=a-9                    | 100 | whole
			bytes=0-9a                   | 100 | whole
			bytes=0 -9                   | 100 | whole
			bytes=-                      | 100 | whole
			bytes=--5                    | 100 | whole
			bytes=0-9;x                  | 100 | whole
			bytes=                       | 100 | whole
			bytes=,                      | 100 | whole
			bytes=0-9,x                  | 100 | whole
			bytes=1234567890123456789-   | 100 | whole
			bytes=0-1234567890123456789  | 100 | whole
			bytes=0-123456789012345678   | 100 | 0-99
			items=0-9                    | 100 | whole
			0-9                          | 100 | whole
			bytes 0-9                    | 100 | whole
			""")
	void readsTheRangesOfAHeader(String header, long length, String expected) {
		assertThat(ByteRanges.parse(header, length)).hasToString(expected);
	}

	@Test
	void servesUpToSixteenRangesAndTheWholeBeyond() {
		StringBuilder sixteen = new StringBuilder("bytes=");
		for (int i = 0; i < ByteRanges.MAX_RANGES; i++) {
			sixteen.append((i > 0) ? "," : "").append(2 * i).append('-').append(2 * i);
		}
		ByteRanges ranges = ByteRanges.parse(sixteen.toString(), 100);
		assertThat(ranges.count()).isEqualTo(16);
		assertThat(ranges.first(15)).isEqualTo(30);
		assertThat(ByteRanges.parse(sixteen + ",40-40", 100).whole()).isTrue();
		// ranges beyond the end count for nothing
		assertThat(ByteRanges.parse(sixteen + ",400-400", 100).count()).isEqualTo(16);
	}

	@Test
	void namesEachRangeForItsContentRange() {
		ByteRanges ranges = ByteRanges.parse("bytes=-3,0-1", 10);
		assertThat(ranges.contentRange(0, 10)).isEqualTo("bytes 7-9/10");
		assertThat(ranges.length(0)).isEqualTo(3);
		assertThat(ranges.contentRange(1, 10)).isEqualTo("bytes 0-1/10");
		assertThat(ranges.length(1)).isEqualTo(2);
	}

}
