package dev.ariadne.servlet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MediaTypes}.
 */
class MediaTypesTest {

	@ParameterizedTest(name = "[{0}] -> [{1}]")
	@CsvSource(delimiter = '|', textBlock = """
			text/plain                                    | text/plain
			' application/json '                          | application/json
			multipart/byteranges; boundary=AbC            | multipart/byteranges; boundary=AbC
			multipart/byteranges;boundary=AbC             | multipart/byteranges;boundary=AbC
			text/html; charset=UTF-8                      | text/html
			text/html;charset=UTF-8; level=1              | text/html; level=1
			text/html; level=1; Charset="utf-8"           | text/html; level=1
			multipart/mixed; boundary="a;charset=b"; charset=x | multipart/mixed; boundary="a;charset=b"
			""")
	void removesOnlyTheCharsetAndKeepsTheOtherParametersAsWritten(String contentType, String expected) {
		assertThat(MediaTypes.withoutCharset(contentType)).isEqualTo(expected);
	}

}
