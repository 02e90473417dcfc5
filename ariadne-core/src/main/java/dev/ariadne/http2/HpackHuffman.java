package dev.ariadne.http2;

import java.nio.ByteBuffer;

/**
 * The Huffman code of RFC 7541 Appendix B, for string literals (§5.2).
 *
 * <p>Decoding is a table-driven state machine that consumes four bits per step: a state is an
 * inner node of the code tree, and each of its 16 transitions says where the next four bits lead
 * and which symbol, if any, they complete (the shortest code has 5 bits, so at most one). It is
 * strict: the EOS symbol inside a string, padding longer than 7 bits, and padding that is not a
 * prefix of EOS (all ones) are {@link ErrorCode#COMPRESSION_ERROR}s.
 */
final class HpackHuffman {

	/** The end-of-string symbol, which must never appear inside a string (§5.2). */
	static final int EOS = 256;

	/** The code of each symbol, right-aligned, from Appendix B. */
	private static final int[] CODES = {
			0x1ff8, 0x7fffd8, 0xfffffe2, 0xfffffe3, 0xfffffe4, 0xfffffe5, 0xfffffe6, 0xfffffe7,
			0xfffffe8, 0xffffea, 0x3ffffffc, 0xfffffe9, 0xfffffea, 0x3ffffffd, 0xfffffeb, 0xfffffec,
			0xfffffed, 0xfffffee, 0xfffffef, 0xffffff0, 0xffffff1, 0xffffff2, 0x3ffffffe, 0xffffff3,
			0xffffff4, 0xffffff5, 0xffffff6, 0xffffff7, 0xffffff8, 0xffffff9, 0xffffffa, 0xffffffb,
			0x14, 0x3f8, 0x3f9, 0xffa, 0x1ff9, 0x15, 0xf8, 0x7fa,
			0x3fa, 0x3fb, 0xf9, 0x7fb, 0xfa, 0x16, 0x17, 0x18,
			0x0, 0x1, 0x2, 0x19, 0x1a, 0x1b, 0x1c, 0x1d,
			0x1e, 0x1f, 0x5c, 0xfb, 0x7ffc, 0x20, 0xffb, 0x3fc,
			0x1ffa, 0x21, 0x5d, 0x5e, 0x5f, 0x60, 0x61, 0x62,
			0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a,
			0x6b, 0x6c, 0x6d, 0x6e, 0x6f, 0x70, 0x71, 0x72,
			0xfc, 0x73, 0xfd, 0x1ffb, 0x7fff0, 0x1ffc, 0x3ffc, 0x22,
			0x7ffd, 0x3, 0x23, 0x4, 0x24, 0x5, 0x25, 0x26,
			0x27, 0x6, 0x74, 0x75, 0x28, 0x29, 0x2a, 0x7,
			0x2b, 0x76, 0x2c, 0x8, 0x9, 0x2d, 0x77, 0x78,
			0x79, 0x7a, 0x7b, 0x7ffe, 0x7fc, 0x3ffd, 0x1ffd, 0xffffffc,
			0xfffe6, 0x3fffd2, 0xfffe7, 0xfffe8, 0x3fffd3, 0x3fffd4, 0x3fffd5, 0x7fffd9,
			0x3fffd6, 0x7fffda, 0x7fffdb, 0x7fffdc, 0x7fffdd, 0x7fffde, 0xffffeb, 0x7fffdf,
			0xffffec, 0xffffed, 0x3fffd7, 0x7fffe0, 0xffffee, 0x7fffe1, 0x7fffe2, 0x7fffe3,
			0x7fffe4, 0x1fffdc, 0x3fffd8, 0x7fffe5, 0x3fffd9, 0x7fffe6, 0x7fffe7, 0xffffef,
			0x3fffda, 0x1fffdd, 0xfffe9, 0x3fffdb, 0x3fffdc, 0x7fffe8, 0x7fffe9, 0x1fffde,
			0x7fffea, 0x3fffdd, 0x3fffde, 0xfffff0, 0x1fffdf, 0x3fffdf, 0x7fffeb, 0x7fffec,
			0x1fffe0, 0x1fffe1, 0x3fffe0, 0x1fffe2, 0x7fffed, 0x3fffe1, 0x7fffee, 0x7fffef,
			0xfffea, 0x3fffe2, 0x3fffe3, 0x3fffe4, 0x7ffff0, 0x3fffe5, 0x3fffe6, 0x7ffff1,
			0x3ffffe0, 0x3ffffe1, 0xfffeb, 0x7fff1, 0x3fffe7, 0x7ffff2, 0x3fffe8, 0x1ffffec,
			0x3ffffe2, 0x3ffffe3, 0x3ffffe4, 0x7ffffde, 0x7ffffdf, 0x3ffffe5, 0xfffff1, 0x1ffffed,
			0x7fff2, 0x1fffe3, 0x3ffffe6, 0x7ffffe0, 0x7ffffe1, 0x3ffffe7, 0x7ffffe2, 0xfffff2,
			0x1fffe4, 0x1fffe5, 0x3ffffe8, 0x3ffffe9, 0xffffffd, 0x7ffffe3, 0x7ffffe4, 0x7ffffe5,
			0xfffec, 0xfffff3, 0xfffed, 0x1fffe6, 0x3fffe9, 0x1fffe7, 0x1fffe8, 0x7ffff3,
			0x3fffea, 0x3fffeb, 0x1ffffee, 0x1ffffef, 0xfffff4, 0xfffff5, 0x3ffffea, 0x7ffff4,
			0x3ffffeb, 0x7ffffe6, 0x3ffffec, 0x3ffffed, 0x7ffffe7, 0x7ffffe8, 0x7ffffe9, 0x7ffffea,
			0x7ffffeb, 0xffffffe, 0x7ffffec, 0x7ffffed, 0x7ffffee, 0x7ffffef, 0x7fffff0, 0x3ffffee,
			0x3fffffff
	};

