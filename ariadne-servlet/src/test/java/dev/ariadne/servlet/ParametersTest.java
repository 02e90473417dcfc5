package dev.ariadne.servlet;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Parameters decoded from url-encoded text and bytes, and the most parameters a request may
 * have.
 */
class ParametersTest {

	@ParameterizedTest(name = "''{0}'' within {1}")
	@CsvSource(delimiter = '|', textBlock = """
			a=1&b=2       | 2 | a,b
			a=1&&b=2&     | 2 | a,b
			a=1&a=2       | 2 | a
			a=%ZZ&b=2&c   | 3 | b,c
			a             | 1 | a
			""")
	void acceptsAsManyPairsAsTheLimitCountingRepeatsAndMalformedPairsButNotEmptyOnes(String text, int max,
			String names) {
		Parameters fromText = new Parameters(max);
		fromText.addEncoded(text, StandardCharsets.UTF_8);
		Parameters fromBytes = new Parameters(max);
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		fromBytes.addEncoded(bytes, 0, bytes.length, StandardCharsets.UTF_8);
		assertThat(fromText.names()).containsExactly(names.split(","));
		assertThat(fromBytes.names()).containsExactly(names.split(","));
	}

	@ParameterizedTest(name = "''{0}'' within {1}")
	@CsvSource(delimiter = '|', textBlock = """
			a=1&b=2&c=3     | 2
			a=1&&&b=2&c     | 2
			a=1&a=1&a=1     | 2
			a=%ZZ&b=%ZZ&c=1 | 2
			x               | 0
			""")
	void refusesThePairPastTheLimitWith400NamingTheProperty(String text, int max) {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		assertThatExceptionOfType(StatusException.class)
			.isThrownBy(() -> new Parameters(max).addEncoded(bytes, 0, bytes.length, StandardCharsets.UTF_8))
			.satisfies((ex) -> {
				assertThat(ex.status()).isEqualTo(400);
				assertThat(ex.shown()).isTrue();
			})
			.withMessage("More than " + max + " request parameters (ariadne.server.request.max-parameters)");
		assertThatExceptionOfType(StatusException.class)
			.isThrownBy(() -> new Parameters(max).addEncoded(text, StandardCharsets.UTF_8));
	}

	@Test
	void countsTheQueryStringFormAndFieldsTogetherAndKeepsNothingPastTheLimit() {
		Parameters parameters = new Parameters(4);
		parameters.addEncoded("a=1&b=2", StandardCharsets.UTF_8);
		byte[] form = "c=3&d=4&e=5&f=6".getBytes(StandardCharsets.US_ASCII);
		assertThatExceptionOfType(StatusException.class)
			.isThrownBy(() -> parameters.addEncoded(form, 0, form.length, StandardCharsets.US_ASCII));
		assertThat(parameters.asMap()).containsOnlyKeys("a", "b", "c", "d");
		assertThatExceptionOfType(StatusException.class).isThrownBy(() -> parameters.add("field", "x"));
		assertThat(parameters.first("field")).isNull();
	}

	@ParameterizedTest(name = "''{0}'' in {1}")
	@CsvSource(delimiter = '|', textBlock = """
			a=1&b=%E2%82%AC+x&a=2&empty&c= | UTF-8      | a=1,2;b=€ x;empty=;c=;
			q=caf%E9&r=%26                 | ISO-8859-1 | q=café;r=&;
			k%3D=v%3D%3D&%2B=+             | UTF-8      | k==v==;+= ;
			a=%ZZ&b=%4&c=%4G&d=ok&e=%      | UTF-8      | d=ok;
			=nameless&novalue=             | UTF-8      | =nameless;novalue=;
			""")
	void decodesBytesAsTheTextItSpells(String text, String charset, String expected) {
		Charset encoding = Charset.forName(charset);
		byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
		Parameters parameters = new Parameters(100);
		parameters.addEncoded(bytes, 0, bytes.length, encoding);
		assertThat(describe(parameters.asMap())).isEqualTo(expected);
	}

	@Test
	void decodesRawBytesOfTheCharsetOutsideTheEscapes() {
		byte[] bytes = "name=café&other=€".getBytes(StandardCharsets.UTF_8);
		Parameters parameters = new Parameters(10);
		parameters.addEncoded(bytes, 0, bytes.length, StandardCharsets.UTF_8);
		assertThat(parameters.first("name")).isEqualTo("café");
		assertThat(parameters.first("other")).isEqualTo("€");
	}

	@Test
	void givesTheSameUnmodifiableMapOnEveryCall() {
		Parameters parameters = new Parameters(10);
		parameters.addEncoded("a=1&b=2", StandardCharsets.UTF_8);
		Map<String, String[]> map = parameters.asMap();
		assertThat(parameters.asMap()).isSameAs(map);
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> map.put("c", new String[0]));
	}

	@Test
	void estimatesTheMemoryOfWhatItParsedTwiceForTextBeyondLatin1() {
		Parameters latin = new Parameters(10);
		latin.add("name", "x".repeat(1000));
		Parameters wide = new Parameters(10);
		wide.add("name", "€".repeat(1000));
		assertThat(latin.memory()).isBetween(1004L, 1004L + 256);
		assertThat(wide.memory()).isBetween(2004L, 2004L + 256);
	}

	private static String describe(Map<String, String[]> map) {
		StringBuilder text = new StringBuilder();
		map.forEach((name, values) -> text.append(name).append('=').append(String.join(",", values)).append(';'));
		return text.toString();
	}

}
