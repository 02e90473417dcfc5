package dev.ariadne.websocket;

import java.nio.ByteBuffer;

/**
 * Checks the UTF-8 of a client's text message as its masked bytes arrive, for a reader that
 * passes the bytes on unchanged to another implementation (the servlet container's guard in
 * front of Tyrus, whose own check waits for the end of a frame): each piece is unmasked in
 * place, checked as the continuation of what was checked before, and masked again. Like
 * {@link FrameReader}, it refuses text at its first byte that no valid UTF-8 could have there
 * (RFC 6455 §8.1; Autobahn's cases 6.4: fail fast), whether the message is split into frames
 * or a frame into pieces.
 *
 * <p>One per connection; not thread-safe.
 */
public final class MaskedUtf8Validator {

	private final Utf8Validator utf8 = new Utf8Validator();

	/**
	 * Creates a validator at the start of a message.
	 */
	public MaskedUtf8Validator() {
	}

	/**
	 * Checks a piece of a text frame's payload as the continuation of the message so far.
	 * @param bytes the bytes, masked as the client sent them; they are the same on return
	 * @param from the first index of the piece
	 * @param to the index after its last
	 * @param key the frame's masking key, its first byte the most significant
	 * @param offset the position in the frame's payload of the byte at {@code from}
	 * @return whether every byte may be part of valid UTF-8; once false, the message is refused
	 * (1007) and the validator is to be {@link #reset} before another
	 */
	public boolean check(byte[] bytes, int from, int to, int key, long offset) {
		ByteBuffer buffer = ByteBuffer.wrap(bytes);
		int phase = (int) (offset & 3);
		Mask.apply(buffer, from, to, key, phase);
		boolean valid = this.utf8.check(buffer, from, to) < 0;
		Mask.apply(buffer, from, to, key, phase);
		return valid;
	}

	/**
	 * Returns whether what was checked ends on a whole code point, as a message must when its
	 * last frame ends.
	 * @return whether no sequence is left open
	 */
	public boolean isComplete() {
		return this.utf8.isComplete();
	}

	/** Forgets what was checked, for the next message. */
	public void reset() {
		this.utf8.reset();
	}

}
