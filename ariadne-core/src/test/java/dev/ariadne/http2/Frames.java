package dev.ariadne.http2;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Builds raw frames, and feeds bytes to a {@link FrameReader} the way a transport does: each
 * chunk in its own heap buffer that does not start at index 0, with bytes before its position
 * and after its limit that are not part of the input.
 */
final class Frames {

	/** Bytes around each chunk in its array, which the reader must not read. */
	private static final int MARGIN = 3;

	private Frames() {
	}

	/** A frame: a 9-byte header, then the payload bytes as given. */
	static byte[] frame(int type, int flags, int streamId, byte[]... payload) {
		byte[] body = concat(payload);
		return concat(header(body.length, type, flags, streamId), body);
	}

	/** A frame header with a length that need not match what follows. */
	static byte[] header(int length, int type, int flags, int streamId) {
		ByteBuffer out = ByteBuffer.allocate(FrameType.HEADER_LENGTH);
		FrameWriter.header(out, length, type, flags, streamId);
		return out.array();
	}

	static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.ISO_8859_1);
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

	static byte[] zeros(int count) {
		return new byte[count];
	}

	static byte[] concat(byte[]... parts) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			out.writeBytes(part);
		}
		return out.toByteArray();
	}

	/** What the writer writes, as bytes. */
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
	 * @param events the events, as {@link RecordingFrameListener} writes them
	 * @param error {@code FRAME_SIZE_ERROR connection} (or {@code stream N}) for the
	 * {@link Http2Exception} that ended the input, or null
	 */
	record Outcome(List<String> events, String error) {

		@Override
		public String toString() {
			return this.events + ((this.error != null) ? " then " + this.error : "");
		}

	}

	/** Feeds the chunks to a reader of the initial maximum frame size. */
	static Outcome outcome(List<byte[]> chunks) {
		return outcome(new FrameReader(FrameType.MIN_MAX_FRAME_SIZE), chunks, (reader) -> {
		});
	}

	/**
	 * Feeds the chunks in order and returns what happened instead of throwing an
	 * {@link Http2Exception}; any other exception propagates.
	 * @param probe checks the reader after every {@link FrameReader#read} call
	 */
	static Outcome outcome(FrameReader reader, List<byte[]> chunks, Consumer<FrameReader> probe) {
		RecordingFrameListener listener = new RecordingFrameListener();
		try {
			for (byte[] chunk : chunks) {
				ByteBuffer input = chunk(chunk);
				int limit = input.limit();
				reader.read(input, listener);
				if (input.position() != limit || input.limit() != limit) {
					throw new AssertionError("read left position " + input.position() + " and limit "
							+ input.limit() + ", not both at " + limit);
				}
				probe.accept(reader);
			}
			if (listener.inData() && reader.isIdle()) {
				throw new AssertionError("the reader is idle inside a DATA frame");
			}
			return new Outcome(listener.events(), null);
		}
		catch (Http2Exception ex) {
			if (ex.reason() == null || ex.reason().isEmpty()) {
				throw new AssertionError("an Http2Exception without a reason", ex);
			}
			String where = ex.isConnectionError() ? "connection" : "stream " + ex.streamId();
			return new Outcome(listener.events(), ex.error() + " " + where);
		}
	}

	/** The chunk in a heap buffer with bytes around it that are not part of it. */
	static ByteBuffer chunk(byte[] chunk) {
		byte[] array = new byte[MARGIN + chunk.length + MARGIN];
		Arrays.fill(array, (byte) 0x5a);
		System.arraycopy(chunk, 0, array, MARGIN, chunk.length);
		return ByteBuffer.wrap(array, MARGIN, chunk.length);
	}

}
