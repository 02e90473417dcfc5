package dev.ariadne.websocket;

import static dev.ariadne.websocket.WsFrames.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * UTF-8 as RFC 3629 defines it, one row per rule: where the validator refuses a sequence (the
 * first byte no valid sequence could have there), fed whole, split at every index and a byte at
 * a time; and, on random bytes, the same verdict as the JDK's strict decoder, and a refusal no
 * later than necessary: what comes before the refused byte can always be completed into valid
 * UTF-8.
 */
class Utf8ValidatorTest {

	static Stream<Arguments> sequences() {
		return Stream.of(
				row("ASCII", bytes('a', 'b', 'c'), -1, true),
				row("ASCII longer than a word, checked 8 bytes at a time", "0123456789abcdefghij".getBytes(), -1, true),
				row("two-byte U+0080", bytes(0xc2, 0x80), -1, true),
				row("two-byte U+07FF", bytes(0xdf, 0xbf), -1, true),
				row("three-byte U+0800", bytes(0xe0, 0xa0, 0x80), -1, true),
				row("three-byte U+D7FF, the last before the surrogates", bytes(0xed, 0x9f, 0xbf), -1, true),
				row("three-byte U+E000, the first after them", bytes(0xee, 0x80, 0x80), -1, true),
				row("three-byte U+FFFF, a noncharacter but valid UTF-8", bytes(0xef, 0xbf, 0xbf), -1, true),
				row("four-byte U+10000", bytes(0xf0, 0x90, 0x80, 0x80), -1, true),
				row("four-byte U+10FFFF", bytes(0xf4, 0x8f, 0xbf, 0xbf), -1, true),
				row("an open sequence is valid so far, not complete", bytes('a', 0xf0, 0x9f, 0x98), -1, false),
				row("a lone continuation byte", bytes('a', 0x80), 1, false),
				row("C0, only ever an overlong lead", bytes(0xc0, 0x80), 0, false),
				row("C1, only ever an overlong lead", bytes(0xc1, 0xbf), 0, false),
				row("overlong three bytes: E0 then below A0", bytes(0xe0, 0x9f, 0xbf), 1, false),
				row("a surrogate: ED then above 9F (Autobahn 6.x)", bytes(0xed, 0xa0, 0x80), 1, false),
				row("overlong four bytes: F0 then below 90", bytes(0xf0, 0x8f, 0xbf, 0xbf), 1, false),
				row("beyond U+10FFFF: F4 then above 8F", bytes(0xf4, 0x90, 0x80, 0x80), 1, false),
				row("F5, only ever beyond U+10FFFF", bytes(0xf5, 0x80), 0, false),
				row("FF", bytes('x', 'y', 0xff), 2, false),
				row("a sequence cut by ASCII", bytes(0xe2, 0x82, 'a'), 2, false),
				row("a sequence cut by a new lead", bytes(0xe2, 0xc3, 0xa9), 1, false),
				row("a fourth continuation byte", bytes(0xf0, 0x90, 0x80, 0x80, 0x80), 4, false),
				row("an invalid byte after 8 ASCII", bytes('1', '2', '3', '4', '5', '6', '7', '8', 0x80), 8, false));
	}

	private static Arguments row(String rule, byte[] bytes, int refusedAt, boolean complete) {
		return argumentSet(rule, bytes, refusedAt, complete);
	}

	@ParameterizedTest
	@MethodSource("sequences")
	void refusesAtTheFirstByteThatCannotBeValidHoweverTheBytesAreSplit(byte[] bytes, int refusedAt, boolean complete) {
		for (int at = 0; at <= bytes.length; at++) {
			Utf8Validator validator = new Utf8Validator();
			int first = validator.check(ByteBuffer.wrap(bytes), 0, at);
			int result = (first >= 0) ? first : validator.check(ByteBuffer.wrap(bytes), at, bytes.length);
			assertThat(result).as("split at %d", at).isEqualTo(refusedAt);
			if (refusedAt < 0) {
				assertThat(validator.isComplete()).isEqualTo(complete);
			}
		}
		Utf8Validator validator = new Utf8Validator();
		int result = -1;
		for (int i = 0; i < bytes.length && result < 0; i++) {
			result = validator.check(ByteBuffer.wrap(bytes), i, i + 1);
		}
		assertThat(result).as("a byte at a time").isEqualTo(refusedAt);
	}

	@Test
	void agreesWithTheJdksStrictDecoderAndRefusesNoLaterThanNecessary() {
		Random random = new Random(6455);
		for (int n = 0; n < 20_000; n++) {
			byte[] bytes = randomText(random);
			Utf8Validator validator = new Utf8Validator();
			int refused = validator.check(ByteBuffer.wrap(bytes), 0, bytes.length);
			boolean valid = refused < 0 && validator.isComplete();
			assertThat(valid).as("verdict on %s", RecordingListener.hex(bytes)).isEqualTo(jdkAccepts(bytes));
			int prefix = (refused >= 0) ? refused : bytes.length;
			assertThat(completable(Arrays.copyOf(bytes, prefix)))
				.as("%s is refused at %d but is the start of valid UTF-8", RecordingListener.hex(bytes), refused)
				.isTrue();
		}
	}

	@Test
	void checksOnlyTheRangeAskedWithAbsoluteIndexes() {
		ByteBuffer buffer = ByteBuffer.wrap(bytes(0xff, 'a', 0xc3, 0xa9, 0xff)).position(3).limit(4);
		Utf8Validator validator = new Utf8Validator();
		assertThat(validator.check(buffer, 1, 4)).isEqualTo(-1);
		assertThat(validator.isComplete()).isTrue();
		assertThat(buffer.position()).isEqualTo(3);
	}

	/** Random bytes, mostly text-like: ASCII, leads and continuations at the edges of their ranges. */
	private static byte[] randomText(Random random) {
		int[] interesting = { 'a', 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec,
				0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff };
		byte[] bytes = new byte[random.nextInt(12)];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt(256)
					: interesting[random.nextInt(interesting.length)]);
		}
		return bytes;
	}

	private static boolean jdkAccepts(byte[] bytes) {
		try {
			StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes));
			return true;
		}
		catch (CharacterCodingException ex) {
			return false;
		}
	}

	/** Whether up to 3 continuation bytes make the prefix valid, by the JDK's decoder. */
	private static boolean completable(byte[] prefix) {
		int[] continuations = { 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf };
		if (jdkAccepts(prefix)) {
			return true;
		}
		for (int length = 1; length <= 3; length++) {
			int combinations = (int) Math.pow(continuations.length, length);
			for (int c = 0; c < combinations; c++) {
				byte[] candidate = Arrays.copyOf(prefix, prefix.length + length);
				for (int i = 0, rest = c; i < length; i++, rest /= continuations.length) {
					candidate[prefix.length + i] = (byte) continuations[rest % continuations.length];
				}
				if (jdkAccepts(candidate)) {
					return true;
				}
			}
		}
		return false;
	}

}
