package dev.ariadne.servlet.websocket;

import java.io.ByteArrayOutputStream;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link FrameGuard} counts as whole messages received, for the listener's meters: one per
 * message however many frames it took, none for control frames or a frame over the limit; the
 * same wherever the client's bytes are split.
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
			FrameGuard guard = new FrameGuard(1024, 100_000);
			guard.accept(bytes, 0, split);
			int counted = guard.messagesEnded();
			guard.accept(bytes, split, bytes.length - split);
			counted += guard.messagesEnded();
			assertThat(counted).as("split at " + split).isEqualTo(messages);
			assertThat(guard.messagesEnded()).as("read once").isZero();
		}
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
