package dev.ariadne.websocket;

import static dev.ariadne.websocket.WsFrames.bytes;
import static dev.ariadne.websocket.WsFrames.concat;
import static dev.ariadne.websocket.WsFrames.frame;
import static dev.ariadne.websocket.WsFrames.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ariadne.websocket.PerMessageDeflate.Options;
import dev.ariadne.websocket.WsFrames.Outcome;

/**
 * permessage-deflate on the wire (RFC 7692 §7.2): RFC 7692's own examples read, split anywhere;
 * what the server's compressor writes, read back by the reader and by a plain {@link Inflater};
 * context takeover kept or reset as agreed; the rules of RSV1; and the bound on inflation, which
 * stops a deflate bomb at the message limit.
 */
class DeflateTest {

	private static final int TEXT = Opcode.TEXT;

	private static final int CONT = Opcode.CONTINUATION;

	private static final PerMessageDeflate TAKEOVER = agreement(Options.DEFAULTS);

	private static final PerMessageDeflate NO_TAKEOVER = agreement(new Options(false, false, Deflater.DEFAULT_COMPRESSION));

	static Stream<Arguments> frames() {
		return Stream.of(
				row("RFC 7692 §7.2.3.1: 'Hello' in one compressed frame",
						compressed(true, bytes(0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00)),
						Outcome.of("text 'Hello' frames=1")),
				row("§7.2.3.1: 'Hello' compressed, in two frames",
						concat(compressed(false, bytes(0xf2, 0x48, 0xcd)),
								frame(true, 0, CONT, bytes(0xc9, 0xc9, 0x07, 0x00))),
						Outcome.of("text 'Hello' frames=2")),
				row("§7.2.3.2: a second 'Hello' refers back to the first (context takeover)",
						concat(compressed(true, bytes(0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00)),
								compressed(true, bytes(0xf2, 0x00, 0x11, 0x00, 0x00))),
						Outcome.of("text 'Hello' frames=1", "text 'Hello' frames=1")),
				row("§7.2.3.3: a stored block (no compression)",
						compressed(true, bytes(0x00, 0x05, 0x00, 0xfa, 0xff, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x00)),
						Outcome.of("text 'Hello' frames=1")),
				row("§7.2.3.4: a block with BFINAL set, then the next message on a new window",
						concat(compressed(true, bytes(0xf3, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x00)),
								compressed(true, bytes(0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00))),
						Outcome.of("text 'Hello' frames=1", "text 'Hello' frames=1")),
				row("§7.2.3.5: two DEFLATE blocks in one message",
						compressed(true, bytes(0xf2, 0x48, 0x05, 0x00, 0x00, 0x00, 0xff, 0xff, 0xca, 0xc9, 0xc9, 0x07,
								0x00)),
						Outcome.of("text 'Hello' frames=1")),
				row("an empty compressed message (§7.2.3.6: a single 0x00)", compressed(true, bytes(0x00)),
						Outcome.of("text '' frames=1")),
				row("uncompressed messages still pass when it was agreed",
						concat(frame(TEXT, utf8("plain")), compressed(true, bytes(0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00))),
						Outcome.of("text 'plain' frames=1", "text 'Hello' frames=1")),
				row("control frames between the compressed fragments of a message",
						concat(compressed(false, bytes(0xf2, 0x48, 0xcd)), frame(Opcode.PING, utf8("p")),
								frame(false, 0, CONT, new byte[0]), frame(true, 0, CONT, bytes(0xc9, 0xc9, 0x07, 0x00))),
						Outcome.of("ping 'p'", "text 'Hello' frames=3")),
				row("RSV1 on a continuation (RFC 7692 §6.1)",
						concat(compressed(false, bytes(0xf2, 0x48, 0xcd)), frame(true, 4, CONT, bytes(0xc9, 0xc9, 0x07, 0x00))),
						Outcome.failing(1002)),
				row("RSV1 on a control frame", frame(true, 4, Opcode.PING, new byte[0]), Outcome.failing(1002)),
				row("data that is not DEFLATE", compressed(true, bytes(0xff, 0xff, 0xff)), Outcome.failing(1007)),
				row("compressed text that is not UTF-8", compressed(true, deflated(bytes('o', 'k', 0xed, 0xa0, 0x80))),
						Outcome.failing(1007)));
	}

	private static Arguments row(String rule, byte[] wire, Outcome expected) {
		return argumentSet(rule, wire, expected);
	}

	@ParameterizedTest
	@MethodSource("frames")
	void readsCompressedMessagesWholeSplitAnywhereAndOneByteAtATime(byte[] wire, Outcome expected) {
		assertThat(read(TAKEOVER, WebSocketLimits.DEFAULTS, WsFrames.whole(wire))).isEqualTo(expected);
		assertThat(read(TAKEOVER, WebSocketLimits.DEFAULTS, WsFrames.pieces(wire, 1))).as("a byte at a time")
			.isEqualTo(expected);
		for (int at = 0; at <= wire.length; at++) {
			assertThat(read(TAKEOVER, WebSocketLimits.DEFAULTS, WsFrames.splitAt(wire, at))).as("split at %d", at)
				.isEqualTo(expected);
		}
	}

