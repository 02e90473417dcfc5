package dev.ariadne.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The close codes a close frame may carry (RFC 6455 §7.4), with Autobahn's lists of valid (7.7.x)
 * and invalid (7.9.x) codes.
 */
class CloseCodeTest {

	@ParameterizedTest
	@ValueSource(ints = { 1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000,
			4999 })
	void acceptsTheRegisteredCodesAndThoseOfLibrariesAndApplications(int code) {
		assertThat(CloseCode.isValid(code)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(ints = { -1, 0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535, 65536 })
	void refusesReservedUnassignedAndApiOnlyCodes(int code) {
		assertThat(CloseCode.isValid(code)).isFalse();
	}

	@Test
	void acceptsExactlyTwelveCodesBelow3000() {
		List<Integer> valid = new ArrayList<>();
		for (int code = 0; code < 3000; code++) {
			if (CloseCode.isValid(code)) {
				valid.add(code);
			}
		}
		assertThat(valid).containsExactly(1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014);
	}

}
