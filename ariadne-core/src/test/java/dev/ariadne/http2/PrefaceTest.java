package dev.ariadne.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.ariadne.http2.Preface.Match;

/**
 * The client connection preface (RFC 9113 §3.4), recognised from any prefix without moving the
 * buffer.
 */
class PrefaceTest {

	private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	@Test
	void isTwentyFourBytes() {
		assertThat(Preface.LENGTH).isEqualTo(24).isEqualTo(PREFACE.length);
		ByteBuffer bytes = Preface.bytes();
		assertThat(bytes.remaining()).isEqualTo(Preface.LENGTH);
		assertThat(bytes.isReadOnly()).isTrue();
		assertThat(Preface.match(bytes)).isEqualTo(Match.MATCH);
	}

	@Test
	void matchesThePrefaceWithAndWithoutTheFramesAfterIt() {
		assertThat(Preface.match(ByteBuffer.wrap(PREFACE))).isEqualTo(Match.MATCH);
		ByteBuffer more = ByteBuffer.allocate(40).put(PREFACE).put(new byte[] { 0, 0, 0, 4 }).flip();
		assertThat(Preface.match(more)).isEqualTo(Match.MATCH);
		assertThat(more.position()).isZero();
	}

	@Test
	void waitsForMoreAtEverySplitThenMatchesTheRest() {
		for (int split = 0; split < PREFACE.length; split++) {
			ByteBuffer buffer = ByteBuffer.allocate(64);
			buffer.put(PREFACE, 0, split).flip();
			assertThat(Preface.match(buffer)).as("first %d bytes", split).isEqualTo(Match.PARTIAL);
			assertThat(buffer.position()).isZero();
			buffer.compact().put(PREFACE, split, PREFACE.length - split).flip();
			assertThat(Preface.match(buffer)).as("after the split at %d", split).isEqualTo(Match.MATCH);
		}
	}

	@Test
	void refusesAMismatchAtEveryIndexEvenBeforeAllBytesAreThere() {
		for (int at = 0; at < PREFACE.length; at++) {
			byte[] wrong = PREFACE.clone();
			wrong[at] ^= 0x20;
			assertThat(Preface.match(ByteBuffer.wrap(wrong))).as("byte %d changed", at).isEqualTo(Match.NO);
			assertThat(Preface.match(ByteBuffer.wrap(wrong, 0, at + 1))).as("first %d bytes, last changed", at + 1)
				.isEqualTo(Match.NO);
		}
	}

	@Test
	void tellsAnHttp11RequestFromThePreface() {
		assertThat(Preface.match(ascii("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))).isEqualTo(Match.NO);
		assertThat(Preface.match(ascii("PRI * HTTP/1.1\r\n\r\n"))).isEqualTo(Match.NO);
		assertThat(Preface.match(ascii("P"))).isEqualTo(Match.PARTIAL);
	}

	@Test
	void readsFromThePositionOfAnyKindOfBuffer() {
		ByteBuffer direct = ByteBuffer.allocateDirect(64);
		direct.put("xyz".getBytes(StandardCharsets.US_ASCII)).put(PREFACE).flip().position(3);
		assertThat(Preface.match(direct)).isEqualTo(Match.MATCH);
		assertThat(Preface.match(direct.asReadOnlyBuffer())).isEqualTo(Match.MATCH);
		assertThat(direct.position()).isEqualTo(3);
		ByteBuffer slice = ByteBuffer.wrap(new byte[30], 2, 28).slice().put(PREFACE).flip();
		assertThat(Preface.match(slice)).isEqualTo(Match.MATCH);
	}

	private static ByteBuffer ascii(String text) {
		return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
	}

}
