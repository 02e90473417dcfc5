package dev.ariadne.websocket;

/**
 * The frame opcodes of RFC 6455 §5.2. Control frames are those of opcode 8 and up.
 */
public final class Opcode {

	/** 0x0: a continuation frame, a later fragment of a text or binary message. */
	public static final int CONTINUATION = 0x0;

	/** 0x1: the first frame of a text message (UTF-8). */
	public static final int TEXT = 0x1;

	/** 0x2: the first frame of a binary message. */
	public static final int BINARY = 0x2;

	/** 0x8: a close frame. */
	public static final int CLOSE = 0x8;

	/** 0x9: a ping. */
	public static final int PING = 0x9;

	/** 0xA: a pong. */
	public static final int PONG = 0xA;

	private Opcode() {
	}

	/**
	 * Returns whether the opcode is a control frame's (0x8 to 0xF), known or not.
	 * @param opcode the opcode, 0 to 15
	 * @return whether it is a control opcode
	 */
	public static boolean isControl(int opcode) {
		return (opcode & 0x8) != 0;
	}

	/**
	 * Returns whether RFC 6455 defines the opcode; others are reserved and fail the connection.
	 * @param opcode the opcode, 0 to 15
	 * @return whether it is one of the six defined
	 */
	public static boolean isDefined(int opcode) {
		return opcode <= BINARY || (opcode >= CLOSE && opcode <= PONG);
	}

}
