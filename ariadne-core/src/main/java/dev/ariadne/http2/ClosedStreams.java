package dev.ariadne.http2;

/**
 * The streams a session closed most recently, and how: frames the client sent before it learnt of
 * a reset from the server are ignored (RFC 9113 §5.4.2), while a frame on a stream the client
 * itself ended or reset is an error. Older closed streams are not remembered; a frame on one is
 * treated as on a stream never opened.
 */
final class ClosedStreams {

	/** Both sides ended the stream. */
	static final byte ENDED = 1;

	/** The client reset the stream. */
	static final byte RESET_BY_PEER = 2;

	/** The server reset the stream: the client may not know yet. */
	static final byte RESET_BY_SERVER = 3;

	private static final int SIZE = 64;

	private final int[] ids = new int[SIZE];

	private final byte[] kinds = new byte[SIZE];

	private int next;

	void add(int id, byte kind) {
		this.ids[this.next] = id;
		this.kinds[this.next] = kind;
		this.next = (this.next + 1) % SIZE;
	}

	/** Returns how a stream was closed, or 0 when it is not remembered. */
	byte kind(int id) {
		for (int i = 0; i < SIZE; i++) {
			if (this.ids[i] == id) {
				return this.kinds[i];
			}
		}
		return 0;
	}

}
