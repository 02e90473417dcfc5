package dev.ariadne.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens {@code n} WebSocket sessions to a server's echo ({@value Routes#WEBSOCKET_ECHO_PATH}),
 * each a plain socket after its handshake, holds them quiet for the given seconds, then closes
 * them: for the memory a quiet session costs the server ({@code bench/websocket/idle-memory}).
 * Prints {@code OPEN <n>} once every handshake is answered 101.
 */
final class WebSocketIdleClient {

	private static final byte[] HANDSHAKE = ("GET " + Routes.WEBSOCKET_ECHO_PATH + " HTTP/1.1\r\nHost: localhost\r\n"
			+ "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
			+ "Sec-WebSocket-Version: 13\r\n\r\n")
		.getBytes(StandardCharsets.US_ASCII);

	private WebSocketIdleClient() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		int count = Integer.parseInt(args[1]);
		long seconds = Long.parseLong(args[2]);
		List<SocketChannel> sessions = new ArrayList<>(count);
		ByteBuffer head = ByteBuffer.allocate(1024);
		try {
			for (int i = 0; i < count; i++) {
				SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
				sessions.add(channel);
				channel.write(ByteBuffer.wrap(HANDSHAKE));
				readHead(channel, head.clear());
			}
			System.out.println("OPEN " + sessions.size());
			System.out.flush();
			Thread.sleep(seconds * 1000);
		}
		finally {
			for (SocketChannel channel : sessions) {
				channel.close();
			}
		}
	}

	private static void readHead(SocketChannel channel, ByteBuffer head) throws IOException {
		while (true) {
			if (channel.read(head) < 0) {
				throw new IOException("Closed during the handshake");
			}
			String text = new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1);
			if (text.contains("\r\n\r\n")) {
				if (!text.startsWith("HTTP/1.1 101")) {
					throw new IOException("Handshake refused: " + text.lines().findFirst().orElse(""));
				}
				return;
			}
		}
	}

}
