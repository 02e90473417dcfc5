package dev.ariadne.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.ByteBuffer;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code HTTP2-Settings} field of an h2c upgrade (RFC 7540 §3.2.1): base64url of a
 * {@code SETTINGS} payload.
 */
class Http2SettingsHeaderTest {

	@Test
	void decodesTheSettingsAClientSends() throws Http2Exception {
		// what curl sends: max concurrent streams 100, initial window 32 MiB, no push
		Settings settings = Http2SettingsHeader.decode("AAMAAABkAAQCAAAAAAIAAAAA");
		assertThat(settings.get(Settings.MAX_CONCURRENT_STREAMS)).isEqualTo(100);
		assertThat(settings.get(Settings.INITIAL_WINDOW_SIZE)).isEqualTo(32 * 1024 * 1024);
		assertThat(settings.get(Settings.ENABLE_PUSH)).isZero();
		assertThat(settings.count()).isEqualTo(3);
	}

	@Test
	void decodesAnEmptyValueAsNoSettings() throws Http2Exception {
		assertThat(Http2SettingsHeader.decode("").count()).isZero();
	}

	@Test
	void decodesUnsignedValuesAndTheUrlAlphabet() throws Http2Exception {
		// 0xFFFFFFFF encodes with '_' and '-', which plain base64 spells '/' and '+'
		String value = encode(entry(Settings.MAX_HEADER_LIST_SIZE, 0xFFFF_FFFFL),
				entry(Settings.MAX_FRAME_SIZE, 16_777_215));
		assertThat(value).containsAnyOf("_", "-");
		Settings settings = Http2SettingsHeader.decode(value);
		assertThat(settings.get(Settings.MAX_HEADER_LIST_SIZE)).isEqualTo(0xFFFF_FFFFL);
		assertThat(settings.get(Settings.MAX_FRAME_SIZE)).isEqualTo(16_777_215);
	}

	@Test
	void ignoresUnknownSettingsAndKeepsTheLastOfARepeatedOne() throws Http2Exception {
		Settings settings = Http2SettingsHeader.decode(encode(entry(0x7, 1), entry(0xABCD, 9),
				entry(Settings.HEADER_TABLE_SIZE, 1), entry(Settings.HEADER_TABLE_SIZE, 2)));
		assertThat(settings.count()).isEqualTo(1);
		assertThat(settings.get(Settings.HEADER_TABLE_SIZE)).isEqualTo(2);
	}

	@ParameterizedTest
	@ValueSource(strings = { "AAMAAABk+A", "AAMAAA/k", "AAMA AABk", "A", "AAMAAABk\n", "*", "AAIAAAAA=",
			"AAIAAAAA==" })
	void refusesWhatIsNotBase64url(String value) {
		assertProtocolError(value, "not base64url");
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 5, 7, 11 })
	void refusesAPayloadThatIsNotWholeSettings(int length) {
		assertProtocolError(Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[length]), "6-byte");
	}

	@Test
	void checksEachValueAsASettingsFrame() {
		assertProtocolError(encode(entry(Settings.ENABLE_PUSH, 2)), "SETTINGS_ENABLE_PUSH");
		assertProtocolError(encode(entry(Settings.MAX_FRAME_SIZE, 16_383)), "SETTINGS_MAX_FRAME_SIZE");
		Http2Exception window = catchThrowableOfType(Http2Exception.class,
				() -> Http2SettingsHeader.decode(encode(entry(Settings.INITIAL_WINDOW_SIZE, 1L << 31))));
		assertThat(window.error()).isEqualTo(ErrorCode.FLOW_CONTROL_ERROR);
		assertThat(window.isConnectionError()).isTrue();
	}

	private static void assertProtocolError(String value, String reason) {
		Http2Exception error = catchThrowableOfType(Http2Exception.class, () -> Http2SettingsHeader.decode(value));
		assertThat(error).isNotNull();
		assertThat(error.isConnectionError()).isTrue();
		assertThat(error.error()).isEqualTo(ErrorCode.PROTOCOL_ERROR);
		assertThat(error.reason()).contains(reason);
	}

	private static byte[] entry(int id, long value) {
		return ByteBuffer.allocate(6).putShort((short) id).putInt((int) value).array();
	}

	private static String encode(byte[]... entries) {
		ByteBuffer payload = ByteBuffer.allocate(entries.length * 6);
		for (byte[] entry : entries) {
			payload.put(entry);
		}
		return Base64.getUrlEncoder().withoutPadding().encodeToString(payload.array());
	}

}
