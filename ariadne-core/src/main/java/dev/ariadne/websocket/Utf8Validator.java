package dev.ariadne.websocket;

import java.nio.ByteBuffer;

/**
 * Checks UTF-8 (RFC 3629) in pieces of any size: a code point may be split between pieces, and
 * a sequence is refused at its first byte that no valid sequence could have there, not at the
 * end of the piece or the message (Autobahn's cases 6.x: fail fast). Overlong forms,
 * surrogates (U+D800-U+DFFF) and code points above U+10FFFF are refused; noncharacters are
 * valid UTF-8.
 */
final class Utf8Validator {

	private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

	/** Continuation bytes still expected in the current sequence. */
	private int need;

	/** The range the next continuation byte must be in (narrower right after some leads). */
	private int lower = 0x80;

	private int upper = 0xbf;

	/**
	 * Checks {@code buffer[from, to)} as the continuation of what was checked before.
	 * @param buffer the bytes, read at absolute indexes
	 * @param from the first index
	 * @param to the index after the last
	 * @return -1 when every byte may be part of valid UTF-8, else the index of the first that
	 * may not (the validator's state is then undefined)
	 */
	int check(ByteBuffer buffer, int from, int to) {
		int i = from;
		while (i < to) {
			if (this.need == 0) {
				while (i + 8 <= to && (buffer.getLong(i) & HIGH_BITS) == 0) {
					i += 8;
				}
				if (i == to) {
					return -1;
				}
				int b = buffer.get(i) & 0xff;
				if (b >= 0x80 && !lead(b)) {
					return i;
				}
			}
			else {
				int b = buffer.get(i) & 0xff;
				if (b < this.lower || b > this.upper) {
					return i;
				}
				this.lower = 0x80;
				this.upper = 0xbf;
				this.need--;
			}
			i++;
		}
		return -1;
	}

	/**
	 * Returns whether what was checked ends on a whole code point, as a message must.
	 * @return whether no sequence is left open
	 */
	boolean isComplete() {
		return this.need == 0;
	}

	/** Forgets what was checked, for the next message. */
	void reset() {
		this.need = 0;
		this.lower = 0x80;
		this.upper = 0xbf;
	}

	/** Starts a multi-byte sequence; false for a byte that cannot start one. */
	private boolean lead(int b) {
		if (b < 0xc2) {
			// a continuation byte, or C0/C1 which could only start an overlong form
			return false;
		}
		if (b < 0xe0) {
			this.need = 1;
		}
		else if (b < 0xf0) {
			this.need = 2;
			this.lower = (b == 0xe0) ? 0xa0 : 0x80; // below A0: overlong
			this.upper = (b == 0xed) ? 0x9f : 0xbf; // above 9F: a surrogate
		}
		else if (b < 0xf5) {
			this.need = 3;
			this.lower = (b == 0xf0) ? 0x90 : 0x80; // below 90: overlong
			this.upper = (b == 0xf4) ? 0x8f : 0xbf; // above 8F: beyond U+10FFFF
		}
		else {
			return false;
		}
		return true;
	}

}
