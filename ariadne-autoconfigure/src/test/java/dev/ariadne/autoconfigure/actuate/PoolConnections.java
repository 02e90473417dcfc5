package dev.ariadne.autoconfigure.actuate;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Raw connections that occupy an application's pool: in the {@code blocking} model an idle
 * keep-alive connection pins a worker, and one more connection waits for it.
 */
final class PoolConnections {

	private PoolConnections() {
	}

	/**
	 * Opens a connection, completes one {@code GET /} on it (a route answering {@code hello})
	 * and keeps it open.
	 * @param port the application's port on 127.0.0.1
	 * @return the open connection
	 * @throws IOException if the exchange fails
	 */
	static Socket keepAlive(int port) throws IOException {
		Socket socket = connect(port);
		OutputStream out = socket.getOutputStream();
		out.write("GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
		out.flush();
		InputStream in = socket.getInputStream();
		StringBuilder response = new StringBuilder();
		while (response.indexOf("\r\n\r\nhello") < 0) {
			int next = in.read();
			if (next < 0) {
				throw new IOException("Connection closed: " + response);
			}
			response.append((char) next);
		}
		assertThat(response.toString()).startsWith("HTTP/1.1 200 ").doesNotContainIgnoringCase("connection: close");
		return socket;
	}

	/**
	 * Opens a connection, with a 10 s read time-out.
	 * @param port the port on 127.0.0.1
	 * @return the connection
	 * @throws IOException if it cannot connect
	 */
	static Socket connect(int port) throws IOException {
		Socket socket = new Socket();
		socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
		socket.setSoTimeout(10_000);
		return socket;
	}

}