	/** The length in bits of each symbol's code, from Appendix B. */
	private static final byte[] LENGTHS = {
			13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
			28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
			6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
			5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
			13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
			7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
			15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
			6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
			20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
			24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
			22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
			21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
			26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
			19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
			20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
			26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
			30
	};

	/** Transition flag: the four bits complete a symbol, held in bits 8-15. */
	private static final int EMIT = 1 << 16;

	/** Transition flag: the four bits complete EOS. */
	private static final int FAIL = 1 << 17;

	/** {@code TRANSITIONS[state << 4 | nibble]}: next state in bits 0-7, then the flags above. */
	private static final int[] TRANSITIONS = new int[256 * 16];

	/** Whether a string may end in a state: the root, or up to 7 bits along the all-ones path. */
	private static final boolean[] ACCEPTS = new boolean[256];

	static {
		build();
	}

	private HpackHuffman() {
	}

	/**
	 * Returns how many octets a string takes Huffman-encoded.
	 * @param text the string, of characters 0 to 255 (ISO-8859-1 octets)
	 * @return the encoded length in octets
	 * @throws IllegalArgumentException if a character is above 255
	 */
	static long encodedLength(CharSequence text) {
		long bits = 0;
		for (int i = 0; i < text.length(); i++) {
			bits += LENGTHS[octet(text.charAt(i))];
		}
		return (bits + 7) >>> 3;
	}

	/**
	 * Encodes a string, padding its last octet with the most significant bits of EOS.
	 * @param text the string, of characters 0 to 255
	 * @param dst where to write, with room for {@link #encodedLength} octets from {@code offset}
	 * @param offset where to start writing
	 * @return the offset after the last octet written
	 */
	static int encode(CharSequence text, byte[] dst, int offset) {
		int at = offset;
		// Older bits shifted out of the top of the long have already been written.
		long bits = 0;
		int pending = 0;
		for (int i = 0; i < text.length(); i++) {
			int symbol = octet(text.charAt(i));
			bits = (bits << LENGTHS[symbol]) | CODES[symbol];
			pending += LENGTHS[symbol];
			while (pending >= 8) {
				pending -= 8;
				dst[at++] = (byte) (bits >>> pending);
			}
		}
		if (pending > 0) {
			dst[at++] = (byte) ((bits << (8 - pending)) | (0xFF >>> pending));
		}
		return at;
	}