	@Test
	void refusesRsv1WhenNothingWasAgreed() {
		assertThat(read(null, WebSocketLimits.DEFAULTS, List.of(compressed(true, bytes(0x00)))))
			.isEqualTo(Outcome.failing(1002));
	}

	@Test
	void compressesHelloAsRfc7692sExamplesDo() {
		MessageDeflater deflater = TAKEOVER.newDeflater();
		assertThat(hex(deflater.deflate(ByteBuffer.wrap(utf8("Hello")), true))).isEqualTo("0xf248cdc9c90700");
		assertThat(hex(deflater.deflate(ByteBuffer.wrap(utf8("Hello")), true))).as("the second refers to the first")
			.isEqualTo("0xf200110000");
		assertThat(hex(deflater.deflate(ByteBuffer.allocate(0), true))).as("an empty message after a flush")
			.isEqualTo("0x00");
		MessageDeflater fresh = NO_TAKEOVER.newDeflater();
		fresh.deflate(ByteBuffer.wrap(utf8("Hello")), true);
		assertThat(hex(fresh.deflate(ByteBuffer.wrap(utf8("Hello")), true))).as("without context takeover")
			.isEqualTo("0xf248cdc9c90700");
		assertThat(hex(fresh.deflate(ByteBuffer.allocate(0), true))).as("an empty message").isEqualTo("0x00");
		deflater.close();
		fresh.close();
	}

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void roundTripsMessagesInPiecesThroughTheReaderAndAPlainInflater(boolean takeover) throws Exception {
		PerMessageDeflate agreement = takeover ? TAKEOVER : NO_TAKEOVER;
		Random random = new Random(7692);
		MessageDeflater deflater = agreement.newDeflater();
		Inflater independent = new Inflater(true);
		List<byte[]> wire = new ArrayList<>();
		List<String> expected = new ArrayList<>();
		for (int m = 0; m < 40; m++) {
			String text = message(random, m);
			byte[] payload = utf8(text);
			List<byte[]> pieces = WsFrames.randomPieces(payload, 1 + random.nextInt(4), random);
			ByteArrayOutputStream message = new ByteArrayOutputStream();
			for (int i = 0; i < pieces.size(); i++) {
				boolean last = i == pieces.size() - 1;
				byte[] out = toArray(deflater.deflate(ByteBuffer.wrap(pieces.get(i)), last));
				message.writeBytes(out);
				wire.add(frame(last, (i == 0) ? 4 : 0, (i == 0) ? TEXT : CONT, out));
			}
			expected.add("text '" + text + "' frames=" + pieces.size());
			if (!takeover) {
				independent.reset();
			}
			assertThat(inflate(independent, message.toByteArray())).isEqualTo(payload);
		}
		FrameReader reader = new FrameReader(new WebSocketLimits(1 << 20, 1 << 20), agreement);
		assertThat(WsFrames.outcome(reader, wire)).isEqualTo(new Outcome(expected, 0));
		deflater.close();
		reader.close();
	}

	@Test
	void contextTakeoverMakesARepeatedMessageSmallerAndItsAbsenceDoesNot() {
		byte[] payload = utf8("{\"type\":\"tick\",\"symbol\":\"ARIADNE\",\"price\":\"12.34\",\"volume\":1000}");
		MessageDeflater takeover = TAKEOVER.newDeflater();
		MessageDeflater reset = NO_TAKEOVER.newDeflater();
		int first = takeover.deflate(ByteBuffer.wrap(payload), true).remaining();
		int second = takeover.deflate(ByteBuffer.wrap(payload), true).remaining();
		int alone = reset.deflate(ByteBuffer.wrap(payload), true).remaining();
		int again = reset.deflate(ByteBuffer.wrap(payload), true).remaining();
		assertThat(second).isLessThan(first / 4);
		assertThat(again).isEqualTo(alone).isEqualTo(first);
	}

	@Test
	void aReaderWithoutContextTakeoverReadsMessagesCompressedAlone() throws Exception {
		// with client_no_context_takeover agreed the client resets; a reader that did not would still
		// read this, so check that it does reset: a back-reference to the previous message must fail
		PerMessageDeflate agreement = NO_TAKEOVER;
		byte[] hello = bytes(0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00);
		byte[] backReference = bytes(0xf2, 0x00, 0x11, 0x00, 0x00);
		assertThat(read(agreement, WebSocketLimits.DEFAULTS,
				List.of(compressed(true, hello), compressed(true, hello))))
			.isEqualTo(Outcome.of("text 'Hello' frames=1", "text 'Hello' frames=1"));
		assertThat(read(agreement, WebSocketLimits.DEFAULTS,
				List.of(compressed(true, hello), compressed(true, backReference))))
			.isEqualTo(Outcome.failing(1007, "text 'Hello' frames=1"));
	}

