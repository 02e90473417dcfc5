package dev.ariadne.websocket;

import static dev.ariadne.websocket.WsFrames.bytes;
import static dev.ariadne.websocket.WsFrames.concat;
import static dev.ariadne.websocket.WsFrames.repeat;
import static dev.ariadne.websocket.WsFrames.utf8;
import static dev.ariadne.websocket.WsFrames.written;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ariadne.websocket.WsFrames.Outcome;

/**
 * The frames a server writes (RFC 6455 §5): exact bytes per rule, the arguments refused, and
 * round trips through a reader of server frames.
 */
class FrameWriterTest {

	static Stream<Arguments> headers() {
		return Stream.of(
				row("RFC 6455 §5.7: unmasked text 'Hello'", written(16, (out) -> FrameWriter.frame(out, Opcode.TEXT, true,
						false, ByteBuffer.wrap(utf8("Hello")))), bytes(0x81, 0x05, 'H', 'e', 'l', 'l', 'o')),
				row("RFC 6455 §5.7: 'Hel' then 'lo'",
						concat(written(8, (out) -> FrameWriter.frame(out, Opcode.TEXT, false, false,
								ByteBuffer.wrap(utf8("Hel")))),
								written(8, (out) -> FrameWriter.frame(out, Opcode.CONTINUATION, true, false,
										ByteBuffer.wrap(utf8("lo"))))),
						bytes(0x01, 0x03, 'H', 'e', 'l', 0x80, 0x02, 'l', 'o')),
				row("a 7-bit length of 125", header(Opcode.BINARY, true, false, 125), bytes(0x82, 125)),
				row("a 16-bit length of 126", header(Opcode.BINARY, true, false, 126), bytes(0x82, 126, 0, 126)),
				row("RFC 6455 §5.7: 256 bytes, a 16-bit length", header(Opcode.BINARY, true, false, 256),
						bytes(0x82, 0x7e, 0x01, 0x00)),
				row("a 16-bit length of 65535", header(Opcode.BINARY, true, false, 65535), bytes(0x82, 126, 0xff, 0xff)),
				row("RFC 6455 §5.7: 64 KiB, a 64-bit length", header(Opcode.BINARY, true, false, 65536),
						bytes(0x82, 0x7f, 0, 0, 0, 0, 0, 1, 0, 0)),
				row("the largest 64-bit length", header(Opcode.BINARY, false, false, Long.MAX_VALUE),
						bytes(0x02, 0x7f, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)),
				row("RSV1 on the first frame of a compressed message", header(Opcode.TEXT, false, true, 3),
						bytes(0x41, 3)),
				row("a ping, RFC 6455 §5.7",
						written(8, (out) -> FrameWriter.ping(out, ByteBuffer.wrap(utf8("Hello")))),
						bytes(0x89, 0x05, 'H', 'e', 'l', 'l', 'o')),
				row("a pong", written(8, (out) -> FrameWriter.pong(out, ByteBuffer.allocate(0))), bytes(0x8a, 0)),
				row("a close with a code and a reason",
						written(16, (out) -> FrameWriter.close(out, CloseCode.GOING_AWAY, "bye")),
						bytes(0x88, 5, 0x03, 0xe9, 'b', 'y', 'e')),
				row("a close without a code", written(8, (out) -> FrameWriter.close(out, CloseCode.NO_STATUS, "")),
						bytes(0x88, 0)),
				row("a message in frames of at most 2 bytes",
						written(32, (out) -> FrameWriter.message(out, true, ByteBuffer.wrap(utf8("abcde")), 2)),
						bytes(0x01, 2, 'a', 'b', 0x00, 2, 'c', 'd', 0x80, 1, 'e')),
				row("an empty message is one empty frame",
						written(8, (out) -> FrameWriter.message(out, false, ByteBuffer.allocate(0), 10)), bytes(0x82, 0)));
	}

	private static Arguments row(String rule, byte[] written, byte[] expected) {
		return argumentSet(rule, written, expected);
	}

	private static byte[] header(int opcode, boolean fin, boolean compressed, long length) {
		return written(16, (out) -> FrameWriter.header(out, opcode, fin, compressed, length));
	}

	@ParameterizedTest
	@MethodSource("headers")
	void writesTheBytesTheRfcSays(byte[] written, byte[] expected) {
		assertThat(RecordingListener.hex(written)).isEqualTo(RecordingListener.hex(expected));
	}

