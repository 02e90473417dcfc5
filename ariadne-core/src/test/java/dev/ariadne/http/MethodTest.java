package dev.ariadne.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class MethodTest {

	static Stream<Arguments> standardMethods() {
		return Stream.of(Arguments.of("GET", Method.GET), Arguments.of("HEAD", Method.HEAD),
				Arguments.of("POST", Method.POST), Arguments.of("PUT", Method.PUT),
				Arguments.of("DELETE", Method.DELETE), Arguments.of("PATCH", Method.PATCH),
				Arguments.of("OPTIONS", Method.OPTIONS), Arguments.of("TRACE", Method.TRACE),
				Arguments.of("CONNECT", Method.CONNECT));
	}

	@ParameterizedTest
	@MethodSource("standardMethods")
	void ofReturnsTheConstantForAStandardMethod(String name, Method constant) {
		assertThat(Method.of(name)).isSameAs(constant);
		assertThat(constant.name()).isEqualTo(name);
	}

	@ParameterizedTest
	@MethodSource("standardMethods")
	void theParserReturnsTheConstantForAStandardMethod(String name, Method constant) {
		byte[] line = Wire.bytes(" " + name + " ");
		assertThat(Method.of(line, 1, line.length - 1)).isSameAs(constant);
	}

	@Test
	void ofAcceptsAnyTokenAsAnExtensionMethodComparedByName() {
		Method propfind = Method.of("PROPFIND");
		assertThat(propfind.name()).isEqualTo("PROPFIND");
		assertThat(propfind).isEqualTo(Method.of("PROPFIND")).hasSameHashCodeAs(Method.of("PROPFIND"));
		assertThat(propfind).isNotEqualTo(Method.GET);
		assertThat(Method.of("!#$%&'*+-.^_`|~09")).hasToString("!#$%&'*+-.^_`|~09");
	}

	@Test
	void methodNamesAreCaseSensitive() {
		Method lower = Method.of("get");
		assertThat(lower).isNotSameAs(Method.GET).isNotEqualTo(Method.GET);
		assertThat(lower.name()).isEqualTo("get");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "GE T", "GET/", "GET\r\n", "G\u00e9T", "(GET)", "GET:" })
	void ofRejectsANameThatIsNotAToken(String name) {
		assertThatIllegalArgumentException().isThrownBy(() -> Method.of(name)).withMessageContaining("token");
	}

	@Test
	void ofRejectsNull() {
		assertThatNullPointerException().isThrownBy(() -> Method.of(null));
	}

}
