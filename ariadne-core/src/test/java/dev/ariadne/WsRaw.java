package dev.ariadne;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A raw WebSocket client for the socket tests: the handshake by hand, then frames as bytes, so
 * that a test can send what no well-behaved client sends (an unmasked frame, bad UTF-8) or
 * stop reading. Public for the tests of the modules on the core (the servlet container's Jakarta
 * WebSocket), which meet the same clients.
 */
public final class WsRaw implements AutoCloseable {

	/** A frame the server sent. */
	public record Frame(int opcode, boolean fin, byte[] payload) {

		/**
		 * Returns the code of a close frame.
		 * @return the code, 1005 for none
		 */
		public int closeCode() {
			return (this.payload.length >= 2) ? ((this.payload[0] & 0xff) << 8) | (this.payload[1] & 0xff) : 1005;
		}

	}

	final Socket socket;

	final OutputStream out;

	final DataInputStream in;

	/** The head of the server's answer to the handshake. */
	public final String head;

	private WsRaw(Socket socket, String head) throws IOException {
		this.socket = socket;
		this.out = socket.getOutputStream();
		this.in = new DataInputStream(socket.getInputStream());
		this.head = head;
	}

	/** Opens a connection and sends a handshake; the 101 (or refusal) head is read. */
	static WsRaw connect(AriadneServer server, String path) throws IOException {
		return connect(server.port(), path);
	}

	/**
	 * Opens a connection to a loopback port and sends a handshake; the 101 (or refusal) head is read.
	 * @param port the port
	 * @param path the request target
	 * @return the client, its reads bounded by 10 s
	 * @throws IOException if connecting fails
	 */
	public static WsRaw connect(int port, String path) throws IOException {
		Socket socket = new Socket();
		socket.connect(new InetSocketAddress(RawClient.LOOPBACK, port), 5000);
		socket.setSoTimeout(10_000);
		String request = "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
				+ "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
		socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
		InputStream in = socket.getInputStream();
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int matched = 0;
		while (matched < 4) {
			int b = in.read();
			if (b < 0) {
				break;
			}
			head.write(b);
			matched = (b == ((matched % 2 == 0) ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
		}
		return new WsRaw(socket, head.toString(StandardCharsets.ISO_8859_1));
	}

	/**
	 * Sends a frame, masked unless asked not to.
	 * @param opcode the opcode
	 * @param fin whether the frame ends its message
	 * @param payload the payload, unmasked
	 * @param masked whether to mask it, as a client must
	 * @throws IOException if writing fails
	 */
	public void send(int opcode, boolean fin, byte[] payload, boolean masked) throws IOException {
		byte[] frame = frame(opcode, fin, payload, masked);
		write(frame, 0, frame.length);
	}

	/**
	 * Writes bytes as they are: a frame's first part, say, to stop in the middle of it.
	 * @param bytes the bytes
	 * @param from the first index
	 * @param to the index after the last
	 * @throws IOException if writing fails
	 */
	public void write(byte[] bytes, int from, int to) throws IOException {
		this.out.write(bytes, from, to - from);
		this.out.flush();
	}

	/**
	 * Returns the bytes of a frame, masked with the key {@code 12 34 56 78} unless asked not to.
	 * @param opcode the opcode
	 * @param fin whether the frame ends its message
	 * @param payload the payload, unmasked
	 * @param masked whether to mask it
	 * @return the header and the payload
	 */
	public static byte[] frame(int opcode, boolean fin, byte[] payload, boolean masked) {
		ByteArrayOutputStream frame = new ByteArrayOutputStream();
		frame.write((fin ? 0x80 : 0) | opcode);
		int mask = masked ? 0x80 : 0;
		if (payload.length < 126) {
			frame.write(mask | payload.length);
		}
		else if (payload.length <= 0xffff) {
			frame.write(mask | 126);
			frame.write(payload.length >>> 8);
			frame.write(payload.length);
		}
		else {
			frame.write(mask | 127);
			for (int shift = 56; shift >= 0; shift -= 8) {
				frame.write((int) ((long) payload.length >>> shift));
			}
		}
		byte[] key = { 0x12, 0x34, 0x56, 0x78 };
		if (masked) {
			frame.write(key, 0, key.length);
		}
		for (int i = 0; i < payload.length; i++) {
			frame.write(masked ? payload[i] ^ key[i & 3] : payload[i]);
		}
		return frame.toByteArray();
	}

	void sendText(String text) throws IOException {
		send(0x1, true, text.getBytes(StandardCharsets.UTF_8), true);
	}

	/**
	 * Reads the next frame.
	 * @return the frame
	 * @throws IOException if reading fails, or takes more than 10 s
	 */
	public Frame read() throws IOException {
		int b0 = this.in.readUnsignedByte();
		int b1 = this.in.readUnsignedByte();
		long length = b1 & 0x7f;
		if (length == 126) {
			length = this.in.readUnsignedShort();
		}
		else if (length == 127) {
			length = this.in.readLong();
		}
		byte[] payload = new byte[(int) length];
		this.in.readFully(payload);
		return new Frame(b0 & 0x0f, (b0 & 0x80) != 0, payload);
	}

	/**
	 * Reads frames until a close frame, and returns it.
	 * @return the close frame
	 * @throws IOException if reading fails, or takes more than 10 s
	 */
	public Frame readClose() throws IOException {
		while (true) {
			Frame frame = read();
			if (frame.opcode() == 0x8) {
				return frame;
			}
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
