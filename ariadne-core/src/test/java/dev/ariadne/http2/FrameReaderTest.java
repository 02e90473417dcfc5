package dev.ariadne.http2;

import static dev.ariadne.http2.Frames.ascii;
import static dev.ariadne.http2.Frames.bytes;
import static dev.ariadne.http2.Frames.concat;
import static dev.ariadne.http2.Frames.frame;
import static dev.ariadne.http2.Frames.header;
import static dev.ariadne.http2.Frames.int32;
import static dev.ariadne.http2.Frames.zeros;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ariadne.http2.Frames.Outcome;

/**
 * The frame formats of RFC 9113 §4 and §6, one table row per rule: raw frame bytes in, the
 * events the reader reports (see {@link RecordingFrameListener}) or the error it throws out.
 * Every row is also fed split at every index and one byte at a time, which must not change the
 * outcome. Round trips from {@link FrameWriter} are in {@link FrameWriterTest}.
 */
class FrameReaderTest {

	private static final int D = FrameType.DATA;

	private static final int H = FrameType.HEADERS;

	private static final byte[] PING = frame(FrameType.PING, 0, 0, bytes(1, 2, 3, 4, 5, 6, 7, 8));

	private static final String PING_EVENT = "ping 0x0102030405060708";

	static Stream<Arguments> validFrames() {
		return Stream.of(
				valid("DATA (§6.1)", frame(D, 0, 1, ascii("hello")), "data 1 flow=5 'hello'"),
				valid("DATA with END_STREAM", frame(D, 0x1, 1, ascii("hello")), "data 1 flow=5 'hello' endStream"),
				valid("DATA of length 0", frame(D, 0, 3), "data 3 flow=0 ''"),
				valid("DATA of length 0 with END_STREAM", frame(D, 0x1, 3), "data 3 flow=0 '' endStream"),
				valid("padded DATA: the flow length counts the padding, the content does not",
						frame(D, 0x8, 1, bytes(3), ascii("abc"), zeros(3)), "data 1 flow=7 'abc'"),
				valid("padded DATA with pad length 0", frame(D, 0x9, 1, bytes(0), ascii("abc")),
						"data 1 flow=4 'abc' endStream"),
				valid("padded DATA that is all padding", frame(D, 0x8, 1, bytes(2), zeros(2)), "data 1 flow=3 ''"),
				valid("padded DATA of the pad length only", frame(D, 0x8, 1, bytes(0)), "data 1 flow=1 ''"),
				valid("unknown flags are ignored (§4.1)", frame(D, 0xf6, 1, ascii("x")), "data 1 flow=1 'x'"),
				valid("the reserved bit of the stream id is ignored (§4.1)",
						concat(bytes(0, 0, 1, D, 0, 0x80, 0, 0, 5), ascii("x")), "data 5 flow=1 'x'"),
				valid("HEADERS (§6.2)", frame(H, 0x4, 1, ascii("abc")), "headers 1 'abc' endHeaders"),
				valid("HEADERS without END_HEADERS, with END_STREAM", frame(H, 0x1, 1, ascii("abc")),
						"headers 1 'abc' endStream"),
				valid("HEADERS with an empty fragment", frame(H, 0x5, 7), "headers 7 '' endHeaders endStream"),
				valid("HEADERS with PRIORITY: the exclusive bit is masked, the weight dropped",
						frame(H, 0x24, 1, int32(0x8000_0003), bytes(255), ascii("ab")),
						"headers 1 'ab' dep=3 endHeaders"),
				valid("padded HEADERS", frame(H, 0xc, 1, bytes(2), ascii("ab"), zeros(2)), "headers 1 'ab' endHeaders"),
				valid("padded HEADERS with PRIORITY, the padding filling the rest",
						frame(H, 0x2c, 1, bytes(1), int32(5), bytes(16), zeros(1)), "headers 1 '' dep=5 endHeaders"),
				valid("PRIORITY (§6.3)", frame(FrameType.PRIORITY, 0, 3, int32(0x8000_0005), bytes(16)),
						"priority 3 dep=5"),
				valid("PRIORITY of length 4 is a stream error, and reading goes on (§6.3)",
						concat(frame(FrameType.PRIORITY, 0, 3, int32(5)), PING), "streamError 3 FRAME_SIZE_ERROR",
						PING_EVENT),
				valid("PRIORITY of length 6 is a stream error", frame(FrameType.PRIORITY, 0, 3, zeros(6)),
						"streamError 3 FRAME_SIZE_ERROR"),
				valid("PRIORITY of length 0 is a stream error", frame(FrameType.PRIORITY, 0, 3),
						"streamError 3 FRAME_SIZE_ERROR"),
				valid("RST_STREAM (§6.4)", frame(FrameType.RST_STREAM, 0, 1, int32(8)), "rstStream 1 code=8"),
				valid("RST_STREAM with an unknown code, as sent", frame(FrameType.RST_STREAM, 0xff, 1, int32(-1)),
						"rstStream 1 code=-1"),
				valid("SETTINGS (§6.5): unknown ids are ignored, values are unsigned",
						frame(FrameType.SETTINGS, 0, 0, bytes(0, 1), int32(0), bytes(0, 0x7), int32(9),
								bytes(0xff, 0xff), int32(1), bytes(0, 6), int32(-1), bytes(0, 4), int32(0x7fff_ffff)),
						"settings Settings{SETTINGS_HEADER_TABLE_SIZE=0, SETTINGS_INITIAL_WINDOW_SIZE=2147483647, "
								+ "SETTINGS_MAX_HEADER_LIST_SIZE=4294967295}"),
				valid("SETTINGS: the last value of a repeated id counts",
						frame(FrameType.SETTINGS, 0, 0, bytes(0, 5), int32(20000), bytes(0, 5), int32(16777215)),
						"settings Settings{SETTINGS_MAX_FRAME_SIZE=16777215}"),
				valid("empty SETTINGS", frame(FrameType.SETTINGS, 0, 0), "settings Settings{}"),
				valid("SETTINGS with ACK", frame(FrameType.SETTINGS, 0x1, 0), "settingsAck"),
				valid("PUSH_PROMISE is skipped (§6.6)", frame(FrameType.PUSH_PROMISE, 0x4, 1, int32(2), ascii("abc")),
						"pushPromise 1"),
				valid("PUSH_PROMISE of length 0 is skipped, whatever its flags",
						frame(FrameType.PUSH_PROMISE, 0xff, 1), "pushPromise 1"),
				valid("PING (§6.7)", PING, PING_EVENT),
				valid("PING with ACK", frame(FrameType.PING, 0x1, 0, int32(-1), int32(-2)), "ping 0xfffffffffffffffe ack"),
				valid("GOAWAY (§6.8): the reserved bit of the last stream is ignored",
						frame(FrameType.GOAWAY, 0, 0, int32(0x8000_0005), int32(2), ascii("bye")),
						"goAway last=5 code=2 'bye'"),
				valid("GOAWAY without debug data", frame(FrameType.GOAWAY, 0, 0, int32(0x7fff_ffff), int32(0)),
						"goAway last=2147483647 code=0 ''"),
				valid("WINDOW_UPDATE on the connection (§6.9)", frame(FrameType.WINDOW_UPDATE, 0, 0, int32(100)),
						"windowUpdate 0 +100"),
				valid("WINDOW_UPDATE: the reserved bit is ignored, 0 is the listener's to refuse",
						concat(frame(FrameType.WINDOW_UPDATE, 0, 9, int32(0x8000_0000)),
								frame(FrameType.WINDOW_UPDATE, 0, 9, int32(-1))),
						"windowUpdate 9 +0", "windowUpdate 9 +2147483647"),
				valid("CONTINUATION (§6.10)", frame(FrameType.CONTINUATION, 0x4, 1, ascii("abc")),
						"continuation 1 'abc' endHeaders"),
				valid("CONTINUATION, empty and not the last", frame(FrameType.CONTINUATION, 0xfb, 1), "continuation 1 ''"),
				valid("a frame of an unknown type is skipped (§4.1)", frame(0x0a, 0xff, 1, ascii("whatever")),
						"unknown 0xa on 1"),
				valid("a frame of an unknown type, empty, on stream 0", frame(0xff, 0, 0), "unknown 0xff on 0"));
	}