	@Test
	void stopsADeflateBombAtTheMessageLimitWithoutInflatingPastIt() throws Exception {
		byte[] bomb = deflated(new byte[10 * 1024 * 1024]);
		assertThat(bomb.length).isLessThan(20_000);
		WebSocketLimits limits = new WebSocketLimits(1 << 20, 64 * 1024);
		FrameReader reader = new FrameReader(limits, TAKEOVER);
		RecordingListener listener = new RecordingListener();
		byte[] wire = concat(frame(true, 4, Opcode.BINARY, WsFrames.KEY, bomb));
		try {
			reader.read(WsFrames.chunk(wire, 0), listener);
			throw new AssertionError("the bomb was read");
		}
		catch (WebSocketException ex) {
			assertThat(ex.closeCode()).isEqualTo(CloseCode.MESSAGE_TOO_BIG);
		}
		assertThat(listener.partial()).isLessThanOrEqualTo(64 * 1024);
		assertThat(reader.inflated()).isLessThanOrEqualTo(64 * 1024 + 1);
		reader.close();
	}

	@Test
	void aMessageAtTheLimitOnceInflatedPasses() {
		byte[] payload = new byte[64 * 1024];
		byte[] wire = frame(true, 4, Opcode.BINARY, deflated(payload));
		WebSocketLimits limits = new WebSocketLimits(1 << 20, payload.length);
		assertThat(read(TAKEOVER, limits, List.of(wire)))
			.isEqualTo(Outcome.of("binary " + RecordingListener.hex(payload) + " frames=1"));
		WebSocketLimits smaller = new WebSocketLimits(1 << 20, payload.length - 1);
		assertThat(read(TAKEOVER, smaller, List.of(wire))).isEqualTo(Outcome.failing(1009));
	}

	@Test
	void aBadCodeBeyondTheLimitMeansTooBigHoweverTheInputComes() {
		// found by FrameReaderFuzzTest: 7 bytes inflate before an invalid code, and the limit is 6;
		// zlib reads the bad code before it notices that the output is full
		byte[] wire = frame(true, 4, Opcode.BINARY,
				java.util.HexFormat.of().parseHex("2ad03414b460661e871a9d862f2f8966b99c22e900"));
		WebSocketLimits limits = new WebSocketLimits(100, 6);
		assertThat(read(TAKEOVER, limits, WsFrames.whole(wire))).isEqualTo(Outcome.failing(1009));
		assertThat(read(TAKEOVER, limits, WsFrames.pieces(wire, 1))).isEqualTo(Outcome.failing(1009));
		assertThat(read(TAKEOVER, new WebSocketLimits(100, 7), WsFrames.whole(wire))).as("within the limit")
			.isEqualTo(Outcome.failing(1007));
	}

	@Test
	void aCompressedFrameCountsAgainstTheFrameLimitAsItIsOnTheWire() {
		byte[] wire = frame(true, 4, Opcode.BINARY, deflated(new byte[50]));
		int onWire = wire.length - 6;
		assertThat(read(TAKEOVER, new WebSocketLimits(onWire, 1000), List.of(wire))).extracting(Outcome::error)
			.isEqualTo(0);
		assertThat(read(TAKEOVER, new WebSocketLimits(onWire - 1, 1000), List.of(wire)))
			.isEqualTo(Outcome.failing(1009));
	}

	private static Outcome read(PerMessageDeflate agreement, WebSocketLimits limits, List<byte[]> chunks) {
		try (FrameReader reader = new FrameReader(limits, agreement)) {
			return WsFrames.outcome(reader, chunks);
		}
	}

	private static PerMessageDeflate agreement(Options options) {
		return PerMessageDeflate.accept(new Extension(PerMessageDeflate.NAME, List.of()), options);
	}

	/** The first frame of a compressed text message: RSV1 set. */
	private static byte[] compressed(boolean fin, byte[] payload) {
		return frame(fin, 4, TEXT, payload);
	}

	/** The bytes compressed as a message alone, the tail removed. */
	private static byte[] deflated(byte[] payload) {
		MessageDeflater deflater = NO_TAKEOVER.newDeflater();
		byte[] out = toArray(deflater.deflate(ByteBuffer.wrap(payload), true));
		deflater.close();
		return out;
	}

	private static byte[] inflate(Inflater inflater, byte[] message) throws Exception {
		inflater.setInput(concat(message, bytes(0, 0, 0xff, 0xff)));
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		byte[] buffer = new byte[1024];
		int n;
		while ((n = inflater.inflate(buffer)) > 0) {
			out.write(buffer, 0, n);
		}
		return out.toByteArray();
	}

	private static String message(Random random, int index) {
		String[] words = { "alpha", "βήτα", "gamma", "δέλτα", "€", "🙂", "ariadne", " " };
		StringBuilder text = new StringBuilder();
		int length = (index % 10 == 0) ? 0 : random.nextInt((index % 7 == 0) ? 3000 : 60);
		while (text.length() < length) {
			text.append(words[random.nextInt(words.length)]);
		}
		return text.toString();
	}

	private static byte[] toArray(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.remaining()];
		buffer.get(bytes);
		return bytes;
	}

	private static String hex(ByteBuffer buffer) {
		return RecordingListener.hex(toArray(buffer));
	}

}