	/**
	 * Returns the most octets a Huffman-encoded string of a given length can decode to.
	 * @param length the encoded length
	 * @return the bound, for sizing the destination of {@link #decode}
	 */
	static int maxDecodedLength(int length) {
		// Clamped so that callers adding an offset stay within an int; no real block comes near.
		return (int) Math.min(length * 8L / 5, Integer.MAX_VALUE / 2);
	}

	/**
	 * Decodes a Huffman-encoded string from the buffer's position, advancing it.
	 * @param src the encoded octets
	 * @param length how many octets to decode, at most {@code src.remaining()}
	 * @param dst where the decoded octets go
	 * @param offset where in {@code dst} they start, with room for {@link #maxDecodedLength}
	 * octets after it
	 * @return how many octets were decoded
	 * @throws Http2Exception a {@link ErrorCode#COMPRESSION_ERROR} if the string contains EOS
	 * or is badly padded
	 */
	static int decode(ByteBuffer src, int length, byte[] dst, int offset) throws Http2Exception {
		int state = 0;
		int count = offset;
		for (int i = 0; i < length; i++) {
			int octet = src.get();
			int step = TRANSITIONS[(state << 4) | ((octet >>> 4) & 0xF)];
			if ((step & (EMIT | FAIL)) != 0) {
				if ((step & FAIL) != 0) {
					throw eos();
				}
				dst[count++] = (byte) (step >>> 8);
			}
			step = TRANSITIONS[((step & 0xFF) << 4) | (octet & 0xF)];
			if ((step & (EMIT | FAIL)) != 0) {
				if ((step & FAIL) != 0) {
					throw eos();
				}
				dst[count++] = (byte) (step >>> 8);
			}
			state = step & 0xFF;
		}
		if (!ACCEPTS[state]) {
			throw Http2Exception.connection(ErrorCode.COMPRESSION_ERROR,
					"Huffman padding longer than 7 bits or not the start of EOS");
		}
		return count - offset;
	}

	private static Http2Exception eos() {
		return Http2Exception.connection(ErrorCode.COMPRESSION_ERROR, "Huffman-encoded string contains EOS");
	}

	private static int octet(char c) {
		if (c > 0xFF) {
			throw new IllegalArgumentException("Character " + (int) c + " is not an octet (ISO-8859-1)");
		}
		return c;
	}

	/**
	 * Builds the code tree from Appendix B, then the transitions of each inner node. Children are
	 * inner node ids (0 is the root), or {@code ~symbol} for a leaf.
	 */
	private static void build() {
		int[] children = new int[256 * 2];
		int nodes = 1;
		for (int symbol = 0; symbol <= EOS; symbol++) {
			int node = 0;
			for (int bit = LENGTHS[symbol] - 1; bit > 0; bit--) {
				int slot = node * 2 + ((CODES[symbol] >>> bit) & 1);
				if (children[slot] == 0) {
					children[slot] = nodes++;
				}
				node = children[slot];
			}
			children[node * 2 + (CODES[symbol] & 1)] = ~symbol;
		}
		for (int state = 0; state < nodes; state++) {
			for (int nibble = 0; nibble < 16; nibble++) {
				int node = state;
				int step = 0;
				for (int bit = 3; bit >= 0; bit--) {
					int child = children[node * 2 + ((nibble >>> bit) & 1)];
					if (child >= 0) {
						node = child;
						continue;
					}
					step |= (~child == EOS) ? FAIL : EMIT | (~child << 8);
					node = 0;
				}
				TRANSITIONS[(state << 4) | nibble] = step | node;
			}
		}
		// The all-ones path never reaches a leaf before EOS's 30 bits.
		for (int depth = 0, node = 0; depth <= 7; depth++, node = children[node * 2 + 1]) {
			ACCEPTS[node] = true;
		}
	}

}
