package dev.ariadne.servlet;

import java.util.Arrays;
import java.util.List;

import jakarta.servlet.http.Cookie;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@code Cookie} fields of a request, and the most cookies a request may have.
 */
class CookieCodecTest {

	@ParameterizedTest(name = "{0} within {1}")
	@CsvSource(delimiter = '|', textBlock = """
			a=1; b="quoted"; $Version=1; bad name=x;c=    | 3 | a=1;b=quoted;c=;
			a=1; b=2 && c=3                               | 3 | a=1;b=2;c=3;
			a=1; $Path=/; bad name=x; ;;                  | 1 | a=1;
			""")
	void acceptsAsManyCookiesAsTheLimitNotCountingWhatIsSkipped(String fields, int max, String expected) {
		List<Cookie> cookies = CookieCodec.parse(Arrays.asList(fields.split("&&")), max);
		StringBuilder text = new StringBuilder();
		cookies.forEach((cookie) -> text.append(cookie.getName()).append('=').append(cookie.getValue()).append(';'));
		assertThat(text.toString()).isEqualTo(expected);
	}

	@ParameterizedTest(name = "{0} within {1}")
	@CsvSource(delimiter = '|', textBlock = """
			a=1; b=2; c=3          | 2
			a=1; b=2 && c=3        | 2
			a=1; a=1               | 1
			a=1                    | 0
			""")
	void refusesTheCookiePastTheLimitWith400NamingTheProperty(String fields, int max) {
		assertThatExceptionOfType(StatusException.class)
			.isThrownBy(() -> CookieCodec.parse(Arrays.asList(fields.split("&&")), max))
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(400))
			.withMessage("More than " + max + " cookies (ariadne.server.request.max-cookies)");
	}

}
