package dev.ariadne.servlet.websocket;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import dev.ariadne.WsRaw;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link FrameGuard} counts as whole messages received, for the listener's meters: one per
 * message however many frames it took, none for control frames or a frame over the limit; the
 * same wherever the client's bytes are split. And what it refuses (a frame over a size limit,
 * text that is not UTF-8), at which byte, wherever they are split.
 */
class FrameGuardTest {

	private static final int TEXT = 0x1;

	private static final int BINARY = 0x2;

	private static final int CONTINUATION = 0x0;

	private static final int PING = 0x9;

	private static final int CLOSE = 0x8;

	static Stream<Arguments> frames() {
		return Stream.of(Arguments.of("one text frame", bytes(frame(true, TEXT, 5)), 1),
				Arguments.of("an empty text frame", bytes(frame(true, TEXT, 0)), 1),
				Arguments.of("two binary messages", bytes(frame(true, BINARY, 3), frame(true, BINARY, 200)), 2),
				Arguments.of("one message in three frames, a ping between",
						bytes(frame(false, BINARY, 3), frame(true, PING, 1), frame(false, CONTINUATION, 0),
								frame(true, CONTINUATION, 70000)),
						1),
				Arguments.of("a message not yet ended", bytes(frame(false, TEXT, 3), frame(false, CONTINUATION, 2)), 0),
				Arguments.of("control frames only", bytes(frame(true, PING, 2), frame(true, CLOSE, 2)), 0),
				Arguments.of("a frame over the limit", bytes(frame(true, TEXT, 2000)), 0));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("frames")
	void countsWholeMessagesWhereverTheBytesAreSplit(String name, byte[] bytes, int messages) {
		for (int split = 0; split <= bytes.length; split++) {
			FrameGuard guard = new FrameGuard(1024, 100_000, Long.MAX_VALUE);
			guard.accept(bytes, 0, split);
			int counted = guard.messagesEnded();
			guard.accept(bytes, split, bytes.length - split);
			counted += guard.messagesEnded();
			assertThat(counted).as("split at " + split).isEqualTo(messages);
			assertThat(guard.messagesEnded()).as("read once").isZero();
		}
	}

	static Stream<Arguments> refusals() {
		byte[] overLong = bytes(WsRaw.frame(TEXT, true, ascii("ok"), true), WsRaw.frame(BINARY, true, new byte[2000], true));
		return Stream.of(
				// 0xf4 0x90: beyond U+10FFFF, known at the 0x90 (header 6 + 3)
				Arguments.of("text invalid at a byte", WsRaw.frame(TEXT, true, utf8("ab", 0xf4, 0x90, 'c', 'd'), true), 1007, 9, 0),
				Arguments.of("a fragment ending inside a sequence that the next breaks",
						bytes(WsRaw.frame(TEXT, false, utf8("x", 0xe2, 0x82), true), WsRaw.frame(CONTINUATION, true, ascii("A"), true)),
						1007, 9 + 6, 9),
				Arguments.of("a message ending inside a sequence", WsRaw.frame(TEXT, true, utf8("x", 0xe2), true), 1007, 7, 0),
				Arguments.of("a frame over max-frame-size after a message", overLong, 1009, 8 + 7, 8),
				Arguments.of("a character split by a ping between fragments",
						bytes(WsRaw.frame(TEXT, false, utf8("", 0xe2, 0x82), true), WsRaw.frame(PING, true, ascii("p"), true),
								WsRaw.frame(CONTINUATION, true, utf8("", 0xac), true)),
						0, Integer.MAX_VALUE, -1));
	}

	/**
	 * The guard refuses at the byte that breaks the rules, wherever the client's bytes are split:
	 * a split after it finds the refusal in the first piece already (fail fast), and Tyrus gets the
	 * frames before the refused one.
	 */
	@ParameterizedTest(name = "{0}")
	@MethodSource("refusals")
	void refusesAtTheFirstByteThatBreaksTheRules(String name, byte[] bytes, int code, int known, int before) {
		for (int split = 0; split <= bytes.length; split++) {
			FrameGuard guard = new FrameGuard(100_000, 100_000, 1024);
			byte[] copy = bytes.clone();
			int passed = guard.accept(copy, 0, split);
			assertThat(guard.refusal()).as("refused in the first %d bytes", split).isEqualTo((split > known) ? code : 0);
			passed += guard.accept(copy, split, copy.length - split);
			assertThat(guard.refusal()).as("split at " + split).isEqualTo(code);
			assertThat(copy).as("the bytes are left as sent").isEqualTo(bytes);
			if (code == 0) {
				assertThat(passed).isEqualTo(bytes.length);
			}
		}
		FrameGuard whole = new FrameGuard(100_000, 100_000, 1024);
		assertThat(whole.accept(bytes.clone(), 0, bytes.length)).as("bytes before the refused frame")
			.isEqualTo((code == 0) ? bytes.length : before);
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	private static byte[] utf8(String text, int... more) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(ascii(text));
		for (int b : more) {
			out.write(b);
		}
		return out.toByteArray();
	}

	/** A masked client frame with a payload of zeros. */
	private static byte[] frame(boolean fin, int opcode, int length) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.write((fin ? 0x80 : 0) | opcode);
		if (length < 126) {
			out.write(0x80 | length);
		}
		else if (length <= 0xFFFF) {
			out.write(0x80 | 126);
			out.write(length >>> 8);
			out.write(length & 0xFF);
		}
		else {
			out.write(0x80 | 127);
			for (int shift = 56; shift >= 0; shift -= 8) {
				out.write((int) ((long) length >>> shift) & 0xFF);
			}
		}
		out.writeBytes(new byte[] { 1, 2, 3, 4 });
		out.writeBytes(new byte[length]);
		return out.toByteArray();
	}

	private static byte[] bytes(byte[]... frames) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (byte[] frame : frames) {
			out.writeBytes(frame);
		}
		return out.toByteArray();
	}

}