	static Stream<Arguments> invalidFrames() {
		String connectionFrameSize = "FRAME_SIZE_ERROR connection";
		String connectionProtocol = "PROTOCOL_ERROR connection";
		return Stream.of(
				invalid("a frame larger than the maximum frame size, at its header (§4.2)", header(16385, D, 0, 1),
						connectionFrameSize),
				invalid("an unknown frame larger than the maximum frame size", header(16385, 0x0a, 0, 1),
						connectionFrameSize),
				invalid("a PRIORITY frame larger than the maximum frame size", header(16385, FrameType.PRIORITY, 0, 1),
						connectionFrameSize),
				invalid("DATA on stream 0 (§6.1)", frame(D, 0, 0, ascii("x")), connectionProtocol),
				invalid("HEADERS on stream 0 (§6.2)", frame(H, 0x4, 0, ascii("x")), connectionProtocol),
				invalid("PRIORITY on stream 0 (§6.3)", frame(FrameType.PRIORITY, 0, 0, zeros(5)), connectionProtocol),
				invalid("PRIORITY of the wrong length on stream 0", frame(FrameType.PRIORITY, 0, 0, zeros(4)),
						connectionProtocol),
				invalid("RST_STREAM on stream 0 (§6.4)", frame(FrameType.RST_STREAM, 0, 0, int32(0)), connectionProtocol),
				invalid("CONTINUATION on stream 0 (§6.10)", frame(FrameType.CONTINUATION, 0, 0), connectionProtocol),
				invalid("PUSH_PROMISE on stream 0 (§6.6)", frame(FrameType.PUSH_PROMISE, 0, 0, int32(2)),
						connectionProtocol),
				invalid("SETTINGS on a stream (§6.5)", frame(FrameType.SETTINGS, 0, 1), connectionProtocol),
				invalid("PING on a stream (§6.7)", frame(FrameType.PING, 0, 1, zeros(8)), connectionProtocol),
				invalid("GOAWAY on a stream (§6.8)", frame(FrameType.GOAWAY, 0, 1, zeros(8)), connectionProtocol),
				invalid("padded DATA too short for its pad length (§4.2)", frame(D, 0x8, 1), connectionFrameSize),
				invalid("padded DATA whose padding exceeds the rest of the frame (§6.1)",
						frame(D, 0x8, 1, bytes(4), ascii("abc")), connectionProtocol),
				invalid("padded DATA whose padding exceeds the frame, after frames that are fine",
						concat(PING, frame(D, 0x8, 1, bytes(255), zeros(9))), connectionProtocol, PING_EVENT),
				invalid("padded HEADERS too short for its pad length", frame(H, 0x8, 1), connectionFrameSize),
				invalid("HEADERS with PRIORITY too short for it", frame(H, 0x20, 1, zeros(4)), connectionFrameSize),
				invalid("padded HEADERS with PRIORITY too short for both", frame(H, 0x28, 1, zeros(5)),
						connectionFrameSize),
				invalid("padded HEADERS whose padding exceeds the rest (§6.2)", frame(H, 0x8, 1, bytes(3), ascii("ab")),
						connectionProtocol),
				invalid("padded HEADERS with PRIORITY whose padding exceeds the rest",
						frame(H, 0x28, 1, bytes(2), zeros(5), ascii("a")), connectionProtocol),
				invalid("RST_STREAM of length 3 (§6.4)", frame(FrameType.RST_STREAM, 0, 1, zeros(3)), connectionFrameSize),
				invalid("RST_STREAM of length 5", frame(FrameType.RST_STREAM, 0, 1, zeros(5)), connectionFrameSize),
				invalid("WINDOW_UPDATE of length 3 (§6.9)", frame(FrameType.WINDOW_UPDATE, 0, 0, zeros(3)),
						connectionFrameSize),
				invalid("WINDOW_UPDATE of length 5 on a stream", frame(FrameType.WINDOW_UPDATE, 0, 1, zeros(5)),
						connectionFrameSize),
				invalid("PING of length 7 (§6.7)", frame(FrameType.PING, 0, 0, zeros(7)), connectionFrameSize),
				invalid("PING of length 9", frame(FrameType.PING, 0x1, 0, zeros(9)), connectionFrameSize),
				invalid("GOAWAY of length 7 (§6.8)", frame(FrameType.GOAWAY, 0, 0, zeros(7)), connectionFrameSize),
				invalid("SETTINGS with ACK and a payload (§6.5)", frame(FrameType.SETTINGS, 0x1, 0, zeros(6)),
						connectionFrameSize),
				invalid("SETTINGS of length 5", frame(FrameType.SETTINGS, 0, 0, zeros(5)), connectionFrameSize),
				invalid("SETTINGS of length 13", frame(FrameType.SETTINGS, 0, 0, zeros(13)), connectionFrameSize),
				invalid("SETTINGS_ENABLE_PUSH of 2 (§6.5.2)", frame(FrameType.SETTINGS, 0, 0, bytes(0, 2), int32(2)),
						connectionProtocol),
				invalid("SETTINGS_INITIAL_WINDOW_SIZE of 2^31", frame(FrameType.SETTINGS, 0, 0, bytes(0, 4),
						int32(0x8000_0000)), "FLOW_CONTROL_ERROR connection"),
				invalid("SETTINGS_INITIAL_WINDOW_SIZE of 2^32-1, read unsigned", frame(FrameType.SETTINGS, 0, 0,
						bytes(0, 4), int32(-1)), "FLOW_CONTROL_ERROR connection"),
				invalid("SETTINGS_MAX_FRAME_SIZE of 16383", frame(FrameType.SETTINGS, 0, 0, bytes(0, 5), int32(16383)),
						connectionProtocol),
				invalid("SETTINGS_MAX_FRAME_SIZE of 2^24, after a valid setting", frame(FrameType.SETTINGS, 0, 0,
						bytes(0, 1), int32(0), bytes(0, 5), int32(1 << 24)), connectionProtocol),
				invalid("SETTINGS_ENABLE_CONNECT_PROTOCOL of 2", frame(FrameType.SETTINGS, 0, 0, bytes(0, 8),
						int32(2)), connectionProtocol));
	}

