package dev.ariadne.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ariadne.http.Headers;

/**
 * The response side of RFC 9113 §8.2 and §8.3.2: {@code :status} first, names lower case, no
 * connection-specific field.
 */
class ResponseFieldsTest {

	private final List<String> emitted = new ArrayList<>();

	private final HeaderListener sink = (name, value) -> this.emitted.add(name + ": " + value);

	@Test
	void emitsTheStatusFirstThenEveryFieldLowerCasedInOrder() {
		Headers headers = new Headers().add("Content-Type", "text/plain")
			.add("X-Trace", "1")
			.add("set-cookie", "a=1")
			.add("Set-Cookie", "b=2")
			.add("Content-Length", "5");
		ResponseFields.head(200, headers, this.sink);
		assertThat(this.emitted).containsExactly(":status: 200", "content-type: text/plain", "x-trace: 1",
				"set-cookie: a=1", "set-cookie: b=2", "content-length: 5");
		assertThat(headers.name(0)).isEqualTo("Content-Type");
	}

	@Test
	void dropsTheConnectionSpecificFieldsInAnyCase() {
		Headers headers = new Headers().add("Connection", "close")
			.add("date", "today")
			.add("Keep-Alive", "timeout=5")
			.add("PROXY-CONNECTION", "keep-alive")
			.add("Transfer-Encoding", "chunked")
			.add("Upgrade", "h2c")
			.add("x-after", "1");
		ResponseFields.head(404, headers, this.sink);
		assertThat(this.emitted).containsExactly(":status: 404", "date: today", "x-after: 1");
	}

	@Test
	void dropsANameThatWouldPassForAPseudoHeaderField() {
		ResponseFields.head(200, new Headers().add(":path", "/x").add("x-a", "1"), this.sink);
		assertThat(this.emitted).containsExactly(":status: 200", "x-a: 1");
	}

	@Test
	void emitsAnInterimResponseWithoutFields() {
		ResponseFields.head(100, new Headers(), this.sink);
		assertThat(this.emitted).containsExactly(":status: 100");
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, 99, 1000, -200 })
	void refusesAStatusWithoutThreeDigits(int status) {
		assertThatIllegalArgumentException().isThrownBy(() -> ResponseFields.head(status, new Headers(), this.sink));
	}

	@Test
	void emitsTrailersWithoutAPseudoHeaderField() {
		Headers trailers = new Headers().add("Grpc-Status", "0").add("connection", "close").add("x-sum", "7");
		ResponseFields.trailers(trailers, this.sink);
		assertThat(this.emitted).containsExactly("grpc-status: 0", "x-sum: 7");
	}

	@Test
	void lowerCasesWithoutANewStringWhenTheNameIsLowerCaseAlready() {
		String name = new String("x-already-lower");
		assertThat(ResponseFields.lowerCase(name)).isSameAs(name);
		assertThat(ResponseFields.lowerCase("X-Mixed-CASE")).isEqualTo("x-mixed-case");
		assertThat(ResponseFields.lowerCase("")).isEmpty();
	}

}
