package dev.ariadne.http2;

import static dev.ariadne.http2.Frames.ascii;
import static dev.ariadne.http2.Frames.bytes;
import static dev.ariadne.http2.Frames.concat;
import static dev.ariadne.http2.Frames.frame;
import static dev.ariadne.http2.Frames.int32;
import static dev.ariadne.http2.Frames.written;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ariadne.http2.Frames.Outcome;

/**
 * The frames {@link FrameWriter} writes, byte for byte, and read back by {@link FrameReader}:
 * every frame type with every value of the flags byte, and every method of the writer.
 */
class FrameWriterTest {

	private static final int MAX = FrameType.MIN_MAX_FRAME_SIZE;

	// ---- exact bytes

	@Test
	void writesTheFrameHeaderBigEndianWhateverTheBufferOrder() {
		byte[] bytes = written(9, (out) -> FrameWriter.header(out.order(ByteOrder.LITTLE_ENDIAN), 0x123456, 0xab,
				0xcd, 0x7fff_fffe));
		assertThat(bytes).containsExactly(0x12, 0x34, 0x56, 0xab, 0xcd, 0x7f, 0xff, 0xff, 0xfe);
	}

	@Test
	void writesEachControlFrameAsRfc9113LaysItOut() {
		assertThat(written(9, FrameWriter::settingsAck)).containsExactly(0, 0, 0, 4, 1, 0, 0, 0, 0);
		assertThat(written(17, (out) -> FrameWriter.ping(out, true, 0x0102030405060708L)))
			.containsExactly(0, 0, 8, 6, 1, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8);
		assertThat(written(13, (out) -> FrameWriter.rstStream(out, 3, ErrorCode.CANCEL)))
			.containsExactly(0, 0, 4, 3, 0, 0, 0, 0, 3, 0, 0, 0, 8);
		assertThat(written(13, (out) -> FrameWriter.windowUpdate(out, 0, Integer.MAX_VALUE)))
			.containsExactly(0, 0, 4, 8, 0, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff);
		assertThat(written(20, (out) -> FrameWriter.goAway(out, 5, ErrorCode.PROTOCOL_ERROR, "é!")))
			.containsExactly(0, 0, 10, 7, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 1, '?', '!');
		assertThat(written(9, (out) -> FrameWriter.dataHeader(out, 1, 300, true)))
			.containsExactly(0, 1, 44, 0, 1, 0, 0, 0, 1);
	}

	@Test
	void writesEveryPresentSettingInTheOrderOfTheirIds() {
		Settings settings = new Settings().set(Settings.MAX_HEADER_LIST_SIZE, 0xffff_ffffL)
			.set(Settings.ENABLE_PUSH, 0)
			.set(Settings.ENABLE_CONNECT_PROTOCOL, 1);
		assertThat(FrameWriter.settingsLength(settings)).isEqualTo(27);
		assertThat(written(27, (out) -> FrameWriter.settings(out, settings))).containsExactly(0, 0, 18, 4, 0, 0, 0,
				0, 0, 0, 2, 0, 0, 0, 0, 0, 6, 0xff, 0xff, 0xff, 0xff, 0, 8, 0, 0, 0, 1);
		assertThat(written(9, (out) -> FrameWriter.settings(out, new Settings()))).containsExactly(0, 0, 0, 4, 0, 0,
				0, 0, 0);
	}

	@Test
	void splitsAHeaderBlockIntoHeadersAndContinuationFramesOfAtMostTheMaximumSize() {
		byte[] block = new byte[2 * MAX + 1];
		Arrays.fill(block, (byte) 'x');
		int length = FrameWriter.headersLength(block.length, MAX);
		assertThat(length).isEqualTo(block.length + 27);
		ByteBuffer source = ByteBuffer.wrap(block);
		byte[] bytes = written(length, (out) -> FrameWriter.headers(out, 3, source, true, MAX));
		assertThat(bytes).hasSize(length);
		assertThat(source.hasRemaining()).isFalse();
		assertThat(Arrays.copyOfRange(bytes, 0, 9)).containsExactly(0x00, 0x40, 0x00, 1, 1, 0, 0, 0, 3);
		assertThat(Arrays.copyOfRange(bytes, 9 + MAX, 18 + MAX)).containsExactly(0x00, 0x40, 0x00, 9, 0, 0, 0, 0, 3);
		assertThat(Arrays.copyOfRange(bytes, 18 + 2 * MAX, 27 + 2 * MAX)).containsExactly(0, 0, 1, 9, 4, 0, 0, 0, 3);
		String x = "x".repeat(MAX);
		assertThat(Frames.outcome(Frames.whole(bytes))).isEqualTo(new Outcome(List.of("headers 3 '" + x
				+ "' endStream", "continuation 3 '" + x + "'", "continuation 3 'x' endHeaders"), null));
	}

