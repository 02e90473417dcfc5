package dev.ariadne.http2;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Generates frame streams for {@link FrameReaderFuzzTest}: valid streams of random frames of
 * every type, with random flags, padding, reserved bits and sizes up to the maximum frame size,
 * together with the events they must report; and hostile streams, valid ones mutated or random
 * bytes shaped like frames.
 */
final class FuzzFrames {

	/** The codes the reader's own connection errors carry. */
	static final Set<String> ERRORS = Set.of("FRAME_SIZE_ERROR connection", "PROTOCOL_ERROR connection",
			"FLOW_CONTROL_ERROR connection");

	/** How a hostile stream is made. */
	enum Mutation {

		/** A valid stream with a few bytes changed. */
		FLIP_BYTES,

		/** A valid stream cut short anywhere. */
		TRUNCATE,

		/** A valid stream with one frame's length replaced. */
		SET_LENGTH,

		/** A valid stream with one frame's type or flags replaced. */
		SET_TYPE_OR_FLAGS,

		/** A valid stream with random bytes inserted somewhere. */
		INSERT_BYTES,

		/** Frame headers of random fields, each followed by as many random bytes as it says. */
		RANDOM_FRAMES,

		/** Random bytes. */
		RANDOM_BYTES

	}

	/**
	 * A generated valid stream.
	 * @param wire the bytes
	 * @param events what they report, as {@link RecordingFrameListener} writes it
	 * @param starts where each frame starts
	 */
	record Generated(byte[] wire, List<String> events, List<Integer> starts) {
	}