	@ParameterizedTest
	@ValueSource(longs = { 0, 1, 125, 126, 127, 65535, 65536, 1L << 32, Long.MAX_VALUE })
	void saysHowLongAHeaderIs(long length) {
		assertThat(FrameWriter.headerLength(length)).isEqualTo(header(Opcode.BINARY, true, false, length).length);
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, 1, 2, 125, 126, 65535, 65536, 200_000, 300_000 })
	void fragmentsAMessageThatAReaderOfServerFramesReadsWhole(int size) throws Exception {
		byte[] payload = repeat('z', size);
		int maxFrame = 70_000;
		long length = FrameWriter.messageLength(size, maxFrame);
		ByteBuffer out = ByteBuffer.allocate((int) length);
		FrameWriter.message(out, true, ByteBuffer.wrap(payload), maxFrame);
		assertThat(out.position()).isEqualTo(length);
		FrameReader client = new FrameReader(new WebSocketLimits(maxFrame, 1 << 20), null, false);
		Outcome outcome = WsFrames.outcome(client, List.of(out.array()));
		int frames = Math.max(1, (size + maxFrame - 1) / maxFrame);
		assertThat(outcome).isEqualTo(Outcome.of("text '" + "z".repeat(size) + "' frames=" + frames));
	}

	@Test
	void closeFramesRoundTripThroughAReader() {
		byte[] frames = concat(written(8, (out) -> FrameWriter.close(out, CloseCode.NO_STATUS, "")));
		assertThat(WsFrames.outcome(new FrameReader(WebSocketLimits.DEFAULTS, null, false), List.of(frames)))
			.isEqualTo(Outcome.of("close 1005 ''"));
		String reason = "é".repeat(61) + "!";
		byte[] longest = written(128, (out) -> FrameWriter.close(out, 4999, reason));
		assertThat(longest).hasSize(FrameWriter.closeLength(4999, reason)).hasSize(127);
		assertThat(WsFrames.outcome(new FrameReader(WebSocketLimits.DEFAULTS, null, false), List.of(longest)))
			.isEqualTo(Outcome.of("close 4999 '" + reason + "'"));
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, 999, 1004, 1006, 1015, 1016, 2999, 5000 })
	void refusesToSendACloseCodeTheRfcForbids(int code) {
		assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.close(ByteBuffer.allocate(16), code, ""));
	}

	@Test
	void refusesWhatWouldBreakAFrame() {
		ByteBuffer out = ByteBuffer.allocate(256);
		assertThatIllegalArgumentException().as("a reason over 123 bytes")
			.isThrownBy(() -> FrameWriter.close(out, CloseCode.NORMAL, "é".repeat(62)));
		assertThatIllegalArgumentException().as("a reason without a code")
			.isThrownBy(() -> FrameWriter.close(out, CloseCode.NO_STATUS, "why"));
		assertThatIllegalArgumentException().as("a ping of 126 bytes")
			.isThrownBy(() -> FrameWriter.ping(out, ByteBuffer.allocate(126)));
		assertThatIllegalArgumentException().as("a fragmented control frame")
			.isThrownBy(() -> FrameWriter.header(out, Opcode.PONG, false, false, 0));
		assertThatIllegalArgumentException().as("a compressed control frame")
			.isThrownBy(() -> FrameWriter.header(out, Opcode.PING, true, true, 0));
		assertThatIllegalArgumentException().as("a compressed continuation")
			.isThrownBy(() -> FrameWriter.header(out, Opcode.CONTINUATION, true, true, 0));
		assertThatIllegalArgumentException().as("a reserved opcode")
			.isThrownBy(() -> FrameWriter.header(out, 3, true, false, 0));
		assertThatIllegalArgumentException().as("a negative length")
			.isThrownBy(() -> FrameWriter.header(out, Opcode.BINARY, true, false, -1));
		assertThatIllegalArgumentException().as("frames of 0 bytes")
			.isThrownBy(() -> FrameWriter.message(out, true, ByteBuffer.allocate(1), 0));
		assertThat(out.position()).as("nothing written").isZero();
	}

	@Test
	void needsTheRoomItSays() {
		ByteBuffer small = ByteBuffer.allocate(FrameWriter.closeLength(CloseCode.NORMAL, "bye") - 1);
		org.assertj.core.api.Assertions.assertThatExceptionOfType(BufferOverflowException.class)
			.isThrownBy(() -> FrameWriter.close(small, CloseCode.NORMAL, "bye"));
	}

}