	@Test
	void countsOneFramePerMaximumSizeAndOneForAnEmptyBlock() {
		assertThat(FrameWriter.headersLength(0, MAX)).isEqualTo(9);
		assertThat(FrameWriter.headersLength(1, MAX)).isEqualTo(10);
		assertThat(FrameWriter.headersLength(MAX, MAX)).isEqualTo(MAX + 9);
		assertThat(FrameWriter.headersLength(MAX + 1, MAX)).isEqualTo(MAX + 19);
		assertThat(FrameWriter.headersLength(Integer.MAX_VALUE - 2000, FrameType.MAX_MAX_FRAME_SIZE))
			.isEqualTo(Integer.MAX_VALUE - 2000 + 128 * 9);
		assertThat(written(9, (out) -> FrameWriter.headers(out, 1, ByteBuffer.allocate(0), false, MAX)))
			.containsExactly(0, 0, 0, 1, 4, 0, 0, 0, 1);
	}

	@Test
	void writesAtTheBuffersPositionAndAdvancesItByWhatItDocuments() {
		ByteBuffer out = ByteBuffer.allocate(200);
		out.position(7);
		FrameWriter.ping(out, false, 1);
		assertThat(out.position()).isEqualTo(7 + 17);
		FrameWriter.goAway(out, 1, ErrorCode.NO_ERROR, null);
		assertThat(out.position()).isEqualTo(24 + 17);
		FrameWriter.goAway(out, 1, ErrorCode.NO_ERROR, "");
		assertThat(out.position()).isEqualTo(41 + 17);
		FrameWriter.headers(out, 1, ByteBuffer.wrap(ascii("abc")), false, MAX);
		assertThat(out.position()).isEqualTo(58 + FrameWriter.headersLength(3, MAX));
	}

