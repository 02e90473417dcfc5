package dev.ariadne.websocket;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Builds the frames a client sends (masked, with any header a test needs, valid or not), and
 * feeds bytes to a {@link FrameReader} the way a transport does: each chunk in its own writable
 * buffer that does not start at index 0, with bytes around it that are not part of the input
 * (heap, direct or little-endian by turns, since unmasking reads words).
 */
final class WsFrames {

	/** The masking key of the frames built here unless a test gives one. */
	static final int KEY = 0x37fa213d;

	private static final int MARGIN = 3;

	private WsFrames() {
	}

	/** A masked frame from a client with FIN set and no RSV bit. */
	static byte[] frame(int opcode, byte[] payload) {
		return frame(true, 0, opcode, payload);
	}

	/** A masked frame from a client, its length in the shortest encoding. */
	static byte[] frame(boolean fin, int rsv, int opcode, byte[] payload) {
		return frame(fin, rsv, opcode, KEY, payload);
	}

	static byte[] frame(boolean fin, int rsv, int opcode, int key, byte[] payload) {
		int b0 = (fin ? 0x80 : 0) | (rsv << 4) | opcode;
		return concat(new byte[] { (byte) b0 }, lengthField(true, payload.length), int32(key), masked(payload, key));
	}

	/** An unmasked frame, as a server writes it. */
	static byte[] unmasked(boolean fin, int rsv, int opcode, byte[] payload) {
		int b0 = (fin ? 0x80 : 0) | (rsv << 4) | opcode;
		return concat(new byte[] { (byte) b0 }, lengthField(false, payload.length), payload);
	}

	/** A masked frame whose length field is given as is: the 7-bit length and what follows it. */
	static byte[] rawLength(int opcode, int length7, byte[] extended, byte[] payload) {
		return concat(bytes(0x80 | opcode, 0x80 | length7), extended, int32(KEY), masked(payload, KEY));
	}

	/** The second byte and the extended length of a header: mask bit, then the shortest form. */
	static byte[] lengthField(boolean mask, long length) {
		int m = mask ? 0x80 : 0;
		if (length < 126) {
			return bytes(m | (int) length);
		}
		if (length <= 0xffff) {
			return bytes(m | 126, (int) (length >>> 8), (int) length);
		}
		return concat(bytes(m | 127), ByteBuffer.allocate(8).putLong(length).array());
	}

	static byte[] masked(byte[] payload, int key) {
		byte[] out = payload.clone();
		for (int i = 0; i < out.length; i++) {
			out[i] ^= (byte) (key >>> (24 - 8 * (i & 3)));
		}
		return out;
	}

	/** A close frame's payload: the code, then the reason in UTF-8. */
	static byte[] closePayload(int code, String reason) {
		return concat(bytes(code >>> 8, code), utf8(reason));
	}

	static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static byte[] bytes(int... values) {
		byte[] bytes = new byte[values.length];
		for (int i = 0; i < values.length; i++) {
			bytes[i] = (byte) values[i];
		}
		return bytes;
	}

	static byte[] int32(int value) {
		return ByteBuffer.allocate(4).putInt(value).array();
	}

	static byte[] repeat(int value, int count) {
		byte[] bytes = new byte[count];
		Arrays.fill(bytes, (byte) value);
		return bytes;
	}

