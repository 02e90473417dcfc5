package dev.ariadne.server.connection;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ForwardedPrefix}: values joined as Spring and Reactor Netty join them, normalized, and
 * anything that is not a safe absolute path refused whole.
 */
class ForwardedPrefixTest {

	@ParameterizedTest(name = "[{0}] -> [{1}]")
	@CsvSource(delimiter = '|', nullValues = "NULL", value = {
			"/shop | /shop",
			"/shop/ | /shop",
			"/shop/// | /shop",
			"'  /shop  ' | /shop",
			"/api/v1 | /api/v1",
			"'/api, /v1/' | /api/v1",
			"'/api,,/v1' | /api/v1",
			"/ | ''",
			"'' | ''",
			"'/, /' | ''",
			"/a//b | /a/b",
			"//shop | /shop",
			"/caf%C3%A9 | /caf%C3%A9",
			"/.well | /.well",
			"/..x | /..x",
			"shop | NULL",
			"'shop, /x' | NULL",
			"/a/../b | NULL",
			"/a/./b | NULL",
			"/.. | NULL",
			"/a/%2e%2E/b | NULL",
			"/a/.%2e | NULL",
			"/a%2Fb | NULL",
			"/a%5cb | NULL",
			"/a%00 | NULL",
			"/a%zz | NULL",
			"/a% | NULL",
			"/a%4 | NULL",
			"/a b | NULL",
			"/a?b=1 | NULL",
			"/a#b | NULL",
			"/a;v=1 | NULL",
			"/a\\b | NULL",
			"/a\"b | NULL",
			"/a<b> | NULL",
			"/café | NULL",
			"/a%٣٣ | NULL" })
	void joinsNormalizesAndRefusesUnsafePaths(String value, String expected) {
		assertThat(ForwardedPrefix.parse(List.of(value))).isEqualTo(expected);
	}

	@Test
	void keepsEveryCharacterAPathSegmentMayHold() {
		String segment = "/a-b_c.d~e!$&'()*+=:@";
		assertThat(ForwardedPrefix.parse(List.of(segment))).isEqualTo(segment);
	}

	@Test
	void joinsTheValuesOfEveryFieldInOrder() {
		assertThat(ForwardedPrefix.parse(List.of("/edge/", "/app"))).isEqualTo("/edge/app");
	}

	@Test
	void refusesAPrefixLongerThanAnyProxyNeeds() {
		assertThat(ForwardedPrefix.parse(List.of("/" + "a".repeat(1024)))).isNull();
		assertThat(ForwardedPrefix.parse(List.of("/" + "a".repeat(1022)))).hasSize(1023);
	}

	@Test
	void hasNoPrefixWithoutTheField() {
		assertThat(ForwardedPrefix.parse(List.of())).isNull();
	}

	@Test
	void refusesControlCharacters() {
		assertThat(ForwardedPrefix.parse(List.of("/a\r\nX-Evil: 1"))).isNull();
		assertThat(ForwardedPrefix.parse(List.of("/a\tb"))).isNull();
		assertThat(ForwardedPrefix.parse(List.of("/a\u0000"))).isNull();
	}

}
