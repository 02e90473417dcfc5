package dev.ariadne.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class StatusTest {

	static Stream<Status> constants() {
		return Arrays.stream(Status.class.getFields())
			.filter((field) -> Modifier.isStatic(field.getModifiers()) && field.getType() == Status.class)
			.map(StatusTest::valueOf);
	}

	@ParameterizedTest
	@MethodSource("constants")
	void ofReturnsEveryConstant(Status constant) {
		assertThat(Status.of(constant.code())).isSameAs(constant);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			101 | Switching Protocols
			201 | Created
			308 | Permanent Redirect
			422 | Unprocessable Content
			451 | Unavailable For Legal Reasons
			504 | Gateway Timeout
			""")
	void ofGivesTheRfc9110ReasonPhrase(int code, String reason) {
		assertThat(Status.of(code)).isEqualTo(new Status(code, reason));
	}

	@Test
	void ofKeepsAnUnregisteredCodeWithAnEmptyReason() {
		assertThat(Status.of(299)).isEqualTo(new Status(299, ""));
		assertThat(Status.of(799)).isEqualTo(new Status(799, ""));
	}

	@ParameterizedTest
	@ValueSource(ints = { -1, 0, 99, 1000 })
	void rejectsCodesOutsideThreeDigits(int code) {
		assertThatIllegalArgumentException().isThrownBy(() -> Status.of(code)).withMessageContaining("" + code);
		assertThatIllegalArgumentException().isThrownBy(() -> new Status(code, "Reason"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "Bad\r\nX-Injected: yes", "Bad\nRequest", "Bad\rRequest" })
	void rejectsAReasonPhraseThatWouldBreakTheStatusLine(String reason) {
		assertThatIllegalArgumentException().isThrownBy(() -> new Status(400, reason));
	}

	@Test
	void rejectsAMissingReasonPhrase() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Status(400, null));
	}

	@ParameterizedTest
	@CsvSource({ "100, true", "101, true", "199, true", "204, true", "304, true", "200, false", "205, false",
			"303, false", "404, false", "500, false" })
	void forbidsContentFor1xx204And304(int code, boolean forbidden) {
		assertThat(Status.of(code).forbidsContent()).isEqualTo(forbidden);
	}

	private static Status valueOf(Field field) {
		try {
			return (Status) field.get(null);
		}
		catch (IllegalAccessException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
