package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds many idle keep-alive connections from a process of its own, so that a test's server
 * and its clients do not share one open-file limit: opens {@code count} connections to
 * {@code port} on loopback, sends {@code GET /} on each and reads the answer, prints
 * {@code HELD <count>}, then holds them until its standard input closes or it is stopped.
 *
 * <p>Usage: {@code java dev.ariadne.server.IdleClients <port> <count>}
 */
public final class IdleClients {

	private static final byte[] REQUEST = "GET / HTTP/1.1\r\nHost: idle\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	private IdleClients() {
	}

	/**
	 * Opens and holds the connections.
	 * @param args the port and the count
	 * @throws IOException if a connection fails
	 */
	public static void main(String[] args) throws IOException {
		int port = Integer.parseInt(args[0]);
		int count = Integer.parseInt(args[1]);
		InetSocketAddress server = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
		List<Socket> sockets = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			Socket socket = new Socket();
			socket.connect(server, 10_000);
			socket.setSoTimeout(30_000);
			socket.getOutputStream().write(REQUEST);
			sockets.add(socket);
			if (i % 500 == 499 || i == count - 1) {
				for (int j = i - (i % 500); j <= i; j++) {
					readAnswer(sockets.get(j).getInputStream());
				}
			}
		}
		System.out.println("HELD " + sockets.size());
		System.out.flush();
		// until the parent closes our input or stops us
		while (System.in.read() >= 0) {
			// nothing to do with what arrives
		}
		for (Socket socket : sockets) {
			socket.close();
		}
	}

	/** Reads one small answer: its head, and the body its Content-Length announces. */
	private static void readAnswer(InputStream in) throws IOException {
		StringBuilder head = new StringBuilder();
		while (!head.toString().endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("connection closed before an answer");
			}
			head.append((char) b);
		}
		String lower = head.toString().toLowerCase(java.util.Locale.ROOT);
		int at = lower.indexOf("content-length:");
		int length = (at < 0) ? 0
				: Integer.parseInt(lower.substring(at + 15, lower.indexOf('\r', at)).trim());
		in.readNBytes(length);
	}

}
