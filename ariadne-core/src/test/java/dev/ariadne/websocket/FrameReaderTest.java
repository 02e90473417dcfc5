package dev.ariadne.websocket;

import static dev.ariadne.websocket.WsFrames.bytes;
import static dev.ariadne.websocket.WsFrames.closePayload;
import static dev.ariadne.websocket.WsFrames.concat;
import static dev.ariadne.websocket.WsFrames.frame;
import static dev.ariadne.websocket.WsFrames.rawLength;
import static dev.ariadne.websocket.WsFrames.repeat;
import static dev.ariadne.websocket.WsFrames.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ariadne.websocket.WsFrames.Outcome;

/**
 * The frames of RFC 6455 §5 from a client, one table row per rule: raw bytes in, the events the
 * reader reports (see {@link RecordingListener}) and the close code it fails with, if any. Every
 * row is also fed split at every index and one byte at a time, which must not change the
 * outcome. UTF-8 in detail is {@link Utf8ValidatorTest}'s, compression {@link DeflateTest}'s.
 */
class FrameReaderTest {

	private static final int CONT = Opcode.CONTINUATION;

	private static final int TEXT = Opcode.TEXT;

	private static final int BINARY = Opcode.BINARY;

	private static final int CLOSE = Opcode.CLOSE;

	private static final int PING = Opcode.PING;

	private static final int PONG = Opcode.PONG;

	/** Small limits, for the rows about them: frames of 100 bytes, messages of 200. */
	private static final WebSocketLimits SMALL = new WebSocketLimits(100, 200);

	/** Autobahn 6.x's "κόσμε" with a surrogate (ED A0 80) then "edited". */
	private static final byte[] INVALID_TEXT = bytes(0xce, 0xba, 0xe1, 0xbd, 0xb9, 0xcf, 0x83, 0xce, 0xbc, 0xce, 0xb5,
			0xed, 0xa0, 0x80, 0x65, 0x64, 0x69, 0x74, 0x65, 0x64);