	@ParameterizedTest
	@MethodSource("validFrames")
	void readsValidFrames(byte[] frames, List<String> events) {
		assertThat(Frames.outcome(Frames.whole(frames))).isEqualTo(new Outcome(events, null));
	}

	@ParameterizedTest
	@MethodSource("validFrames")
	void readsTheSameEventsWhereverTheInputIsSplit(byte[] frames, List<String> events) {
		for (int at = 0; at <= frames.length; at++) {
			assertThat(Frames.outcome(Frames.splitAt(frames, at))).as("split at %d", at)
				.isEqualTo(new Outcome(events, null));
		}
	}

	@ParameterizedTest
	@MethodSource("validFrames")
	void readsTheSameEventsOneByteAtATime(byte[] frames, List<String> events) {
		assertThat(Frames.outcome(Frames.pieces(frames, 1))).isEqualTo(new Outcome(events, null));
	}

	@ParameterizedTest
	@MethodSource("invalidFrames")
	void rejectsInvalidFrames(byte[] frames, String error, List<String> events) {
		assertThat(Frames.outcome(Frames.whole(frames))).isEqualTo(new Outcome(events, error));
	}

	@ParameterizedTest
	@MethodSource("invalidFrames")
	void rejectsInvalidFramesTheSameWayWhereverTheInputIsSplitAndOneByteAtATime(byte[] frames, String error,
			List<String> events) {
		for (int at = 0; at <= frames.length; at++) {
			assertThat(Frames.outcome(Frames.splitAt(frames, at))).as("split at %d", at)
				.isEqualTo(new Outcome(events, error));
		}
		assertThat(Frames.outcome(Frames.pieces(frames, 1))).isEqualTo(new Outcome(events, error));
	}

