package dev.ariadne.websocket;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A listener that writes what the reader reports as one line per event, so that tests compare
 * plain lists of strings that do not depend on how the input was split:
 * <ul>
 * <li>{@code text 'hello' frames=2}, {@code binary 0x0102 frames=1}: a whole message, its pieces
 * joined, with the number of frame ends reported;</li>
 * <li>{@code ping 'abc'}, {@code pong ''}, {@code close 1000 'bye'}.</li>
 * </ul>
 * Text is quoted as it decodes from UTF-8; control payloads are quoted when printable ASCII,
 * else in hex. It also checks the reader's side of the contract: buffers are read-only, a
 * message's pieces are all of its type, a text message is UTF-8 (by the JDK's strict decoder),
 * {@code last} comes with {@code frameEnd}, nothing is reported after a close, and nothing is
 * left of a message when the reader says it is idle.
 */
class RecordingListener implements FrameListener {

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private final List<String> events = new ArrayList<>();

	private final ByteArrayOutputStream message = new ByteArrayOutputStream();

	/** The type of the message under way: null between messages. */
	private String type;

	private int frames;

	private boolean closed;

	List<String> events() {
		return this.events;
	}

	/** The bytes received of the message under way. */
	int partial() {
		return this.message.size();
	}

	@Override
	public void text(ByteBuffer data, boolean frameEnd, boolean last) {
		piece("text", data, frameEnd, last);
	}

	@Override
	public void binary(ByteBuffer data, boolean frameEnd, boolean last) {
		piece("binary", data, frameEnd, last);
	}

	@Override
	public void ping(ByteBuffer payload) {
		control("ping", payload);
	}

	@Override
	public void pong(ByteBuffer payload) {
		control("pong", payload);
	}

	@Override
	public void close(int code, String reason) {
		checkOpen();
		this.closed = true;
		this.events.add("close " + code + " '" + reason + "'");
	}

	/** Checks what must hold once all the input is read without an error. */
	void checkEnd(FrameReader reader) {
		if (reader.isIdle() && this.type != null) {
			throw new AssertionError("the reader is idle inside a " + this.type + " message");
		}
		if (reader.isClosed() != this.closed) {
			throw new AssertionError("the reader says closed=" + reader.isClosed() + " after " + this.events);
		}
	}

	private void piece(String kind, ByteBuffer data, boolean frameEnd, boolean last) {
		checkOpen();
		checkReadOnly(data);
		if (this.type != null && !this.type.equals(kind)) {
			throw new AssertionError(kind + " piece inside a " + this.type + " message");
		}
		if (last && !frameEnd) {
			throw new AssertionError("the last piece of a message does not end its frame");
		}
		this.type = kind;
		byte[] bytes = new byte[data.remaining()];
		data.get(bytes);
		this.message.writeBytes(bytes);
		if (frameEnd) {
			this.frames++;
		}
		if (last) {
			byte[] whole = this.message.toByteArray();
			String shown = kind.equals("text") ? "'" + strictUtf8(whole) + "'" : hex(whole);
			this.events.add(kind + " " + shown + " frames=" + this.frames);
			this.message.reset();
			this.type = null;
			this.frames = 0;
		}
	}

	/** Decodes text, failing on what is not UTF-8: the reader must never deliver it. */
	private static String strictUtf8(byte[] bytes) {
		try {
			return StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString();
		}
		catch (CharacterCodingException ex) {
			throw new AssertionError("the reader delivered a text message that is not UTF-8: " + hex(bytes), ex);
		}
	}

	private void control(String kind, ByteBuffer payload) {
		checkOpen();
		checkReadOnly(payload);
		byte[] bytes = new byte[payload.remaining()];
		payload.get(bytes);
		this.events.add(kind + " " + quote(bytes));
	}

	private void checkOpen() {
		if (this.closed) {
			throw new AssertionError("an event after the close: " + this.events);
		}
	}

	private static void checkReadOnly(ByteBuffer buffer) {
		if (!buffer.isReadOnly()) {
			throw new AssertionError("the reader passed a writable buffer");
		}
	}

	/** Quotes bytes as ASCII when printable, else as hex. */
	static String quote(byte[] bytes) {
		for (byte b : bytes) {
			if (b < 0x20 || b > 0x7e) {
				return hex(bytes);
			}
		}
		return "'" + new String(bytes, StandardCharsets.US_ASCII) + "'";
	}

	static String hex(byte[] bytes) {
		StringBuilder text = new StringBuilder("0x");
		for (byte b : bytes) {
			text.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
		}
		return text.toString();
	}

}
