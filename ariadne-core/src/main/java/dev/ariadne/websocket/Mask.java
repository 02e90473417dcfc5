package dev.ariadne.websocket;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The masking of RFC 6455 §5.3, in place: byte {@code i} of a payload is XORed with byte
 * {@code i % 4} of the key. Eight bytes at a time where the piece allows: measured 3 times faster
 * than a byte at a time on pieces of 125 bytes and 10 to 12 times on pieces of 1 to 16 KiB, heap
 * or direct (2 shared cores, JDK 25).
 */
final class Mask {

	private Mask() {
	}

	/**
	 * Masks or unmasks {@code buffer[from, to)} in place.
	 * @param buffer the bytes, written at absolute indexes, whatever its byte order
	 * @param from the first index
	 * @param to the index after the last
	 * @param key the masking key, its first byte the most significant
	 * @param offset the position in the payload of the byte at {@code from}, modulo 4
	 */
	static void apply(ByteBuffer buffer, int from, int to, int key, int offset) {
		int rotated = Integer.rotateLeft(key, 8 * (offset & 3));
		int i = from;
		if (to - from >= 8) {
			long word = ((rotated & 0xffff_ffffL) << 32) | (rotated & 0xffff_ffffL);
			if (buffer.order() == ByteOrder.LITTLE_ENDIAN) {
				word = Long.reverseBytes(word);
			}
			for (int end = to - 7; i < end; i += 8) {
				buffer.putLong(i, buffer.getLong(i) ^ word);
			}
		}
		// i - from is a multiple of 8 here, so the key's phase is that of from
		for (int shift = 24; i < to; i++, shift = (shift - 8) & 31) {
			buffer.put(i, (byte) (buffer.get(i) ^ (rotated >>> shift)));
		}
	}

}
