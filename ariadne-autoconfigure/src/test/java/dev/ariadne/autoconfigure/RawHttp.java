package dev.ariadne.autoconfigure;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A raw-socket HTTP/1.1 client for tests: exact bytes out, one response back, framed by its
 * {@code Content-Length} or, without one, by the server closing the connection.
 */
public final class RawHttp {

	private RawHttp() {
	}

	/**
	 * Sends {@code GET path} with {@code Connection: close}.
	 * @param port the server's port on 127.0.0.1
	 * @param path the request target
	 * @return the response
	 * @throws IOException if the exchange fails
	 */
	public static Response get(int port, String path) throws IOException {
		return exchange(port, "GET " + path + " HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
	}

	/**
	 * Sends a request on a new connection and reads one response.
	 * @param port the server's port on 127.0.0.1
	 * @param request the request bytes, as ASCII
	 * @return the response
	 * @throws IOException if the exchange fails
	 */
	public static Response exchange(int port, String request) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(request.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			String head = readHead(in);
			Response headOnly = new Response(head, "");
			String contentLength = headOnly.header("Content-Length");
			byte[] body = (contentLength != null) ? in.readNBytes(Integer.parseInt(contentLength)) : in.readAllBytes();
			return new Response(head, new String(body, StandardCharsets.UTF_8));
		}
	}

	private static String readHead(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int matched = 0;
		while (matched < 4) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("Connection closed within the response head: " + head);
			}
			head.write(b);
			matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : ((b == '\r') ? 1 : 0);
		}
		String text = head.toString(StandardCharsets.US_ASCII);
		return text.substring(0, text.length() - 4);
	}

	/**
	 * A response as received.
	 * @param head the status line and header fields, without the final empty line
	 * @param body the body, decoded as UTF-8
	 */
	public record Response(String head, String body) {

		public String statusLine() {
			int end = this.head.indexOf("\r\n");
			return (end >= 0) ? this.head.substring(0, end) : this.head;
		}

		public String header(String name) {
			for (String line : this.head.split("\r\n")) {
				int colon = line.indexOf(':');
				if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
					return line.substring(colon + 1).trim();
				}
			}
			return null;
		}

	}

}
