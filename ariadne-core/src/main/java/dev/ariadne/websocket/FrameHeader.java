package dev.ariadne.websocket;

/**
 * The checks of a frame header that need no more than the header (RFC 6455 §5.2), for
 * {@link FrameReader}: made on its first two bytes, then on its length.
 */
final class FrameHeader {

	private FrameHeader() {
	}

	/**
	 * Checks the first two bytes of a header and returns the header's whole length.
	 * @param b0 FIN, RSV1-3, opcode
	 * @param b1 MASK, the 7-bit length
	 * @param masked whether frames must be masked (from a client) or must not (from a server)
	 * @param rsv1Allowed whether permessage-deflate gave RSV1 a meaning
	 * @param inMessage whether a fragmented message is under way
	 * @return 2 to 14
	 */
	static int check(byte b0, byte b1, boolean masked, boolean rsv1Allowed, boolean inMessage)
			throws WebSocketException {
		int opcode = b0 & 0x0f;
		boolean fin = (b0 & 0x80) != 0;
		if ((b0 & 0x30) != 0) {
			throw protocolError("RSV2 or RSV3 set without an extension that defines them");
		}
		if (!Opcode.isDefined(opcode)) {
			throw protocolError("Reserved opcode");
		}
		if ((b0 & 0x40) != 0 && (!rsv1Allowed || opcode == Opcode.CONTINUATION || Opcode.isControl(opcode))) {
			throw protocolError(rsv1Allowed ? "RSV1 set on a control frame or a continuation"
					: "RSV1 set without an extension that defines it");
		}
		int length7 = b1 & 0x7f;
		if (Opcode.isControl(opcode)) {
			if (!fin) {
				throw protocolError("Fragmented control frame");
			}
			if (length7 > 125) {
				throw protocolError("Control frame longer than 125 bytes");
			}
		}
		else if (opcode == Opcode.CONTINUATION) {
			if (!inMessage) {
				throw protocolError("Continuation frame outside a message");
			}
		}
		else if (inMessage) {
			throw protocolError("New message inside a fragmented message");
		}
		if (((b1 & 0x80) != 0) != masked) {
			throw protocolError(masked ? "Frame from a client not masked" : "Frame from a server masked");
		}
		int extended = (length7 == 126) ? 2 : (length7 == 127) ? 8 : 0;
		return 2 + extended + (masked ? 4 : 0);
	}

	/**
	 * Returns a whole header's payload length, checking its encoding.
	 * @param header the header's bytes, from index 0
	 * @return the length
	 */
	static long length(byte[] header) throws WebSocketException {
		int length7 = header[1] & 0x7f;
		if (length7 < 126) {
			return length7;
		}
		if (length7 == 126) {
			int length = ((header[2] & 0xff) << 8) | (header[3] & 0xff);
			if (length < 126) {
				throw protocolError("Frame length not in its shortest encoding");
			}
			return length;
		}
		long length = ((long) int32(header, 2) << 32) | (int32(header, 6) & 0xffff_ffffL);
		if (length < 0) {
			throw protocolError("Frame length with its most significant bit set");
		}
		if (length <= 0xffff) {
			throw protocolError("Frame length not in its shortest encoding");
		}
		return length;
	}

	static int int32(byte[] bytes, int at) {
		return ((bytes[at] & 0xff) << 24) | ((bytes[at + 1] & 0xff) << 16) | ((bytes[at + 2] & 0xff) << 8)
				| (bytes[at + 3] & 0xff);
	}

	private static WebSocketException protocolError(String reason) {
		return new WebSocketException(CloseCode.PROTOCOL_ERROR, reason);
	}

}
