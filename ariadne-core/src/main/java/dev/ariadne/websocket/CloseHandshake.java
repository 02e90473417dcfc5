package dev.ariadne.websocket;

/**
 * The closing handshake of one connection (RFC 6455 §5.5.1, §7), from the server's side: which
 * close frames have been sent and received, and so what may still be sent or received.
 *
 * <table>
 * <caption>What each state allows</caption>
 * <tr><th>state</th><th>send data</th><th>send ping, pong</th><th>send close</th><th>receive data,
 * ping, pong</th><th>connection</th></tr>
 * <tr><td>{@code OPEN}</td><td>yes</td><td>yes</td><td>yes</td><td>yes</td><td>open</td></tr>
 * <tr><td>{@code CLOSE_SENT}</td><td>no (§5.5.1)</td><td>no</td><td>no</td><td>yes: the client may
 * not have read the close yet; its pings go unanswered</td><td>open until the client's close, or a
 * timeout</td></tr>
 * <tr><td>{@code CLOSE_RECEIVED}</td><td>only to end a message under way, then the close</td>
 * <td>no</td><td>yes, at once</td><td>no: the reader discards what follows a close</td><td>open
 * until the close is sent</td></tr>
 * <tr><td>{@code CLOSED}</td><td>no</td><td>no</td><td>no</td><td>no</td><td>the server closes it
 * (§7.1.1: the server closes the TCP connection first)</td></tr>
 * </table>
 *
 * <p>Not thread-safe: the protocol that owns the connection serializes its calls.
 */
public final class CloseHandshake {

	/** Where the handshake is. */
	public enum State {

		/** No close frame either way. */
		OPEN,

		/** The server sent its close frame and waits for the client's. */
		CLOSE_SENT,

		/** The client's close frame arrived; the server owes its own. */
		CLOSE_RECEIVED,

		/** Both close frames, or a failure: the connection closes. */
		CLOSED

	}

	private State state = State.OPEN;

	private int sentCode = -1;

	private int receivedCode = -1;

	/**
	 * Creates the handshake of a connection just opened: {@code OPEN}.
	 */
	public CloseHandshake() {
	}

	/**
	 * Returns where the handshake is.
	 * @return the state
	 */
	public State state() {
		return this.state;
	}

	/**
	 * Records the close frame the server is about to send, if it may send one.
	 * @param code the code it carries, or {@link CloseCode#NO_STATUS} for none
	 * @return {@code true} when the frame is to be sent; {@code false} when the server has sent
	 * one already (or failed the connection), and nothing changes
	 */
	public boolean send(int code) {
		switch (this.state) {
			case OPEN -> this.state = State.CLOSE_SENT;
			case CLOSE_RECEIVED -> this.state = State.CLOSED;
			default -> {
				return false;
			}
		}
		this.sentCode = code;
		return true;
	}

	/**
	 * Records the client's close frame, as {@link FrameListener#close} reports it.
	 * @param code the code it carried, or {@link CloseCode#NO_STATUS}
	 * @return the code of the close frame to answer with, at once: the client's, echoed as
	 * §5.5.1 suggests ({@link CloseCode#NO_STATUS}: a close frame without a code); or -1 when the
	 * server had sent its close already, so that the handshake is complete and the connection
	 * closes
	 * @throws IllegalStateException if a close frame was received already, or the connection failed
	 */
	public int received(int code) {
		if (this.state != State.OPEN && this.state != State.CLOSE_SENT) {
			throw new IllegalStateException("A close frame received in state " + this.state);
		}
		this.receivedCode = code;
		if (this.state == State.CLOSE_SENT) {
			this.state = State.CLOSED;
			return -1;
		}
		this.state = State.CLOSE_RECEIVED;
		return code;
	}

	/**
	 * Fails the connection (§7.1.7): whatever the state, it is closed now, without waiting for
	 * the client's close frame.
	 * @param code the code of the close frame to send, if one may still be sent
	 * @return whether to send a close frame with that code before closing: {@code false} when the
	 * server has sent one already
	 */
	public boolean fail(int code) {
		boolean send = this.state == State.OPEN || this.state == State.CLOSE_RECEIVED;
		if (send) {
			this.sentCode = code;
		}
		this.state = State.CLOSED;
		return send;
	}

	/**
	 * Returns whether the server may send data frames: while open, and after the client's close
	 * only to end a message already under way (§5.5.1 lets the answer wait for it).
	 * @return whether in {@code OPEN} or {@code CLOSE_RECEIVED}
	 */
	public boolean maySendData() {
		return this.state == State.OPEN || this.state == State.CLOSE_RECEIVED;
	}

	/**
	 * Returns whether the server may send a ping or a pong.
	 * @return whether in {@code OPEN}
	 */
	public boolean maySendControl() {
		return this.state == State.OPEN;
	}

	/**
	 * Returns whether what the client sends is still delivered.
	 * @return whether in {@code OPEN} or {@code CLOSE_SENT}
	 */
	public boolean mayReceive() {
		return this.state == State.OPEN || this.state == State.CLOSE_SENT;
	}

	/**
	 * Returns whether the connection is to be closed now.
	 * @return whether in {@code CLOSED}
	 */
	public boolean isClosed() {
		return this.state == State.CLOSED;
	}

	/**
	 * Returns the code of the close frame the server sent.
	 * @return the code, {@link CloseCode#NO_STATUS} for one without, or -1 when none was sent
	 */
	public int sentCode() {
		return this.sentCode;
	}

	/**
	 * Returns the code of the client's close frame.
	 * @return the code, {@link CloseCode#NO_STATUS} for one without, or -1 when none arrived
	 */
	public int receivedCode() {
		return this.receivedCode;
	}

}