	private static final int[] SETTING_IDS = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0x10, 0xffff };

	private final Random random;

	private final int maxFrameSize;

	FuzzFrames(Random random, int maxFrameSize) {
		this.random = random;
		this.maxFrameSize = maxFrameSize;
	}

	/** A valid stream of 1 to 12 frames. */
	Generated valid() {
		ByteArrayOutputStream wire = new ByteArrayOutputStream();
		List<String> events = new ArrayList<>();
		List<Integer> starts = new ArrayList<>();
		int frames = 1 + this.random.nextInt(12);
		for (int i = 0; i < frames; i++) {
			starts.add(wire.size());
			events.add(frame(wire));
		}
		return new Generated(wire.toByteArray(), events, starts);
	}

	/** A hostile stream made as the mutation says. */
	byte[] hostile(Mutation mutation) {
		return switch (mutation) {
			case FLIP_BYTES -> {
				byte[] wire = valid().wire();
				for (int i = 1 + this.random.nextInt(4); i > 0; i--) {
					wire[this.random.nextInt(wire.length)] ^= (byte) (1 + this.random.nextInt(255));
				}
				yield wire;
			}
			case TRUNCATE -> {
				byte[] wire = valid().wire();
				yield Arrays.copyOf(wire, this.random.nextInt(wire.length + 1));
			}
			case SET_LENGTH -> {
				Generated valid = valid();
				int at = valid.starts().get(this.random.nextInt(valid.starts().size()));
				int length = switch (this.random.nextInt(4)) {
					case 0 -> this.random.nextInt(64);
					case 1 -> this.random.nextInt(1 << 24);
					default -> this.maxFrameSize + this.random.nextInt(2);
				};
				valid.wire()[at] = (byte) (length >>> 16);
				valid.wire()[at + 1] = (byte) (length >>> 8);
				valid.wire()[at + 2] = (byte) length;
				yield valid.wire();
			}
			case SET_TYPE_OR_FLAGS -> {
				Generated valid = valid();
				int at = valid.starts().get(this.random.nextInt(valid.starts().size()));
				valid.wire()[at + 3 + this.random.nextInt(2)] = (byte) this.random.nextInt(this.random.nextBoolean() ? 11 : 256);
				yield valid.wire();
			}
			case INSERT_BYTES -> {
				byte[] wire = valid().wire();
				int at = this.random.nextInt(wire.length + 1);
				yield Frames.concat(Arrays.copyOf(wire, at), randomBytes(1 + this.random.nextInt(20)),
						Arrays.copyOfRange(wire, at, wire.length));
			}
			case RANDOM_FRAMES -> randomFrames();
			case RANDOM_BYTES -> randomBytes(this.random.nextInt(300));
		};
	}

	private byte[] randomFrames() {
		ByteArrayOutputStream wire = new ByteArrayOutputStream();
		for (int i = this.random.nextInt(10); i >= 0; i--) {
			int length = this.random.nextInt(this.random.nextInt(10) == 0 ? 600 : 40);
			int stream = switch (this.random.nextInt(3)) {
				case 0 -> 0;
				case 1 -> 1;
				default -> this.random.nextInt();
			};
			wire.writeBytes(rawHeader(length, this.random.nextInt(12), this.random.nextInt(256), stream));
			wire.writeBytes(randomBytes(length));
		}
		return wire.toByteArray();
	}

	/** Writes one valid frame of a random type and returns its event. */
	private String frame(ByteArrayOutputStream wire) {
		int type = this.random.nextInt(11);
		int flags = this.random.nextInt(256);
		boolean bit0 = (flags & 0x1) != 0;
		int stream = 1 + this.random.nextInt(this.random.nextBoolean() ? 10 : Integer.MAX_VALUE);
		switch (type) {
			case FrameType.DATA -> {
				byte[] pad = padding(flags);
				byte[] padLength = padLength(flags, pad);
				byte[] content = text(size(this.maxFrameSize - padLength.length - pad.length));
				put(wire, type, flags, stream, padLength, content, pad);
				return "data " + stream + " flow=" + (padLength.length + content.length + pad.length) + " "
						+ RecordingFrameListener.quote(content) + (bit0 ? " endStream" : "");
			}
			case FrameType.HEADERS -> {
				boolean priority = (flags & FrameType.FLAG_PRIORITY) != 0;
				int dependency = this.random.nextInt(Integer.MAX_VALUE);
				byte[] fields = priority ? Frames.concat(reserved(dependency), Frames.bytes(this.random.nextInt(256)))
						: new byte[0];
				byte[] pad = padding(flags);
				byte[] padLength = padLength(flags, pad);
				byte[] fragment = text(size(this.maxFrameSize - padLength.length - pad.length - fields.length));
				put(wire, type, flags, stream, padLength, fields, fragment, pad);
				return "headers " + stream + " " + RecordingFrameListener.quote(fragment)
						+ (priority ? " dep=" + dependency : "")
						+ (((flags & FrameType.FLAG_END_HEADERS) != 0) ? " endHeaders" : "")
						+ (bit0 ? " endStream" : "");
			}
			case FrameType.PRIORITY -> {
				if (this.random.nextInt(10) == 0) {
					int length = this.random.nextBoolean() ? this.random.nextInt(5) : 6 + this.random.nextInt(100);
					put(wire, type, flags, stream, randomBytes(length));
					return "streamError " + stream + " FRAME_SIZE_ERROR";
				}
				int dependency = this.random.nextInt(Integer.MAX_VALUE);
				put(wire, type, flags, stream, reserved(dependency), Frames.bytes(this.random.nextInt(256)));
				return "priority " + stream + " dep=" + dependency;
			}
			case FrameType.RST_STREAM -> {
				int code = this.random.nextBoolean() ? this.random.nextInt(14) : this.random.nextInt();
				put(wire, type, flags, stream, Frames.int32(code));
				return "rstStream " + stream + " code=" + code;
			}
			case FrameType.SETTINGS -> {
				return settings(wire, flags);
			}
			case FrameType.PUSH_PROMISE -> {
				put(wire, type, flags, stream, randomBytes(size(this.maxFrameSize)));
				return "pushPromise " + stream;
			}
			case FrameType.PING -> {
				long payload = this.random.nextLong();
				put(wire, type, flags, 0, Frames.int32((int) (payload >>> 32)), Frames.int32((int) payload));
				return String.format("ping 0x%016x", payload) + (bit0 ? " ack" : "");
			}
			case FrameType.GOAWAY -> {
				int last = this.random.nextInt(Integer.MAX_VALUE);
				int code = this.random.nextInt();
				byte[] debug = text(size(this.maxFrameSize - 8));
				put(wire, type, flags, 0, reserved(last), Frames.int32(code), debug);
				return "goAway last=" + last + " code=" + code + " " + RecordingFrameListener.quote(debug);
			}
			case FrameType.WINDOW_UPDATE -> {
				int on = this.random.nextBoolean() ? 0 : stream;
				int increment = this.random.nextInt(Integer.MAX_VALUE);
				put(wire, type, flags, on, reserved(increment));
				return "windowUpdate " + on + " +" + increment;
			}
			case FrameType.CONTINUATION -> {
				byte[] fragment = text(size(this.maxFrameSize));
				put(wire, type, flags, stream, fragment);
				return "continuation " + stream + " " + RecordingFrameListener.quote(fragment)
						+ (((flags & FrameType.FLAG_END_HEADERS) != 0) ? " endHeaders" : "");
			}
			default -> {
				int unknown = 10 + this.random.nextInt(246);
				int on = this.random.nextBoolean() ? 0 : stream;
				put(wire, unknown, flags, on, randomBytes(size(this.maxFrameSize)));
				return "unknown 0x" + Integer.toHexString(unknown) + " on " + on;
			}
		}
	}

	private String settings(ByteArrayOutputStream wire, int flags) {
		if ((flags & FrameType.FLAG_ACK) != 0) {
			put(wire, FrameType.SETTINGS, flags, 0);
			return "settingsAck";
		}
		Settings expected = new Settings();
		ByteArrayOutputStream payload = new ByteArrayOutputStream();
		for (int i = this.random.nextInt(7); i > 0; i--) {
			int id = SETTING_IDS[this.random.nextInt(SETTING_IDS.length)];
			long value = switch (id) {
				case Settings.ENABLE_PUSH, Settings.ENABLE_CONNECT_PROTOCOL -> this.random.nextInt(2);
				case Settings.INITIAL_WINDOW_SIZE -> this.random.nextInt(Integer.MAX_VALUE);
				case Settings.MAX_FRAME_SIZE -> FrameType.MIN_MAX_FRAME_SIZE
						+ this.random.nextInt(FrameType.MAX_MAX_FRAME_SIZE - FrameType.MIN_MAX_FRAME_SIZE + 1);
				default -> this.random.nextInt() & 0xffff_ffffL;
			};
			payload.writeBytes(Frames.bytes(id >>> 8, id));
			payload.writeBytes(Frames.int32((int) value));
			if (Settings.isKnown(id)) {
				expected.set(id, value);
			}
		}
		put(wire, FrameType.SETTINGS, flags, 0, payload.toByteArray());
		return "settings " + expected;
	}

	/** A payload size: mostly small, sometimes up to {@code most}, often at the edges 0 and most. */
	private int size(int most) {
		return switch (this.random.nextInt(20)) {
			case 0 -> this.random.nextInt(most + 1);
			case 1, 2 -> 0;
			case 3 -> most;
			case 4, 5, 6, 7 -> this.random.nextInt(Math.min(most, 300) + 1);
			default -> this.random.nextInt(Math.min(most, 20) + 1);
		};
	}

	/** The padding of a frame whose {@code PADDED} flag is set, else none. */
	private byte[] padding(int flags) {
		if ((flags & FrameType.FLAG_PADDED) == 0) {
			return new byte[0];
		}
		// padding octets should be zero, but a receiver need not check (RFC 9113 §6.1)
		return randomBytes(this.random.nextInt(this.random.nextBoolean() ? 4 : 256));
	}

	/** The pad length field for the padding; none when the frame is not padded. */
	private static byte[] padLength(int flags, byte[] padding) {
		return ((flags & FrameType.FLAG_PADDED) != 0) ? Frames.bytes(padding.length) : new byte[0];
	}

	/** A 31-bit value with its reserved bit set at random, which the reader must ignore. */
	private byte[] reserved(int value) {
		return Frames.int32(this.random.nextBoolean() ? value | 0x8000_0000 : value);
	}

	private void put(ByteArrayOutputStream wire, int type, int flags, int stream, byte[]... payload) {
		byte[] body = Frames.concat(payload);
		wire.writeBytes(rawHeader(body.length, type, flags, this.random.nextInt(8) == 0 ? stream | 0x8000_0000 : stream));
		wire.writeBytes(body);
	}

	private static byte[] rawHeader(int length, int type, int flags, int stream) {
		return Frames.concat(Frames.bytes(length >>> 16, length >>> 8, length, type, flags), Frames.int32(stream));
	}

	private byte[] text(int length) {
		byte[] text = new byte[length];
		for (int i = 0; i < length; i++) {
			text[i] = (byte) (0x20 + this.random.nextInt(0x5f));
		}
		return text;
	}

	private byte[] randomBytes(int length) {
		byte[] bytes = new byte[length];
		this.random.nextBytes(bytes);
		return bytes;
	}

}