	static Stream<Arguments> frames() {
		return Stream.of(
				row("RFC 6455 §5.7: a single-frame masked text message, byte for byte",
						bytes(0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58),
						Outcome.of("text 'Hello' frames=1")),
				row("a text message in two fragments (§5.4)",
						concat(frame(false, 0, TEXT, utf8("Hel")), frame(true, 0, CONT, utf8("lo"))),
						Outcome.of("text 'Hello' frames=2")),
				row("an empty text message", frame(TEXT, new byte[0]), Outcome.of("text '' frames=1")),
				row("an empty fragment then a continuation, and an empty last one",
						concat(frame(false, 0, BINARY, new byte[0]), frame(false, 0, CONT, bytes(1)),
								frame(true, 0, CONT, new byte[0])),
						Outcome.of("binary 0x01 frames=3")),
				row("a binary message with a 16-bit length (§5.2)", frame(BINARY, repeat(7, 256)),
						Outcome.of("binary " + RecordingListener.hex(repeat(7, 256)) + " frames=1")),
				row("lengths 125, 126 and 65535 at the edges of the encodings",
						concat(frame(BINARY, repeat(1, 125)), frame(BINARY, repeat(2, 126)),
								frame(BINARY, repeat(3, 65535))),
						Outcome.of("binary " + RecordingListener.hex(repeat(1, 125)) + " frames=1",
								"binary " + RecordingListener.hex(repeat(2, 126)) + " frames=1",
								"binary " + RecordingListener.hex(repeat(3, 65535)) + " frames=1")),
				row("a 64-bit length, the message at the default limit of 64 KiB",
						frame(BINARY, repeat(9, 65536)),
						Outcome.of("binary " + RecordingListener.hex(repeat(9, 65536)) + " frames=1")),
				row("a masking key of zero", frame(true, 0, TEXT, 0, utf8("plain")),
						Outcome.of("text 'plain' frames=1")),
				row("control frames between the fragments of a message (§5.4)",
						concat(frame(false, 0, TEXT, utf8("a")), frame(PING, utf8("p1")), frame(false, 0, CONT, utf8("b")),
								frame(PONG, utf8("p2")), frame(true, 0, CONT, utf8("c"))),
						Outcome.of("ping 'p1'", "pong 'p2'", "text 'abc' frames=3")),
				row("a ping of 125 bytes, the largest (§5.5)", frame(PING, repeat('x', 125)),
						Outcome.of("ping '" + "x".repeat(125) + "'")),
				row("empty ping and pong", concat(frame(PING, new byte[0]), frame(PONG, new byte[0])),
						Outcome.of("ping ''", "pong ''")),
				row("a code point split between two frames",
						concat(frame(false, 0, TEXT, bytes(0xe2)), frame(true, 0, CONT, bytes(0x82, 0xac))),
						Outcome.of("text '€' frames=2")),
				row("text at the edges of UTF-8: U+007F, U+0080, U+07FF, U+0800, U+FFFD, U+FFFE, U+10000, U+10FFFF",
						frame(TEXT, utf8("\u007f\u0080\u07ff\u0800\ufffd\ufffe\ud800\udc00\udbff\udfff")),
						Outcome.of("text '\u007f\u0080\u07ff\u0800\ufffd\ufffe\ud800\udc00\udbff\udfff' frames=1")),
				row("two messages in a row", concat(frame(TEXT, utf8("one")), frame(BINARY, bytes(2))),
						Outcome.of("text 'one' frames=1", "binary 0x02 frames=1")),
				row("a close frame without a code (§5.5.1)", frame(CLOSE, new byte[0]), Outcome.of("close 1005 ''")),
				row("a close frame with a code", frame(CLOSE, closePayload(1000, "")), Outcome.of("close 1000 ''")),
				row("a close frame with a UTF-8 reason of 123 bytes",
						frame(CLOSE, closePayload(4000, "é".repeat(61) + "!")),
						Outcome.of("close 4000 '" + "é".repeat(61) + "!'")),
				row("what follows a close frame is ignored, even a bad frame (§5.5.1)",
						concat(frame(CLOSE, closePayload(1001, "bye")), frame(TEXT, utf8("late")), bytes(0xff, 0x00)),
						Outcome.of("close 1001 'bye'")),
				row("a close frame inside a fragmented message ends it", concat(frame(false, 0, TEXT, utf8("a")),
						frame(CLOSE, closePayload(1000, "")), frame(true, 0, CONT, utf8("b"))),
						Outcome.of("close 1000 ''")),
				row("the valid close codes of Autobahn 7.7.x and IANA's 1012-1014",
						frame(CLOSE, closePayload(1014, "")), Outcome.of("close 1014 ''")),
				row("a message at the limit, in frames at the frame limit", SMALL,
						concat(frame(false, 0, BINARY, repeat(1, 100)), frame(true, 0, CONT, repeat(1, 100))),
						Outcome.of("binary " + RecordingListener.hex(repeat(1, 200)) + " frames=2")),
				// failures
				row("a frame from a client not masked (§5.1)", bytes(0x81, 0x02, 'h', 'i'),
						Outcome.failing(1002)),
				row("RSV1 without an extension (§5.2)", frame(true, 4, TEXT, utf8("x")), Outcome.failing(1002)),
				row("RSV2", frame(true, 2, TEXT, utf8("x")), Outcome.failing(1002)),
				row("RSV3, after a good message", concat(frame(TEXT, utf8("ok")), frame(true, 1, PING, new byte[0])),
						Outcome.failing(1002, "text 'ok' frames=1")),
				row("reserved data opcode 3", frame(3, new byte[0]), Outcome.failing(1002)),
				row("reserved data opcode 7", frame(7, utf8("x")), Outcome.failing(1002)),
				row("reserved control opcode 0xB", frame(0xb, new byte[0]), Outcome.failing(1002)),
				row("reserved control opcode 0xF", frame(0xf, utf8("x")), Outcome.failing(1002)),
				row("a fragmented ping (§5.5)", frame(false, 0, PING, utf8("x")), Outcome.failing(1002)),
				row("a fragmented close", frame(false, 0, CLOSE, new byte[0]), Outcome.failing(1002)),
				row("a ping of 126 bytes", frame(PING, repeat('x', 126)), Outcome.failing(1002)),
				row("a close of 126 bytes", frame(CLOSE, closePayload(1000, "x".repeat(124))), Outcome.failing(1002)),
				row("a continuation outside a message (§5.4)", frame(true, 0, CONT, utf8("x")), Outcome.failing(1002)),
				row("a continuation after a message ended",
						concat(frame(TEXT, utf8("a")), frame(false, 0, CONT, utf8("b"))),
						Outcome.failing(1002, "text 'a' frames=1")),
				row("a text frame inside a fragmented message",
						concat(frame(false, 0, TEXT, utf8("a")), frame(TEXT, utf8("b"))), Outcome.failing(1002)),
				row("a binary frame inside a fragmented message",
						concat(frame(false, 0, BINARY, utf8("a")), frame(false, 0, BINARY, utf8("b"))),
						Outcome.failing(1002)),
				row("a 16-bit length below 126: not the shortest encoding (§5.2)",
						rawLength(BINARY, 126, bytes(0, 125), repeat(0, 125)), Outcome.failing(1002)),
				row("a 64-bit length below 65536", rawLength(BINARY, 127, bytes(0, 0, 0, 0, 0, 0, 0xff, 0xff),
						new byte[0]), Outcome.failing(1002)),
				row("a 64-bit length of 0", rawLength(BINARY, 127, new byte[8], new byte[0]), Outcome.failing(1002)),
				row("a 64-bit length with its most significant bit set",
						rawLength(BINARY, 127, bytes(0x80, 0, 0, 0, 0, 0, 0, 1), new byte[0]), Outcome.failing(1002)),
				row("a close frame of 1 byte (§5.5.1)", frame(CLOSE, bytes(3)), Outcome.failing(1002)),
				row("close code 0", frame(CLOSE, closePayload(0, "")), Outcome.failing(1002)),
				row("close code 999", frame(CLOSE, closePayload(999, "")), Outcome.failing(1002)),
				row("close code 1004, reserved", frame(CLOSE, closePayload(1004, "")), Outcome.failing(1002)),
				row("close code 1005, never sent", frame(CLOSE, closePayload(1005, "")), Outcome.failing(1002)),
				row("close code 1006, never sent", frame(CLOSE, closePayload(1006, "")), Outcome.failing(1002)),
				row("close code 1015, never sent", frame(CLOSE, closePayload(1015, "")), Outcome.failing(1002)),
				row("close code 1016, unassigned", frame(CLOSE, closePayload(1016, "")), Outcome.failing(1002)),
				row("close code 2999, unassigned", frame(CLOSE, closePayload(2999, "")), Outcome.failing(1002)),
				row("close code 5000", frame(CLOSE, closePayload(5000, "")), Outcome.failing(1002)),
				row("close code 65535", frame(CLOSE, closePayload(65535, "")), Outcome.failing(1002)),
				row("a close reason not UTF-8 (Autobahn 7.5.1)", frame(CLOSE, concat(bytes(0x03, 0xe8), INVALID_TEXT)),
						Outcome.failing(1007)),
				row("a close reason ending inside a code point", frame(CLOSE, concat(bytes(0x03, 0xe8), bytes(0xe2, 0x82))),
						Outcome.failing(1007)),
				row("text not UTF-8 (§8.1)", frame(TEXT, INVALID_TEXT), Outcome.failing(1007)),
				row("text not UTF-8 in the second fragment, after a ping",
						concat(frame(false, 0, TEXT, utf8("ok")), frame(PING, new byte[0]),
								frame(false, 0, CONT, INVALID_TEXT), frame(true, 0, CONT, utf8("z"))),
						Outcome.failing(1007, "ping ''")),
				row("text ending inside a code point", frame(TEXT, bytes('a', 0xf0, 0x9f, 0x98)), Outcome.failing(1007)),
				row("text whose last fragment leaves a code point open",
						concat(frame(false, 0, TEXT, bytes(0xe2)), frame(true, 0, CONT, bytes(0x82))),
						Outcome.failing(1007)),
				row("binary is never checked as UTF-8", frame(BINARY, INVALID_TEXT),
						Outcome.of("binary " + RecordingListener.hex(INVALID_TEXT) + " frames=1")),
				row("a frame over the frame limit", SMALL, frame(BINARY, repeat(1, 101)), Outcome.failing(1009)),
				row("a message over the limit in frames within theirs", SMALL,
						concat(frame(false, 0, TEXT, repeat('a', 100)), frame(false, 0, CONT, repeat('a', 100)),
								frame(true, 0, CONT, repeat('a', 1))),
						Outcome.failing(1009)),
				row("control frames are not held to the frame limit", new WebSocketLimits(1, 1),
						frame(PING, repeat('x', 125)), Outcome.of("ping '" + "x".repeat(125) + "'")));
	}