	@ParameterizedTest
	@MethodSource("invalidFrames")
	void isFinishedAfterAnError(byte[] frames) {
		FrameReader reader = new FrameReader(FrameType.MIN_MAX_FRAME_SIZE);
		RecordingFrameListener listener = new RecordingFrameListener();
		assertThatExceptionOfType(Http2Exception.class)
			.isThrownBy(() -> reader.read(ByteBuffer.wrap(frames), listener));
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> reader.read(ByteBuffer.wrap(PING), listener));
		assertThat(reader.holdingCapacity()).isZero();
	}

	// ---- one stream of every kind of frame, split every way

	/** Frames of every type, padded and split ones among them, and what they report. */
	static final byte[] MIXED = concat(
			frame(FrameType.SETTINGS, 0, 0, bytes(0, 3), int32(100), bytes(0, 4), int32(1 << 20)),
			frame(FrameType.SETTINGS, 0x1, 0),
			frame(FrameType.WINDOW_UPDATE, 0, 0, int32(1 << 20)),
			frame(H, 0x29, 1, bytes(3), int32(0x8000_0000), bytes(15), ascii("frag1"), zeros(3)),
			frame(0x0c, 0x3, 1, ascii("ignored payload")),
			frame(FrameType.CONTINUATION, 0x4, 1, ascii("frag2")),
			frame(D, 0x8, 1, bytes(4), ascii("padded content"), zeros(4)),
			frame(FrameType.PRIORITY, 0, 3, int32(1), bytes(7)),
			frame(D, 0, 1, ascii("more")),
			frame(FrameType.PUSH_PROMISE, 0x4, 1, int32(2), ascii("promised")),
			PING,
			frame(D, 0x9, 1, bytes(0)),
			frame(FrameType.RST_STREAM, 0, 3, int32(8)),
			frame(FrameType.PING, 0x1, 0, zeros(8)),
			frame(FrameType.GOAWAY, 0, 0, int32(3), int32(0), ascii("debug data")));

	static final List<String> MIXED_EVENTS = List.of(
			"settings Settings{SETTINGS_MAX_CONCURRENT_STREAMS=100, SETTINGS_INITIAL_WINDOW_SIZE=1048576}",
			"settingsAck", "windowUpdate 0 +1048576", "headers 1 'frag1' dep=0 endStream", "unknown 0xc on 1",
			"continuation 1 'frag2' endHeaders", "data 1 flow=19 'padded content'", "priority 3 dep=1",
			"data 1 flow=4 'more'", "pushPromise 1", PING_EVENT, "data 1 flow=1 '' endStream", "rstStream 3 code=8",
			"ping 0x0000000000000000 ack", "goAway last=3 code=0 'debug data'");

	@Test
	void readsMixedFramesWhole() {
		assertThat(Frames.outcome(Frames.whole(MIXED))).isEqualTo(new Outcome(MIXED_EVENTS, null));
	}

	@Test
	void readsMixedFramesOneByteAtATime() {
		assertThat(Frames.outcome(Frames.pieces(MIXED, 1))).isEqualTo(new Outcome(MIXED_EVENTS, null));
	}

	@Test
	void readsMixedFramesSplitInTwoAtEveryIndex() {
		for (int at = 0; at <= MIXED.length; at++) {
			assertThat(Frames.outcome(Frames.splitAt(MIXED, at))).as("split at %d", at)
				.isEqualTo(new Outcome(MIXED_EVENTS, null));
		}
	}

	@Test
	void readsMixedFramesInThreeRandomPieces() {
		Random random = new Random(9113);
		for (int i = 0; i < 500; i++) {
			List<byte[]> pieces = Frames.randomPieces(MIXED, 3, random);
			assertThat(Frames.outcome(pieces)).as("case %d", i).isEqualTo(new Outcome(MIXED_EVENTS, null));
		}
	}

	@Test
	void readsFromADirectLittleEndianBufferAsFromAHeapOne() throws Http2Exception {
		ByteBuffer input = ByteBuffer.allocateDirect(MIXED.length + 10).order(ByteOrder.LITTLE_ENDIAN);
		input.position(5);
		input.put(MIXED).flip().position(5);
		RecordingFrameListener listener = new RecordingFrameListener();
		new FrameReader(FrameType.MIN_MAX_FRAME_SIZE).read(input, listener);
		assertThat(listener.events()).isEqualTo(MIXED_EVENTS);
		assertThat(input.hasRemaining()).isFalse();
	}

	// ---- memory: in place when whole, held only while split

	@Test
	void passesAWholePayloadAsAViewOfTheInputWithoutHoldingIt() throws Http2Exception {
		FrameReader reader = new FrameReader(FrameType.MIN_MAX_FRAME_SIZE);
		ByteBuffer input = Frames.chunk(frame(H, 0x4, 1, ascii("abc")));
		List<Integer> capacities = new ArrayList<>();
		reader.read(input, new RecordingFrameListener() {
			@Override
			public void headers(int streamId, ByteBuffer fragment, int dependency, boolean endHeaders,
					boolean endStream) {
				capacities.add(fragment.capacity());
				capacities.add(reader.holdingCapacity());
			}
		});
		assertThat(capacities).containsExactly(input.capacity(), 0);
	}

	@Test
	void holdsASplitPayloadInABufferOfItsLengthAndReleasesItBeforeReportingIt() throws Http2Exception {
		byte[] frame = frame(FrameType.GOAWAY, 0, 0, int32(1), int32(0), zeros(100));
		FrameReader reader = new FrameReader(FrameType.MIN_MAX_FRAME_SIZE);
		List<Integer> during = new ArrayList<>();
		RecordingFrameListener listener = new RecordingFrameListener().probe(() -> during.add(reader.holdingCapacity()));
		reader.read(ByteBuffer.wrap(frame, 0, 50), listener);
		assertThat(reader.holdingCapacity()).isEqualTo(108);
		reader.read(ByteBuffer.wrap(frame, 50, 30), listener);
		assertThat(reader.holdingCapacity()).isEqualTo(108);
		reader.read(ByteBuffer.wrap(frame, 80, frame.length - 80), listener);
		assertThat(reader.holdingCapacity()).isZero();
		assertThat(during).containsExactly(0);
		assertThat(listener.events()).hasSize(1);
	}

	@Test
	void neverHoldsDataSkippedPayloadsOrAnythingAfterEachFrame() {
		byte[] frames = concat(frame(D, 0x8, 1, bytes(10), zeros(300)), frame(0x20, 0, 1, zeros(300)),
				frame(FrameType.PUSH_PROMISE, 0, 1, zeros(300)), frame(FrameType.PRIORITY, 0, 1, zeros(300)));
		List<Integer> held = new ArrayList<>();
		Frames.outcome(new FrameReader(FrameType.MIN_MAX_FRAME_SIZE), Frames.pieces(frames, 7),
				(reader) -> held.add(reader.holdingCapacity()));
		assertThat(held).containsOnly(0);
		List<Integer> afterFrames = new ArrayList<>();
		Frames.outcome(new FrameReader(FrameType.MIN_MAX_FRAME_SIZE), Frames.pieces(MIXED, 5), (reader) -> {
			if (reader.isIdle()) {
				afterFrames.add(reader.holdingCapacity());
			}
		});
		assertThat(afterFrames).isNotEmpty().containsOnly(0);
	}

	// ---- the maximum frame size

	@Test
	void acceptsAFrameOfExactlyTheMaximumFrameSizeAndRejectsOneByteMore() {
		byte[] largest = frame(H, 0x4, 1, zeros(FrameType.MIN_MAX_FRAME_SIZE));
		Outcome outcome = Frames.outcome(Frames.splitAt(largest, 5000));
		assertThat(outcome.error()).isNull();
		assertThat(outcome.events()).hasSize(1);
		byte[] larger = frame(H, 0x4, 1, zeros(FrameType.MIN_MAX_FRAME_SIZE + 1));
		assertThat(Frames.outcome(Frames.whole(larger))).isEqualTo(new Outcome(List.of(),
				"FRAME_SIZE_ERROR connection"));
	}

	@Test
	void acceptsLargerFramesOnceTheMaximumIsRaised() throws Http2Exception {
		FrameReader reader = new FrameReader(FrameType.MIN_MAX_FRAME_SIZE);
		reader.maxFrameSize(20_000);
		assertThat(reader.maxFrameSize()).isEqualTo(20_000);
		RecordingFrameListener listener = new RecordingFrameListener();
		reader.read(ByteBuffer.wrap(frame(D, 0, 1, zeros(20_000))), listener);
		assertThat(listener.events()).hasSize(1).first().asString().startsWith("data 1 flow=20000 ");
	}

	@Test
	void rejectsAMaximumFrameSizeOutsideWhatSettingsAllow() {
		assertThatIllegalArgumentException().isThrownBy(() -> new FrameReader(16_383));
		assertThatIllegalArgumentException().isThrownBy(() -> new FrameReader(1 << 24));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new FrameReader(FrameType.MIN_MAX_FRAME_SIZE).maxFrameSize(0));
	}

	// ---- errors from the listener

	@Test
	void passesOnAListenersConnectionErrorAndIsFinishedAfterIt() {
		FrameReader reader = new FrameReader(FrameType.MIN_MAX_FRAME_SIZE);
		Http2Exception error = Http2Exception.connection(ErrorCode.ENHANCE_YOUR_CALM, "too many pings");
		RecordingFrameListener listener = new RecordingFrameListener() {
			@Override
			public void ping(boolean ack, long payload) throws Http2Exception {
				throw error;
			}
		};
		byte[] split = concat(PING, frame(H, 0x4, 1, zeros(20)));
		assertThatExceptionOfType(Http2Exception.class)
			.isThrownBy(() -> reader.read(ByteBuffer.wrap(split, 0, 20), listener))
			.isSameAs(error);
		assertThat(reader.holdingCapacity()).isZero();
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> reader.read(ByteBuffer.wrap(split, 20, split.length - 20), listener));
	}

	@Test
	void isFinishedAfterAListenerThrowsAnythingElse() {
		FrameReader reader = new FrameReader(FrameType.MIN_MAX_FRAME_SIZE);
		RecordingFrameListener listener = new RecordingFrameListener() {
			@Override
			public void data(int streamId, ByteBuffer content, boolean endOfFrame) {
				throw new IllegalStateException("listener bug");
			}
		};
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> reader.read(ByteBuffer.wrap(frame(D, 0, 1, zeros(3))), listener))
			.withMessage("listener bug");
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> reader.read(ByteBuffer.wrap(PING), listener))
			.withMessageContaining("failed");
	}

	private static Arguments valid(String rule, byte[] frames, String... events) {
		return argumentSet(rule, frames, List.of(events));
	}

	private static Arguments invalid(String rule, byte[] frames, String error, String... events) {
		return argumentSet(rule + " -> " + error, frames, error, List.of(events));
	}

}
