package dev.ariadne.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HeadersTest {

	@Test
	void writesCountsAddedFieldsAndReplacedValuesButNotRemovals() {
		Headers headers = new Headers();
		assertThat(headers.writes()).isZero();
		headers.add("A", "1").add("B", "2");
		assertThat(headers.writes()).isEqualTo(2);
		headers.set("A", "3");
		assertThat(headers.writes()).isEqualTo(3);
		headers.set("C", "4");
		assertThat(headers.writes()).isEqualTo(4);
		headers.remove("B");
		headers.clear();
		assertThat(headers.writes()).isEqualTo(4);
	}

	@Test
	void lowerCaseMakesTheServersOwnNamesOnceAndLeavesLowerCaseNamesAsTheyAre() {
		String contentType = HeaderName.lowerCase("Content-Type");
		assertThat(contentType).isEqualTo("content-type").isSameAs(HeaderName.lowerCase(HeaderName.CONTENT_TYPE));
		assertThat(HeaderName.lowerCase("Date")).isEqualTo("date").isSameAs(HeaderName.lowerCase("Date"));
		String mine = "x-mine";
		assertThat(HeaderName.lowerCase(mine)).isSameAs(mine);
		String built = new StringBuilder("Content-").append("Type").toString();
		assertThat(HeaderName.lowerCase(built)).isEqualTo("content-type");
		assertThat(HeaderName.lowerCase("X-Custom-Header-Of-A-Length-Beyond-Every-Known-One")).isEqualTo(
				"x-custom-header-of-a-length-beyond-every-known-one");
	}

	@Test
	void getFindsTheFirstValueWhateverTheCaseOfTheName() {
		Headers headers = new Headers().add("Content-Type", "text/plain").add("content-type", "text/html");
		assertThat(headers.get("CONTENT-TYPE")).isEqualTo("text/plain");
		assertThat(headers.get("content-type")).isEqualTo("text/plain");
		assertThat(headers.get("Content-Length")).isNull();
		assertThat(headers.contains("cOnTeNt-TyPe")).isTrue();
		assertThat(headers.contains("Content-Length")).isFalse();
	}

	@Test
	void allReturnsEveryValueOfTheNameInArrivalOrder() {
		Headers headers = new Headers().add("Accept", "a").add("X-Other", "b").add("ACCEPT", "c");
		assertThat(headers.all("accept")).containsExactly("a", "c");
		assertThat(headers.all("Absent")).isEmpty();
	}

	@Test
	void setReplacesEveryFieldOfTheNameWithOneAtTheFirstPosition() {
		Headers headers = new Headers().add("A", "1").add("B", "2").add("a", "3").add("C", "4");
		headers.set("A", "x");
		assertThat(fields(headers)).containsExactly("A: x", "B: 2", "C: 4");
		headers.set("D", "5");
		assertThat(fields(headers)).containsExactly("A: x", "B: 2", "C: 4", "D: 5");
	}

	@Test
	void removeRemovesEveryFieldOfTheNameAndKeepsTheOthersInOrder() {
		Headers headers = new Headers().add("A", "1").add("B", "2").add("a", "3").add("C", "4");
		assertThat(headers.remove("A")).isTrue();
		assertThat(fields(headers)).containsExactly("B: 2", "C: 4");
		assertThat(headers.remove("A")).isFalse();
		assertThat(headers.size()).isEqualTo(2);
	}

	@Test
	void growsBeyondItsInitialCapacity() {
		Headers headers = new Headers();
		for (int i = 0; i < 50; i++) {
			headers.add("X-" + i, Integer.toString(i));
		}
		assertThat(headers.size()).isEqualTo(50);
		assertThat(headers.get("x-0")).isEqualTo("0");
		assertThat(headers.get("x-49")).isEqualTo("49");
	}

	@Test
	void clearRemovesEveryField() {
		Headers headers = new Headers().add("A", "1").add("B", "2");
		headers.clear();
		assertThat(headers.isEmpty()).isTrue();
		assertThat(headers.get("A")).isNull();
	}

	@Test
	void rejectsIndexesOutsideTheFields() {
		Headers headers = new Headers().add("A", "1");
		assertThat(headers.name(0)).isEqualTo("A");
		assertThat(headers.value(0)).isEqualTo("1");
		assertThatExceptionOfType(IndexOutOfBoundsException.class).isThrownBy(() -> headers.name(1));
		assertThatExceptionOfType(IndexOutOfBoundsException.class).isThrownBy(() -> headers.value(-1));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			Connection | keep-alive, Upgrade      | upgrade    | true
			Connection | keep-alive, Upgrade      | Keep-Alive | true
			connection | 'keep-alive ,\tUpgrade' | upgrade    | true
			Connection | ',,upgrade,'             | upgrade    | true
			Connection | keep-alive, Upgrade      | keep       | false
			Connection | keep-alive, Upgrade      | alive      | false
			Connection | keep-alive, Upgrade      | close      | false
			Connection | keep-alive; Upgrade      | Upgrade    | false
			Upgrade    | keep-alive, Upgrade      | upgrade    | false
			""")
	void containsTokenFindsAWholeListElementIgnoringCase(String lookup, String value, String token, boolean found) {
		Headers headers = new Headers().add("Host", "a").add("Connection", value);
		assertThat(headers.containsToken(lookup, token)).isEqualTo(found);
	}

	@Test
	void containsTokenSearchesEveryFieldOfTheName() {
		Headers headers = new Headers().add("Connection", "keep-alive").add("X", "close").add("connection", "close");
		assertThat(headers.containsToken("Connection", "close")).isTrue();
		assertThat(headers.containsToken("Connection", "upgrade")).isFalse();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			X-Token    | a value
			X-Tab      | 'a\tb'
			X-Obs-Text | café
			X-Empty    | ''
			""")
	void validateAcceptsTokenNamesAndFieldValues(String name, String value) {
		assertThatNoException().isThrownBy(() -> Headers.validate(name, value));
	}

	@Test
	void validateAcceptsEveryTokenCharacterInAName() {
		assertThatNoException().isThrownBy(() -> Headers.validate("!#$%&'*+-.^_`|~09azAZ", "v"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "a\rb", "a\nb", "a\r\nInjected: yes", "a\0b", "a\u0001b", "a\u007fb", "a\u2028b" })
	void validateRejectsValuesThatCouldBreakTheFraming(String value) {
		assertThatIllegalArgumentException().isThrownBy(() -> Headers.validate("X-Value", value))
			.withMessageContaining("X-Value");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "X Name", "X:Name", "X\rName", "X\0", "(x)", "K\u00e4se", "X/Y", "X@Y" })
	void validateRejectsNamesThatAreNotTokens(String name) {
		assertThatIllegalArgumentException().isThrownBy(() -> Headers.validate(name, "v"))
			.withMessageContaining("not an HTTP token");
	}

	@Test
	void validateRejectsAMissingNameOrValue() {
		assertThatIllegalArgumentException().isThrownBy(() -> Headers.validate(null, "v"));
		assertThatIllegalArgumentException().isThrownBy(() -> Headers.validate("X", null));
	}

	private static List<String> fields(Headers headers) {
		List<String> fields = new ArrayList<>();
		for (int i = 0; i < headers.size(); i++) {
			fields.add(headers.name(i) + ": " + headers.value(i));
		}
		return fields;
	}

}