	private static Arguments row(String rule, byte[] wire, Outcome expected) {
		return row(rule, WebSocketLimits.DEFAULTS, wire, expected);
	}

	private static Arguments row(String rule, WebSocketLimits limits, byte[] wire, Outcome expected) {
		return argumentSet(rule, limits, wire, expected);
	}

	@ParameterizedTest
	@MethodSource("frames")
	void readsEachFrameAsTheRfcSaysFromHeapDirectAndLittleEndianBuffers(WebSocketLimits limits, byte[] wire,
			Outcome expected) {
		for (int kind = 0; kind < 3; kind++) {
			Outcome outcome = WsFrames.outcome(new FrameReader(limits, null), WsFrames.whole(wire), kind);
			assertThat(outcome).as("buffer kind %d", kind).isEqualTo(expected);
		}
	}

	@ParameterizedTest
	@MethodSource("frames")
	void readsTheSameSplitAtEveryIndexAndOneByteAtATime(WebSocketLimits limits, byte[] wire, Outcome expected) {
		assertThat(WsFrames.outcome(limits, WsFrames.pieces(wire, 1))).as("one byte at a time").isEqualTo(expected);
		int step = Math.max(1, wire.length / 512);
		for (int at = 0; at <= wire.length; at += step) {
			assertThat(WsFrames.outcome(limits, WsFrames.splitAt(wire, at))).as("split at %d", at).isEqualTo(expected);
		}
	}

