package dev.ariadne.websocket;

import static dev.ariadne.websocket.WsFrames.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Whole messages from the reader's pieces: gathered across frames and inputs, within the limit,
 * the buffer given back after a large one.
 */
class MessageAssemblerTest {

	@Test
	void gathersTheReadersPiecesIntoWholeMessages() throws Exception {
		List<String> messages = new ArrayList<>();
		MessageAssembler assembler = new MessageAssembler(1000);
		FrameListener listener = new RecordingListener() {

			@Override
			public void text(ByteBuffer data, boolean frameEnd, boolean last) {
				try {
					if (assembler.add(data, last)) {
						messages.add(assembler.text());
					}
				}
				catch (WebSocketException ex) {
					throw new AssertionError(ex);
				}
			}

		};
		byte[] wire = WsFrames.concat(WsFrames.frame(false, 0, Opcode.TEXT, utf8("καλη")),
				WsFrames.frame(true, 0, Opcode.CONTINUATION, utf8("μέρα")), WsFrames.frame(Opcode.TEXT, utf8("")));
		FrameReader reader = new FrameReader(WebSocketLimits.DEFAULTS, null);
		for (byte[] piece : WsFrames.pieces(wire, 3)) {
			reader.read(WsFrames.chunk(piece, 0), listener);
		}
		assertThat(messages).containsExactly("καλημέρα", "");
	}

	@Test
	void refusesAMessageOverItsLimit() throws Exception {
		MessageAssembler assembler = new MessageAssembler(5);
		assembler.add(ByteBuffer.wrap(utf8("abc")), false);
		assertThatExceptionOfType(WebSocketException.class)
			.isThrownBy(() -> assembler.add(ByteBuffer.wrap(utf8("def")), true))
			.satisfies((ex) -> assertThat(ex.closeCode()).isEqualTo(CloseCode.MESSAGE_TOO_BIG));
	}

	@Test
	void givesBinaryMessagesInTheirOwnBufferAndStartsAfreshAfterEach() throws Exception {
		MessageAssembler assembler = new MessageAssembler(10_000);
		assertThat(assembler.add(ByteBuffer.wrap(new byte[] { 1, 2 }), false)).isFalse();
		assertThatIllegalStateException().isThrownBy(assembler::binary);
		assertThat(assembler.add(ByteBuffer.wrap(new byte[] { 3 }), true)).isTrue();
		assertThat(assembler.binary().array()).containsExactly(1, 2, 3);
		assertThat(assembler.size()).isZero();
		assertThat(assembler.add(ByteBuffer.wrap(new byte[8000]), true)).isTrue();
		assertThat(assembler.add(ByteBuffer.wrap(new byte[] { 9 }), true)).as("an untaken message is dropped").isTrue();
		assertThat(assembler.binary().array()).containsExactly(9);
	}

}
