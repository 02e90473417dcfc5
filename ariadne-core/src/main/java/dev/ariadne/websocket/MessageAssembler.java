package dev.ariadne.websocket;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Gathers the pieces {@link FrameListener} receives into whole messages, for an endpoint that
 * wants them whole; one per connection, reused from message to message.
 *
 * <p>In a listener: {@code if (assembler.add(data, last)) onText(assembler.text());}. The
 * buffer grows as the message does, never past the limit given (the reader's
 * {@link WebSocketLimits#maxMessageSize()}, or a smaller one of the endpoint's), and is given
 * back after a message larger than {@value #KEPT} bytes, so that an idle connection holds little.
 */
public final class MessageAssembler {

	/** The largest buffer kept from one message to the next. */
	static final int KEPT = 4096;

	private final int maxMessageSize;

	private byte[] buffer = new byte[0];

	private int size;

	private boolean complete;

	/**
	 * Creates an assembler.
	 * @param maxMessageSize the largest message it gathers, in bytes
	 */
	public MessageAssembler(int maxMessageSize) {
		if (maxMessageSize < 1) {
			throw new IllegalArgumentException("maxMessageSize must be positive, not " + maxMessageSize);
		}
		this.maxMessageSize = maxMessageSize;
	}

	/**
	 * Adds a piece, consuming it.
	 * @param data the piece
	 * @param last whether it ends the message
	 * @return whether the message is complete, to be taken by {@link #text} or {@link #binary}
	 * @throws WebSocketException 1009 when the message goes past the limit
	 */
	public boolean add(ByteBuffer data, boolean last) throws WebSocketException {
		if (this.complete) {
			clear();
		}
		int n = data.remaining();
		if (n > this.maxMessageSize - this.size) {
			throw new WebSocketException(CloseCode.MESSAGE_TOO_BIG, "Message too big");
		}
		if (this.size + n > this.buffer.length) {
			grow(this.size + n);
		}
		data.get(this.buffer, this.size, n);
		this.size += n;
		this.complete = last;
		return last;
	}

	/**
	 * Returns the complete message as text.
	 * @return the message, decoded from UTF-8 (which the reader has checked)
	 */
	public String text() {
		checkComplete();
		String text = new String(this.buffer, 0, this.size, StandardCharsets.UTF_8);
		clear();
		return text;
	}

	/**
	 * Returns the complete message as bytes.
	 * @return a new buffer holding the message
	 */
	public ByteBuffer binary() {
		checkComplete();
		byte[] bytes = new byte[this.size];
		System.arraycopy(this.buffer, 0, bytes, 0, this.size);
		clear();
		return ByteBuffer.wrap(bytes);
	}

	/**
	 * Returns the bytes gathered of the message under way.
	 * @return the size in bytes
	 */
	public int size() {
		return this.size;
	}

	private void checkComplete() {
		if (!this.complete) {
			throw new IllegalStateException("The message is not complete");
		}
	}

	private void clear() {
		this.size = 0;
		this.complete = false;
		if (this.buffer.length > KEPT) {
			this.buffer = new byte[0];
		}
	}

	private void grow(int needed) {
		long doubled = Math.max(256L, 2L * this.buffer.length);
		int capacity = (int) Math.min(this.maxMessageSize, Math.max(needed, doubled));
		byte[] larger = new byte[capacity];
		System.arraycopy(this.buffer, 0, larger, 0, this.size);
		this.buffer = larger;
	}

}