	@Test
	void failsTextAtItsFirstInvalidByteWithoutWaitingForTheRestOfTheFrame() throws Exception {
		// Autobahn 6.4.x: the invalid byte arrives, the rest of the frame does not (yet)
		byte[] wire = frame(TEXT, concat(utf8("κόσμε"), INVALID_TEXT, utf8("more")));
		int invalid = 2 + 4 + utf8("κόσμε").length + 12;
		FrameReader reader = new FrameReader(WebSocketLimits.DEFAULTS, null);
		RecordingListener listener = new RecordingListener();
		reader.read(WsFrames.chunk(java.util.Arrays.copyOf(wire, invalid), 0), listener);
		assertThat(listener.partial()).as("valid bytes delivered before the invalid one")
			.isEqualTo(utf8("κόσμε").length + 12);
		ByteBuffer bad = WsFrames.chunk(new byte[] { wire[invalid] }, 1);
		assertThatExceptionOfType(WebSocketException.class).isThrownBy(() -> reader.read(bad, listener))
			.satisfies((ex) -> assertThat(ex.closeCode()).isEqualTo(CloseCode.INVALID_PAYLOAD));
	}

	@Test
	void failsTextAtTheInvalidByteInAContinuationWhenTheMessageStartedValid() throws Exception {
		byte[] first = frame(false, 0, TEXT, utf8("ok"));
		byte[] second = frame(false, 0, CONT, bytes('a', 0xc0, 'b'));
		FrameReader reader = new FrameReader(WebSocketLimits.DEFAULTS, null);
		RecordingListener listener = new RecordingListener();
		reader.read(WsFrames.chunk(concat(first, java.util.Arrays.copyOf(second, 7)), 0), listener);
		ByteBuffer bad = WsFrames.chunk(new byte[] { second[7] }, 0);
		assertThatExceptionOfType(WebSocketException.class).isThrownBy(() -> reader.read(bad, listener))
			.satisfies((ex) -> assertThat(ex.closeCode()).isEqualTo(CloseCode.INVALID_PAYLOAD));
	}

