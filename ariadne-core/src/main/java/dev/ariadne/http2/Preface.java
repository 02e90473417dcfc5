package dev.ariadne.http2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The client connection preface (RFC 9113 §3.4): the 24 bytes
 * {@code PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n} that open every HTTP/2 connection before the client's
 * first {@code SETTINGS}, and that tell an HTTP/2 connection (prior knowledge) from an HTTP/1.1
 * one on a cleartext port.
 */
public final class Preface {

	/** The length of the preface in bytes. */
	public static final int LENGTH = 24;

	private static final byte[] BYTES = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	/** How the bytes received so far compare with the preface. */
	public enum Match {

		/** All 24 bytes are there and are the preface. */
		MATCH,

		/** The bytes there are the start of the preface: wait for more. */
		PARTIAL,

		/** The bytes are not the preface: the connection is not HTTP/2 (then it is HTTP/1.1). */
		NO

	}

	private Preface() {
	}

	/**
	 * Compares the bytes of {@code input} from its position to its limit with the preface,
	 * without moving the position; the caller consumes {@link #LENGTH} bytes on a match.
	 * @param input the bytes received, any kind of buffer
	 * @return {@link Match#MATCH}, {@link Match#PARTIAL} or {@link Match#NO}
	 */
	public static Match match(ByteBuffer input) {
		int position = input.position();
		int available = Math.min(input.remaining(), LENGTH);
		for (int i = 0; i < available; i++) {
			if (input.get(position + i) != BYTES[i]) {
				return Match.NO;
			}
		}
		return (available == LENGTH) ? Match.MATCH : Match.PARTIAL;
	}

	/**
	 * Returns the preface's bytes, for a client or a test.
	 * @return a new read-only buffer holding the 24 bytes
	 */
	public static ByteBuffer bytes() {
		return ByteBuffer.wrap(BYTES).asReadOnlyBuffer();
	}

}
