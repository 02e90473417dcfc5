package dev.ariadne.websocket;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.ariadne.websocket.WsFrames.concat;
import static dev.ariadne.websocket.WsFrames.frame;
import static dev.ariadne.websocket.WsFrames.utf8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FrameReader#pause()}: a listener that asks for a pause after every piece gets the same
 * events as one that never does, however the input arrives, compressed messages included (whose
 * inflation gives several pieces for one piece of input, so that a pause falls inside it); and a
 * paused read uses no more of its input than it delivered.
 */
class FrameReaderPauseTest {

	private static final PerMessageDeflate DEFLATE = PerMessageDeflate
		.negotiate(List.of(new Extension(PerMessageDeflate.NAME, List.of())), PerMessageDeflate.Options.DEFAULTS);

	@ParameterizedTest(name = "pieces of {0} bytes")
	@ValueSource(ints = { Integer.MAX_VALUE, 4096, 1000, 7, 1 })
	void pausingAfterEveryPieceChangesNothingButTheTurns(int pieceSize) throws Exception {
		byte[] input = input();
		List<String> expected = read(input, Integer.MAX_VALUE, false);
		assertThat(read(input, pieceSize, true)).isEqualTo(expected);
		assertThat(expected).hasSize(6);
	}

	@ParameterizedTest(name = "pieces of {0} bytes")
	@ValueSource(ints = { Integer.MAX_VALUE, 3 })
	void aPausedReadLeavesTheRestOfItsInput(int pieceSize) throws Exception {
		byte[] input = concat(frame(Opcode.TEXT, utf8("one")), frame(Opcode.TEXT, utf8("two")));
		FrameReader reader = new FrameReader(new WebSocketLimits(1 << 20, 1 << 20), null);
		ByteBuffer buffer = ByteBuffer.wrap(input.clone());
		PausingListener listener = new PausingListener(reader, true);
		reader.read(buffer, listener);
		assertThat(reader.isPaused()).isTrue();
		assertThat(listener.events()).containsExactly("text 'one' frames=1");
		assertThat(buffer.position()).isEqualTo(frame(Opcode.TEXT, utf8("one")).length);
	}

	/** Text, binary, a ping inside a fragmented message, and compressed messages of many chunks. */
	private static byte[] input() {
		byte[] large = new byte[100_000];
		Arrays.fill(large, (byte) 'a');
		for (int i = 0; i < large.length; i += 97) {
			large[i] = (byte) ('a' + (i % 26));
		}
		MessageDeflater deflater = DEFLATE.newDeflater();
		byte[] first = bytes(deflater.deflate(ByteBuffer.wrap(large), true));
		byte[] second = bytes(deflater.deflate(ByteBuffer.wrap(utf8("small, compressed")), true));
		return concat(frame(Opcode.TEXT, utf8("hello")), frame(false, 0, Opcode.BINARY, new byte[] { 1, 2 }),
				frame(Opcode.PING, utf8("p")), frame(true, 0, Opcode.CONTINUATION, new byte[] { 3 }),
				frame(true, 4, Opcode.TEXT, first), frame(true, 4, Opcode.TEXT, second),
				frame(Opcode.CLOSE, WsFrames.closePayload(1000, "bye")));
	}

	private static byte[] bytes(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.remaining()];
		buffer.get(bytes);
		return bytes;
	}

	/**
	 * Reads the input as it arrives in pieces into one buffer, whose bytes before its position stay
	 * as they are (as a caller keeps them for a compressed message); a paused read is read again.
	 */
	private static List<String> read(byte[] input, int pieceSize, boolean pause) throws WebSocketException {
		FrameReader reader = new FrameReader(new WebSocketLimits(1 << 20, 1 << 20), DEFLATE);
		PausingListener listener = new PausingListener(reader, pause);
		ByteBuffer buffer = ByteBuffer.wrap(input.clone()).limit(0);
		int turns = 0;
		while (buffer.limit() < input.length) {
			buffer.limit((int) Math.min(input.length, (long) buffer.limit() + pieceSize));
			do {
				reader.read(buffer, listener);
				turns++;
			}
			while (reader.isPaused());
			assertThat(buffer.hasRemaining()).isFalse();
		}
		listener.checkEnd(reader);
		if (pause) {
			assertThat(turns).isGreaterThan(listener.pieces);
		}
		reader.close();
		return listener.events();
	}

	/** Records events, asking for a pause after every piece when told to. */
	private static final class PausingListener extends RecordingListener {

		private final FrameReader reader;

		private final boolean pause;

		int pieces;

		PausingListener(FrameReader reader, boolean pause) {
			this.reader = reader;
			this.pause = pause;
		}

		@Override
		public void text(ByteBuffer data, boolean frameEnd, boolean last) {
			super.text(data, frameEnd, last);
			pieces();
		}

		@Override
		public void binary(ByteBuffer data, boolean frameEnd, boolean last) {
			super.binary(data, frameEnd, last);
			pieces();
		}

		private void pieces() {
			this.pieces++;
			if (this.pause) {
				this.reader.pause();
			}
		}

	}

}
