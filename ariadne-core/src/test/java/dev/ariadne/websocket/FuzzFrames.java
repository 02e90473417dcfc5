package dev.ariadne.websocket;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.Deflater;

/**
 * Generates what a client may send for {@link FrameReaderFuzzTest}: valid streams of messages
 * (text of random UTF-8, binary, compressed or not, in one or several frames, with pings and
 * pongs between the fragments, random masking keys and lengths in every encoding, perhaps a
 * close frame and garbage after it) together with the events they must report; and hostile
 * streams, valid ones mutated or random bytes shaped like frames.
 */
final class FuzzFrames {

	/** How a hostile stream is made. */
	enum Mutation {

		/** A valid stream with a few bytes changed. */
		FLIP_BYTES,

		/** A valid stream cut short anywhere. */
		TRUNCATE,

		/** A valid stream with one frame's second byte (mask bit, 7-bit length) replaced. */
		SET_LENGTH,

		/** A valid stream with one frame's first byte (FIN, RSV, opcode) replaced. */
		SET_FIRST_BYTE,

		/** A valid stream with random bytes inserted somewhere. */
		INSERT_BYTES,

		/** A valid stream whose first text message has an invalid UTF-8 sequence: 1007. */
		INVALID_UTF8,

		/** Frame headers of random fields, each followed by up to as many random bytes as it says. */
		RANDOM_FRAMES,

		/** Random bytes. */
		RANDOM_BYTES

	}

	/**
	 * A generated stream.
	 * @param wire the bytes
	 * @param events what they report, as {@link RecordingListener} writes them (null for hostile
	 * streams, whose events are not known)
	 * @param starts where each frame starts
	 * @param error the close code they must end in, 0 when not known or none
	 */
	record Generated(byte[] wire, List<String> events, List<Integer> starts, int error) {
	}