	@Test
	void refusesAFrameOverTheLimitOnItsHeaderBeforeAnyPayload() {
		byte[] header = java.util.Arrays.copyOf(frame(BINARY, repeat(0, 101)), 8);
		FrameReader reader = new FrameReader(SMALL, null);
		assertThatExceptionOfType(WebSocketException.class)
			.isThrownBy(() -> reader.read(WsFrames.chunk(header, 0), new RecordingListener()))
			.satisfies((ex) -> assertThat(ex.closeCode()).isEqualTo(CloseCode.MESSAGE_TOO_BIG));
	}

	@Test
	void appliesOtherLimitsFromTheNextMessageOnAndLetsTheMessageUnderWayKeepItsOwn() throws Exception {
		FrameReader reader = new FrameReader(new WebSocketLimits(1000, 300), null);
		RecordingListener listener = new RecordingListener();
		// a message of two frames begins under a limit of 300 bytes, which then drops to 100
		reader.read(WsFrames.chunk(frame(false, 0, BINARY, repeat(1, 150)), 0), listener);
		reader.limits(new WebSocketLimits(1000, 100));
		reader.read(WsFrames.chunk(frame(true, 0, CONT, repeat(2, 150)), 0), listener);
		assertThat(listener.events()).as("the message under way keeps its 300 bytes").singleElement()
			.asString()
			.startsWith("binary 0x0101")
			.endsWith("frames=2");
		// the next message is bound by the new limit: 150 bytes are too many, from the header on
		byte[] header = java.util.Arrays.copyOf(frame(TEXT, repeat('a', 150)), 8);
		assertThatExceptionOfType(WebSocketException.class)
			.isThrownBy(() -> reader.read(WsFrames.chunk(header, 0), listener))
			.satisfies((ex) -> assertThat(ex.closeCode()).isEqualTo(CloseCode.MESSAGE_TOO_BIG));
	}

	@Test
	void raisesTheLimitForTheNextMessage() throws Exception {
		FrameReader reader = new FrameReader(new WebSocketLimits(100, 100), null);
		reader.limits(new WebSocketLimits(1000, 1000));
		RecordingListener listener = new RecordingListener();
		reader.read(WsFrames.chunk(frame(BINARY, repeat(3, 900)), 0), listener);
		assertThat(listener.events()).singleElement().asString().startsWith("binary 0x0303").endsWith("frames=1");
	}

	@Test
	void refusesAnUnmaskedFrameOnItsSecondByte() {
		FrameReader reader = new FrameReader(WebSocketLimits.DEFAULTS, null);
		assertThatExceptionOfType(WebSocketException.class)
			.isThrownBy(() -> reader.read(WsFrames.chunk(bytes(0x82, 0x7f), 0), new RecordingListener()))
			.satisfies((ex) -> assertThat(ex.closeCode()).isEqualTo(CloseCode.PROTOCOL_ERROR));
	}

	@Test
	void passesPayloadOnAsItArrivesWithoutHoldingIt() throws Exception {
		byte[] payload = new byte[10_000];
		IntStream.range(0, payload.length).forEach((i) -> payload[i] = (byte) i);
		byte[] wire = frame(BINARY, payload);
		List<Integer> pieces = new ArrayList<>();
		FrameReader reader = new FrameReader(WebSocketLimits.DEFAULTS, null);
		FrameListener listener = new RecordingListener() {

			@Override
			public void binary(ByteBuffer data, boolean frameEnd, boolean last) {
				pieces.add(data.remaining());
				super.binary(data, frameEnd, last);
			}

		};
		for (byte[] chunk : WsFrames.pieces(wire, 3000)) {
			reader.read(WsFrames.chunk(chunk, 0), listener);
		}
		assertThat(pieces).containsExactly(3000 - 8, 3000, 3000, 1008);
	}