	@Test
	void rejectsWhatWouldMeanSomethingElseOnTheWire() {
		ByteBuffer out = ByteBuffer.allocate(100);
		assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.header(out, 1 << 24, 0, 0, 1));
		assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.header(out, -1, 0, 0, 1));
		assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.header(out, 0, 0, 0, -1));
		assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.windowUpdate(out, 1, 0));
		assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.rstStream(out, 0, ErrorCode.CANCEL));
		assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.dataHeader(out, 0, 1, false));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> FrameWriter.headers(out, 1, ByteBuffer.allocate(1), false, 100));
		assertThatIllegalArgumentException().isThrownBy(() -> FrameWriter.goAway(out, -1, ErrorCode.NO_ERROR, null));
		assertThat(out.position()).isZero();
		assertThatExceptionOfType(BufferOverflowException.class)
			.isThrownBy(() -> FrameWriter.ping(ByteBuffer.allocate(16), false, 0));
	}

	// ---- round trips

	@Test
	void readsBackEveryFrameTheWriterWrites() {
		ByteBuffer out = ByteBuffer.allocate(1000);
		FrameWriter.settings(out, new Settings().set(Settings.HEADER_TABLE_SIZE, 0)
			.set(Settings.MAX_FRAME_SIZE, FrameType.MAX_MAX_FRAME_SIZE));
		FrameWriter.settings(out, new Settings());
		FrameWriter.settingsAck(out);
		FrameWriter.ping(out, false, -1L);
		FrameWriter.ping(out, true, 42);
		FrameWriter.goAway(out, Integer.MAX_VALUE, ErrorCode.HTTP_1_1_REQUIRED, "use h1");
		FrameWriter.goAway(out, 0, ErrorCode.NO_ERROR, null);
		FrameWriter.rstStream(out, 7, ErrorCode.REFUSED_STREAM);
		FrameWriter.windowUpdate(out, 0, 1);
		FrameWriter.windowUpdate(out, 9, Integer.MAX_VALUE);
		FrameWriter.dataHeader(out, 5, 3, false);
		out.put(ascii("abc"));
		FrameWriter.dataHeader(out, 5, 0, true);
		FrameWriter.headers(out, 11, ByteBuffer.wrap(ascii("block")), false, MAX);
		FrameWriter.headers(out, 13, ByteBuffer.wrap(ascii("end")), true, MAX);
		FrameWriter.header(out, 2, 0x42, 0xff, 3);
		out.put(ascii("??"));
		byte[] bytes = Arrays.copyOf(out.array(), out.position());
		List<String> events = List.of("settings Settings{SETTINGS_HEADER_TABLE_SIZE=0, SETTINGS_MAX_FRAME_SIZE=16777215}",
				"settings Settings{}", "settingsAck", "ping 0xffffffffffffffff", "ping 0x000000000000002a ack",
				"goAway last=2147483647 code=13 'use h1'", "goAway last=0 code=0 ''", "rstStream 7 code=7",
				"windowUpdate 0 +1", "windowUpdate 9 +2147483647", "data 5 flow=3 'abc'", "data 5 flow=0 '' endStream",
				"headers 11 'block' endHeaders", "headers 13 'end' endHeaders endStream", "unknown 0x42 on 3");
		assertThat(Frames.outcome(Frames.whole(bytes))).isEqualTo(new Outcome(events, null));
		assertThat(Frames.outcome(Frames.pieces(bytes, 1))).isEqualTo(new Outcome(events, null));
	}

	/**
	 * Each type written with each of the 256 values of the flags byte, with a payload valid for
	 * those flags, reads back as the flags it defines say; the others are ignored.
	 */
	@ParameterizedTest
	@ValueSource(ints = { 0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xff })
	void readsBackEveryTypeWithEveryFlagsByte(int type) {
		for (int flags = 0; flags < 256; flags++) {
			List<byte[]> frame = new ArrayList<>();
			String event = frameWithFlags(type, flags, frame);
			byte[] bytes = frame.get(0);
			Outcome expected = new Outcome(List.of(event), null);
			assertThat(Frames.outcome(Frames.whole(bytes))).as("flags 0x%02x", flags).isEqualTo(expected);
			assertThat(Frames.outcome(Frames.pieces(bytes, 1))).as("flags 0x%02x, byte by byte", flags)
				.isEqualTo(expected);
		}
	}

	/** Writes a frame of the type and flags into {@code frame}, and returns the event it means. */
	private static String frameWithFlags(int type, int flags, List<byte[]> frame) {
		boolean bit0 = (flags & 0x1) != 0;
		boolean endHeaders = (flags & FrameType.FLAG_END_HEADERS) != 0;
		boolean padded = (flags & FrameType.FLAG_PADDED) != 0;
		boolean priority = (flags & FrameType.FLAG_PRIORITY) != 0;
		byte[] pad = padded ? bytes(2) : new byte[0];
		byte[] padding = padded ? bytes(0, 0) : new byte[0];
		switch (type) {
			case FrameType.DATA -> {
				byte[] payload = concat(pad, ascii("body"), padding);
				frame.add(frame(type, flags, 1, payload));
				return "data 1 flow=" + payload.length + " 'body'" + (bit0 ? " endStream" : "");
			}
			case FrameType.HEADERS -> {
				byte[] dependency = priority ? concat(int32(0x8000_0009), bytes(1)) : new byte[0];
				frame.add(frame(type, flags, 1, pad, dependency, ascii("hpack"), padding));
				return "headers 1 'hpack'" + (priority ? " dep=9" : "") + (endHeaders ? " endHeaders" : "")
						+ (bit0 ? " endStream" : "");
			}
			case FrameType.PRIORITY -> {
				frame.add(frame(type, flags, 3, int32(1), bytes(0)));
				return "priority 3 dep=1";
			}
			case FrameType.RST_STREAM -> {
				frame.add(frame(type, flags, 3, int32(2)));
				return "rstStream 3 code=2";
			}
			case FrameType.SETTINGS -> {
				frame.add(frame(type, flags, 0, bit0 ? new byte[0] : concat(bytes(0, 3), int32(10))));
				return bit0 ? "settingsAck" : "settings Settings{SETTINGS_MAX_CONCURRENT_STREAMS=10}";
			}
			case FrameType.PUSH_PROMISE -> {
				frame.add(frame(type, flags, 1, pad, int32(2), ascii("hpack"), padding));
				return "pushPromise 1";
			}
			case FrameType.PING -> {
				frame.add(written(17, (out) -> FrameWriter.ping(out, bit0, 77)));
				frame.set(0, withFlags(frame.get(0), flags));
				return "ping 0x000000000000004d" + (bit0 ? " ack" : "");
			}
			case FrameType.GOAWAY -> {
				frame.add(withFlags(written(20, (out) -> FrameWriter.goAway(out, 3, ErrorCode.CANCEL, "x")), flags));
				return "goAway last=3 code=8 'x'";
			}
			case FrameType.WINDOW_UPDATE -> {
				frame.add(withFlags(written(13, (out) -> FrameWriter.windowUpdate(out, 1, 5)), flags));
				return "windowUpdate 1 +5";
			}
			case FrameType.CONTINUATION -> {
				frame.add(frame(type, flags, 1, ascii("more")));
				return "continuation 1 'more'" + (endHeaders ? " endHeaders" : "");
			}
			default -> {
				frame.add(frame(type, flags, 1, ascii("opaque")));
				return "unknown 0x" + Integer.toHexString(type) + " on 1";
			}
		}
	}

	private static byte[] withFlags(byte[] frame, int flags) {
		frame[4] = (byte) flags;
		return frame;
	}

}
