package dev.ariadne.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Huffman code of RFC 7541 Appendix B: the strings of the Appendix C examples, every octet,
 * and the strictness of §5.2 (EOS, padding).
 */
class HpackHuffmanTest {

	static Stream<Arguments> rfcStrings() {
		return Stream.of(argumentSet("C.4.1", "www.example.com", "f1e3 c2e5 f23a 6ba0 ab90 f4ff"),
				argumentSet("C.4.2", "no-cache", "a8eb 1064 9cbf"),
				argumentSet("C.4.3 name", "custom-key", "25a8 49e9 5ba9 7d7f"),
				argumentSet("C.4.3 value", "custom-value", "25a8 49e9 5bb8 e8b4 bf"),
				argumentSet("C.6.1 status", "302", "6402"),
				argumentSet("C.6.1 cache-control", "private", "aec3 771a 4b"),
				argumentSet("C.6.1 date", "Mon, 21 Oct 2013 20:13:21 GMT",
						"d07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff"),
				argumentSet("C.6.1 location", "https://www.example.com", "9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3"),
				argumentSet("C.6.2 status", "307", "640e ff"),
				argumentSet("C.6.3 date", "Mon, 21 Oct 2013 20:13:22 GMT",
						"d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff"),
				argumentSet("C.6.3 content-encoding", "gzip", "9bd9 ab"),
				argumentSet("C.6.3 set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1",
						"94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0"
								+ " 03ed 4ee5 b106 3d50 07"),
				argumentSet("empty", "", ""));
	}

	@ParameterizedTest
	@MethodSource("rfcStrings")
	void encodesTheRfcExamplesExactly(String text, String hex) {
		byte[] expected = hex(hex);
		assertThat(HpackHuffman.encodedLength(text)).isEqualTo(expected.length);
		byte[] out = new byte[expected.length + 4];
		assertThat(HpackHuffman.encode(text, out, 2)).isEqualTo(expected.length + 2);
		assertThat(HexFormat.of().formatHex(out, 2, 2 + expected.length)).isEqualTo(hex.replace(" ", ""));
	}

	@ParameterizedTest
	@MethodSource("rfcStrings")
	void decodesTheRfcExamplesExactly(String text, String hex) throws Http2Exception {
		assertThat(decode(hex(hex))).isEqualTo(text);
	}

	@Test
	void everyOctetRoundTripsAloneAndTogether() throws Http2Exception {
		StringBuilder all = new StringBuilder();
		for (int octet = 0; octet < 256; octet++) {
			String one = String.valueOf((char) octet);
			assertThat(decode(encode(one))).as("octet %d", octet).isEqualTo(one);
			all.append((char) octet);
		}
		String forward = all.toString();
		String backward = all.reverse().toString();
		assertThat(decode(encode(forward))).isEqualTo(forward);
		assertThat(decode(encode(backward))).isEqualTo(backward);
	}

	@Test
	void codeLengthsAreThoseOfAppendixB() {
		// A few lengths from the table: '0' 5 bits, ' ' 6, 'A' 6, '\0' 13, '\n' 30, 255 26.
		assertThat(HpackHuffman.encodedLength("00000000")).isEqualTo(5);
		assertThat(HpackHuffman.encodedLength("    ")).isEqualTo(3);
		assertThat(HpackHuffman.encodedLength("AAAA")).isEqualTo(3);
		assertThat(HpackHuffman.encodedLength("\0")).isEqualTo(2);
		assertThat(HpackHuffman.encodedLength("\n")).isEqualTo(4);
		assertThat(HpackHuffman.encodedLength("\u00ff\u00ff\u00ff\u00ff")).isEqualTo(13);
	}

	@Test
	void paddingUpToSevenOnesIsAccepted() throws Http2Exception {
		// '0' is 00000: three bits of padding.
		assertThat(decode(new byte[] { 0x07 })).isEqualTo("0");
		// 'a' 00011 then '0' 00000 and 6 bits of ones: 00011000 00111111.
		assertThat(decode(new byte[] { 0x18, 0x3f })).isEqualTo("a0");
	}

	static Stream<Arguments> invalidStrings() {
		return Stream.of(argumentSet("EOS alone, then two bits of padding", "ffff ffff"),
				argumentSet("'a' then EOS then padding", "1fff ffff ff"),
				argumentSet("a whole octet of padding", "ff"),
				argumentSet("'0' then 11 bits of padding", "07ff"),
				argumentSet("padding with a zero bit: '0' then 110", "06"),
				argumentSet("padding of zeros: '0' then 000", "00"),
				argumentSet("'\\0' then 000: zeros after a 13-bit code", "ffc0"));
	}

	@ParameterizedTest
	@MethodSource("invalidStrings")
	void rejectsEosAndBadPaddingAsCompressionErrors(String hex) {
		assertThatExceptionOfType(Http2Exception.class).isThrownBy(() -> decode(hex(hex)))
			.satisfies((ex) -> assertThat(ex.error()).isEqualTo(ErrorCode.COMPRESSION_ERROR))
			.satisfies((ex) -> assertThat(ex.isConnectionError()).isTrue());
	}

	@Test
	void rejectsCharactersThatAreNotOctets() {
		assertThatIllegalArgumentException().isThrownBy(() -> HpackHuffman.encodedLength("caf\u00e9\u20ac"));
	}

	@Test
	void decodesFromTheBufferPositionAndAdvancesIt() throws Http2Exception {
		ByteBuffer in = ByteBuffer.wrap(hex("aa 6402 bb")).position(1).asReadOnlyBuffer();
		byte[] out = new byte[8];
		assertThat(HpackHuffman.decode(in, 2, out, 3)).isEqualTo(3);
		assertThat(new String(out, 3, 3, StandardCharsets.ISO_8859_1)).isEqualTo("302");
		assertThat(in.position()).isEqualTo(3);
	}

	static byte[] hex(String hex) {
		return HexFormat.of().parseHex(hex.replace(" ", ""));
	}

	private static byte[] encode(String text) {
		byte[] out = new byte[(int) HpackHuffman.encodedLength(text)];
		assertThat(HpackHuffman.encode(text, out, 0)).isEqualTo(out.length);
		return out;
	}

	private static String decode(byte[] encoded) throws Http2Exception {
		byte[] out = new byte[HpackHuffman.maxDecodedLength(encoded.length)];
		int length = HpackHuffman.decode(ByteBuffer.wrap(encoded), encoded.length, out, 0);
		return new String(out, 0, length, StandardCharsets.ISO_8859_1);
	}

}