	@Test
	void unmasksInPlaceInTheCallersBuffer() throws Exception {
		byte[] wire = frame(BINARY, utf8("abcdefghijklmnop"));
		ByteBuffer input = ByteBuffer.wrap(wire.clone());
		new FrameReader(WebSocketLimits.DEFAULTS, null).read(input, new RecordingListener());
		assertThat(new String(input.array(), 6, 16, java.nio.charset.StandardCharsets.US_ASCII))
			.isEqualTo("abcdefghijklmnop");
	}

	@Test
	void refusesReadOnlyInputSinceItUnmasksInPlace() {
		FrameReader reader = new FrameReader(WebSocketLimits.DEFAULTS, null);
		ByteBuffer readOnly = ByteBuffer.wrap(frame(TEXT, utf8("x"))).asReadOnlyBuffer();
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> reader.read(readOnly, new RecordingListener()));
		assertThat(readOnly.position()).isZero();
	}

	@Test
	void isIdleOnlyBetweenMessages() throws Exception {
		FrameReader reader = new FrameReader(WebSocketLimits.DEFAULTS, null);
		RecordingListener listener = new RecordingListener();
		assertThat(reader.isIdle()).isTrue();
		reader.read(WsFrames.chunk(frame(false, 0, TEXT, utf8("a")), 0), listener);
		assertThat(reader.isIdle()).isFalse();
		reader.read(WsFrames.chunk(bytes(0x80), 0), listener);
		assertThat(reader.isIdle()).isFalse();
		reader.read(WsFrames.chunk(java.util.Arrays.copyOfRange(frame(true, 0, CONT, utf8("b")), 1, 7), 0), listener);
		assertThat(reader.isIdle()).isTrue();
		assertThat(listener.events()).containsExactly("text 'ab' frames=2");
	}

	@Test
	void isFinishedOnceItHasFailed() {
		FrameReader reader = new FrameReader(WebSocketLimits.DEFAULTS, null);
		RecordingListener listener = new RecordingListener();
		assertThatExceptionOfType(WebSocketException.class)
			.isThrownBy(() -> reader.read(WsFrames.chunk(frame(3, new byte[0]), 0), listener));
		assertThatIllegalStateException().isThrownBy(() -> reader.read(ByteBuffer.allocate(1), listener));
	}

	@Test
	void passesOnTheListenersErrorAndStops() {
		FrameReader reader = new FrameReader(WebSocketLimits.DEFAULTS, null);
		FrameListener refusing = new FrameListener() {

			@Override
			public void text(ByteBuffer data, boolean frameEnd, boolean last) {
				throw new AssertionError("nothing is read after the listener failed the connection");
			}

			@Override
			public void binary(ByteBuffer data, boolean frameEnd, boolean last) {
			}

			@Override
			public void ping(ByteBuffer payload) throws WebSocketException {
				throw new WebSocketException(CloseCode.POLICY_VIOLATION, "No pings here");
			}

			@Override
			public void pong(ByteBuffer payload) {
			}

			@Override
			public void close(int code, String reason) {
			}

		};
		assertThatExceptionOfType(WebSocketException.class)
			.isThrownBy(() -> reader.read(WsFrames.chunk(concat(frame(BINARY, bytes(1)), frame(PING, new byte[0]),
					frame(TEXT, utf8("never"))), 0), refusing))
			.satisfies((ex) -> assertThat(ex.closeCode()).isEqualTo(CloseCode.POLICY_VIOLATION));
	}

	@Test
	void readsAServersUnmaskedFramesWhenMadeForAClient() throws Exception {
		FrameReader reader = new FrameReader(WebSocketLimits.DEFAULTS, null, false);
		RecordingListener listener = new RecordingListener();
		reader.read(WsFrames.chunk(bytes(0x81, 0x05, 'H', 'e', 'l', 'l', 'o', 0x89, 0x00), 0), listener);
		assertThat(listener.events()).containsExactly("text 'Hello' frames=1", "ping ''");
		assertThatExceptionOfType(WebSocketException.class)
			.isThrownBy(() -> reader.read(WsFrames.chunk(frame(TEXT, utf8("masked")), 0), listener));
	}

}