	private static final byte[][] INVALID = { { (byte) 0x80 }, { (byte) 0xc0, (byte) 0xaf },
			{ (byte) 0xed, (byte) 0xa0, (byte) 0x80 }, { (byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80 },
			{ (byte) 0xe0, (byte) 0x9f, (byte) 0xbf }, { (byte) 0xff }, { (byte) 0xe2, (byte) 0x82, 'x' } };

	private static final int[] CLOSE_CODES = { 1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014,
			3000, 3999, 4000, 4999 };

	private final Random random;

	private final PerMessageDeflate deflate;

	private final MessageDeflater client;

	private final ByteArrayOutputStream wire = new ByteArrayOutputStream();

	private final List<String> events = new ArrayList<>();

	private final List<Integer> starts = new ArrayList<>();

	/**
	 * Creates a generator for one stream.
	 * @param deflate the agreement the reader has, or null
	 */
	FuzzFrames(Random random, PerMessageDeflate deflate) {
		this.random = random;
		this.deflate = deflate;
		this.client = (deflate != null)
				? new MessageDeflater(deflate.clientNoContextTakeover(), Deflater.DEFAULT_COMPRESSION) : null;
	}

	/** A valid stream of 1 to 8 messages and control frames. */
	Generated valid() {
		return stream(false);
	}

	/** A hostile stream made as the mutation says. */
	Generated hostile(Mutation mutation) {
		return switch (mutation) {
			case FLIP_BYTES -> {
				byte[] wire = valid().wire();
				for (int i = 1 + this.random.nextInt(4); i > 0 && wire.length > 0; i--) {
					wire[this.random.nextInt(wire.length)] ^= (byte) (1 + this.random.nextInt(255));
				}
				yield unknown(wire);
			}
			case TRUNCATE -> {
				byte[] wire = valid().wire();
				yield unknown(Arrays.copyOf(wire, this.random.nextInt(wire.length + 1)));
			}
			case SET_LENGTH, SET_FIRST_BYTE -> {
				Generated valid = valid();
				int at = valid.starts().get(this.random.nextInt(valid.starts().size()));
				valid.wire()[at + ((mutation == Mutation.SET_LENGTH) ? 1 : 0)] = (byte) this.random.nextInt(256);
				yield unknown(valid.wire());
			}
			case INSERT_BYTES -> {
				byte[] wire = valid().wire();
				int at = this.random.nextInt(wire.length + 1);
				yield unknown(WsFrames.concat(Arrays.copyOf(wire, at), randomBytes(1 + this.random.nextInt(20)),
						Arrays.copyOfRange(wire, at, wire.length)));
			}
			case INVALID_UTF8 -> stream(true);
			case RANDOM_FRAMES -> unknown(randomFrames());
			case RANDOM_BYTES -> unknown(randomBytes(this.random.nextInt(300)));
		};
	}

	private static Generated unknown(byte[] wire) {
		return new Generated(wire, null, List.of(), 0);
	}

	private Generated stream(boolean invalidText) {
		int units = 1 + this.random.nextInt(8);
		boolean corrupt = invalidText;
		for (int i = 0; i < units; i++) {
			if (this.random.nextInt(4) == 0) {
				control();
			}
			else {
				boolean text = corrupt || this.random.nextBoolean();
				message(text, corrupt);
				if (corrupt) {
					return new Generated(this.wire.toByteArray(), null, this.starts, CloseCode.INVALID_PAYLOAD);
				}
			}
		}
		if (invalidText) {
			message(true, true);
			return new Generated(this.wire.toByteArray(), null, this.starts, CloseCode.INVALID_PAYLOAD);
		}
		if (this.random.nextInt(4) == 0) {
			closeFrame();
		}
		return new Generated(this.wire.toByteArray(), this.events, this.starts, 0);
	}

	private void message(boolean text, boolean corrupt) {
		byte[] payload;
		String shown;
		if (text) {
			String content = text(size());
			payload = WsFrames.utf8(content);
			shown = "'" + content + "'";
			if (corrupt) {
				int at = this.random.nextInt(payload.length + 1);
				byte[] bad = INVALID[this.random.nextInt(INVALID.length)];
				payload = WsFrames.concat(Arrays.copyOf(payload, at), bad, Arrays.copyOfRange(payload, at, payload.length));
			}
		}
		else {
			payload = randomBytes(size());
			shown = RecordingListener.hex(payload);
		}
		boolean compress = this.client != null && this.random.nextBoolean();
		byte[] body = compress ? toArray(this.client.deflate(ByteBuffer.wrap(payload), true)) : payload;
		int frames = 1 + this.random.nextInt((this.random.nextInt(4) == 0) ? 6 : 2);
		List<byte[]> pieces = WsFrames.randomPieces(body, frames, this.random);
		for (int i = 0; i < frames; i++) {
			if (i > 0 && this.random.nextInt(4) == 0) {
				control();
			}
			int opcode = (i > 0) ? Opcode.CONTINUATION : text ? Opcode.TEXT : Opcode.BINARY;
			put(WsFrames.frame(i == frames - 1, (compress && i == 0) ? 4 : 0, opcode, this.random.nextInt(),
					pieces.get(i)));
		}
		this.events.add((text ? "text " : "binary ") + shown + " frames=" + frames);
	}

	private void control() {
		boolean ping = this.random.nextBoolean();
		byte[] payload = randomBytes(this.random.nextInt(10) == 0 ? 125 : this.random.nextInt(12));
		put(WsFrames.frame(true, 0, ping ? Opcode.PING : Opcode.PONG, this.random.nextInt(), payload));
		this.events.add((ping ? "ping " : "pong ") + RecordingListener.quote(payload));
	}

	private void closeFrame() {
		if (this.random.nextInt(5) == 0) {
			put(WsFrames.frame(Opcode.CLOSE, new byte[0]));
			this.events.add("close 1005 ''");
		}
		else {
			int code = CLOSE_CODES[this.random.nextInt(CLOSE_CODES.length)];
			String reason = text(this.random.nextInt(40));
			while (WsFrames.utf8(reason).length > FrameWriter.MAX_CLOSE_REASON) {
				reason = reason.substring(0, reason.offsetByCodePoints(reason.length(), -1));
			}
			put(WsFrames.frame(true, 0, Opcode.CLOSE, this.random.nextInt(), WsFrames.closePayload(code, reason)));
			this.events.add("close " + code + " '" + reason + "'");
		}
		if (this.random.nextBoolean()) {
			// ignored, whatever it is
			this.wire.writeBytes(randomBytes(this.random.nextInt(40)));
		}
	}

	private byte[] randomFrames() {
		ByteArrayOutputStream frames = new ByteArrayOutputStream();
		for (int i = this.random.nextInt(10); i >= 0; i--) {
			int b0 = this.random.nextInt(256);
			int length7 = this.random.nextInt(128);
			int b1 = (this.random.nextInt(8) == 0 ? 0 : 0x80) | length7;
			frames.write(b0);
			frames.write(b1);
			long length = length7;
			if (length7 == 126) {
				length = this.random.nextInt(this.random.nextBoolean() ? 300 : 65536);
				frames.writeBytes(WsFrames.bytes((int) (length >>> 8), (int) length));
			}
			else if (length7 == 127) {
				length = this.random.nextBoolean() ? this.random.nextInt(70_000) : this.random.nextLong();
				frames.writeBytes(ByteBuffer.allocate(8).putLong(length).array());
			}
			if ((b1 & 0x80) != 0) {
				frames.writeBytes(WsFrames.int32(this.random.nextInt()));
			}
			frames.writeBytes(randomBytes((int) Math.min(Math.max(length, 0), 600)));
		}
		return frames.toByteArray();
	}

	private void put(byte[] frame) {
		this.starts.add(this.wire.size());
		this.wire.writeBytes(frame);
	}

	/** A message size: mostly small, sometimes a few KiB, rarely beyond 64 KiB (a 64-bit length). */
	private int size() {
		return switch (this.random.nextInt(40)) {
			case 0 -> 65_536 + this.random.nextInt(5000);
			case 1, 2, 3 -> this.random.nextInt(3000);
			case 4, 5, 6, 7 -> 0;
			default -> this.random.nextInt(40);
		};
	}

	/** Random text of about the given length in UTF-16 units, code points from every range. */
	private String text(int length) {
		StringBuilder text = new StringBuilder();
		while (text.length() < length) {
			int codePoint = switch (this.random.nextInt(8)) {
				case 0 -> 0x80 + this.random.nextInt(0x800 - 0x80);
				case 1 -> {
					int c = 0x800 + this.random.nextInt(0x10000 - 0x800);
					yield (c >= 0xd800 && c <= 0xdfff) ? 0xfffd : c;
				}
				case 2 -> 0x10000 + this.random.nextInt(0x110000 - 0x10000);
				default -> 0x20 + this.random.nextInt(0x5f);
			};
			text.appendCodePoint(codePoint);
		}
		return text.toString();
	}

	private byte[] randomBytes(int length) {
		byte[] bytes = new byte[length];
		this.random.nextBytes(bytes);
		return bytes;
	}

	private static byte[] toArray(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.remaining()];
		buffer.get(bytes);
		return bytes;
	}

	/** Frees the client's deflater. */
	void close() {
		if (this.client != null) {
			this.client.close();
		}
	}

}
