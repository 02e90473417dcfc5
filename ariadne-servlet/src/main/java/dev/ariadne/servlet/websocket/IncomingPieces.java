package dev.ariadne.servlet.websocket;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The pieces of messages a {@link CoreJakartaSession} gets from the core while one of its
 * handlers takes pieces (the core then delivers every message so): gathered whole for a handler
 * of the other kind that takes whole messages, or, for a partial text handler, decoded into
 * strings of whole characters, a character that a piece ends inside held until the next piece
 * completes it. The delivering thread's alone. The core has limited the message already; the
 * session checks its own, smaller, limit on what is gathered.
 */
final class IncomingPieces {

	/** A whole message gathered from pieces. */
	private ByteArrayOutputStream gathered;

	private CharsetDecoder decoder;

	/** The bytes of a character a text piece ended inside, completed by the next piece. */
	private ByteBuffer carry;

	/**
	 * Adds a piece of a message to gather whole.
	 * @param piece the piece, read to its end
	 * @param last whether it ends the message
	 * @return the whole message once {@code last}, else {@code null}
	 */
	byte[] gather(ByteBuffer piece, boolean last) {
		ByteArrayOutputStream gathered = this.gathered;
		if (gathered == null) {
			gathered = new ByteArrayOutputStream();
			this.gathered = gathered;
		}
		byte[] bytes = new byte[piece.remaining()];
		piece.get(bytes);
		gathered.writeBytes(bytes);
		if (!last) {
			return null;
		}
		this.gathered = null;
		return gathered.toByteArray();
	}

	/**
	 * Decodes a piece of a text message.
	 * @param utf8 the piece, read to its end
	 * @param last whether it ends the message
	 * @return the whole characters it completes, possibly none
	 * @throws CharacterCodingException if it is not UTF-8 (the core checked it: not expected)
	 */
	String decode(ByteBuffer utf8, boolean last) throws CharacterCodingException {
		CharsetDecoder decoder = this.decoder;
		if (decoder == null) {
			decoder = StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT);
			this.decoder = decoder;
		}
		ByteBuffer input = utf8;
		if (this.carry != null) {
			input = ByteBuffer.allocate(this.carry.remaining() + utf8.remaining()).put(this.carry).put(utf8).flip();
			this.carry = null;
		}
		CharBuffer chars = CharBuffer.allocate(input.remaining() + 1);
		CoderResult result = decoder.decode(input, chars, last);
		if (result.isError()) {
			result.throwException();
		}
		if (last) {
			decoder.flush(chars);
			decoder.reset();
		}
		else if (input.hasRemaining()) {
			this.carry = ByteBuffer.allocate(input.remaining()).put(input).flip();
		}
		return chars.flip().toString();
	}

}