	static byte[] concat(byte[]... parts) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			out.writeBytes(part);
		}
		return out.toByteArray();
	}

	/** What a writer method writes, as bytes. */
	static byte[] written(int capacity, Consumer<ByteBuffer> writer) {
		ByteBuffer out = ByteBuffer.allocate(capacity);
		writer.accept(out);
		return Arrays.copyOf(out.array(), out.position());
	}

	static List<byte[]> whole(byte[] bytes) {
		return List.of(bytes);
	}

	/** The bytes as two chunks, split before index {@code at}; either may be empty. */
	static List<byte[]> splitAt(byte[] bytes, int at) {
		return List.of(Arrays.copyOfRange(bytes, 0, at), Arrays.copyOfRange(bytes, at, bytes.length));
	}

	/** The bytes in chunks of at most {@code size} bytes. */
	static List<byte[]> pieces(byte[] bytes, int size) {
		List<byte[]> chunks = new ArrayList<>();
		for (int from = 0; from < bytes.length; from += size) {
			chunks.add(Arrays.copyOfRange(bytes, from, Math.min(bytes.length, from + size)));
		}
		return chunks;
	}

	/** The bytes in {@code count} chunks split at random places; some may be empty. */
	static List<byte[]> randomPieces(byte[] bytes, int count, Random random) {
		int[] cuts = new int[count + 1];
		for (int i = 1; i < count; i++) {
			cuts[i] = random.nextInt(bytes.length + 1);
		}
		cuts[count] = bytes.length;
		Arrays.sort(cuts);
		List<byte[]> chunks = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			chunks.add(Arrays.copyOfRange(bytes, cuts[i], cuts[i + 1]));
		}
		return chunks;
	}

	/**
	 * What feeding some input produced: the events up to the end or the error, and the error.
	 * @param events the events, as {@link RecordingListener} writes them
	 * @param error the close code of the {@link WebSocketException} that ended the input, or 0
	 */
	record Outcome(List<String> events, int error) {

		static Outcome of(String... events) {
			return new Outcome(List.of(events), 0);
		}

		static Outcome failing(int error, String... events) {
			return new Outcome(List.of(events), error);
		}

		@Override
		public String toString() {
			return this.events + ((this.error != 0) ? " then " + this.error : "");
		}

	}

	/** Feeds the chunks to a server's reader with the given limits and no extension. */
	static Outcome outcome(WebSocketLimits limits, List<byte[]> chunks) {
		return outcome(new FrameReader(limits, null), chunks);
	}

	/**
	 * Feeds the chunks in order and returns what happened instead of throwing a
	 * {@link WebSocketException}; any other exception propagates. After a close the rest is
	 * still fed, and must report nothing. The kinds of buffer follow each other from one that
	 * depends on the number of chunks, so that whole inputs and splits meet all three.
	 */
	static Outcome outcome(FrameReader reader, List<byte[]> chunks) {
		return outcome(reader, chunks, chunks.size());
	}

	/** Feeds the chunks, the first in a buffer of the given kind (see {@link #chunk}). */
	static Outcome outcome(FrameReader reader, List<byte[]> chunks, int firstKind) {
		RecordingListener listener = new RecordingListener();
		int kind = firstKind;
		try {
			for (byte[] chunk : chunks) {
				ByteBuffer input = chunk(chunk, kind++);
				int limit = input.limit();
				reader.read(input, listener);
				if (input.position() != limit || input.limit() != limit) {
					throw new AssertionError("read left position " + input.position() + " and limit "
							+ input.limit() + ", not both at " + limit);
				}
			}
			listener.checkEnd(reader);
			return new Outcome(listener.events(), 0);
		}
		catch (WebSocketException ex) {
			if (ex.reason() == null || ex.reason().isEmpty()) {
				throw new AssertionError("a WebSocketException without a reason", ex);
			}
			return new Outcome(listener.events(), ex.closeCode());
		}
	}

	/**
	 * The chunk in a writable buffer with bytes around it that are not part of it: by its kind
	 * modulo 3, a heap buffer, a direct one, or a little-endian heap one.
	 */
	static ByteBuffer chunk(byte[] chunk, int kind) {
		int size = MARGIN + chunk.length + MARGIN;
		ByteBuffer buffer = (kind % 3 == 1) ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
		if (kind % 3 == 2) {
			buffer.order(ByteOrder.LITTLE_ENDIAN);
		}
		for (int i = 0; i < size; i++) {
			buffer.put(i, (byte) 0x5a);
		}
		buffer.put(MARGIN, chunk);
		return buffer.limit(MARGIN + chunk.length).position(MARGIN);
	}

}
