package dev.ariadne.servlet;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntConsumer;

/**
 * A raw-socket HTTP/1.1 client for the servlet tests, loopback only: it writes exactly the bytes
 * it is given and reads each response strictly (CRLF lines, one framing per response), so that
 * the framing the container chose is what the test sees.
 */
final class Wire implements AutoCloseable {

	static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private Wire(int port) throws IOException {
		this.socket = new Socket(LOOPBACK, port);
		this.socket.setSoTimeout(20_000);
		this.in = new BufferedInputStream(this.socket.getInputStream());
		this.out = this.socket.getOutputStream();
	}

	static Wire open(int port) throws IOException {
		return new Wire(port);
	}

	/**
	 * Sends one request and reads its response on a fresh connection.
	 * @param port the server port
	 * @param request the request text, with CRLF line ends
	 * @return the response
	 */
	static Reply exchange(int port, String request) throws IOException {
		try (Wire wire = open(port)) {
			return wire.send(request).read();
		}
	}

	/**
	 * Sends a request whose response may come (with {@code Connection: close}) before the body
	 * is sent whole, as for a body over a limit: a failed write is ignored and the response read.
	 * @param port the server port
	 * @param request the request text
	 * @return the response
	 */
	static Reply exchangeEarlyAnswer(int port, String request) throws IOException {
		try (Wire wire = open(port)) {
			try {
				wire.send(request);
			}
			catch (java.net.SocketException ex) {
				// the server answered and closed before reading the whole body
			}
			return wire.read();
		}
	}

	Wire send(String text) throws IOException {
		return send(text.getBytes(StandardCharsets.ISO_8859_1));
	}

	Wire send(byte[] bytes) throws IOException {
		this.out.write(bytes);
		this.out.flush();
		return this;
	}

	OutputStream output() {
		return this.out;
	}

	/** Reads a response, keeping its body. */
	Reply read() throws IOException {
		return read(false, null);
	}

	/** Reads a response to a HEAD request: no body follows whatever the framing says. */
	Reply readHead() throws IOException {
		return read(true, null);
	}

	/**
	 * Reads a response whose body is handed over chunk by chunk as it arrives, not kept.
	 * @param sink told the size of each piece of body
	 */
	Reply readStreaming(IntConsumer sink) throws IOException {
		return read(false, sink);
	}

	/**
	 * Reads the status line and headers only; the body stays on the connection.
	 */
	Reply readHeadOnly() throws IOException {
		Reply reply = new Reply();
		readHeadInto(reply);
		return reply;
	}

	/** Reads one line of a chunked body's framing or data. */
	String readLine() throws IOException {
		return line();
	}

	InputStream input() {
		return this.in;
	}

	/** Closes the sending direction only: the server reads the end of the stream. */
	void shutdownOutput() throws IOException {
		this.socket.shutdownOutput();
	}

	/** Reads exactly {@code count} bytes that are not an HTTP response (an upgraded connection's). */
	byte[] take(int count) throws IOException {
		byte[] bytes = this.in.readNBytes(count);
		if (bytes.length < count) {
			throw new java.io.EOFException("connection closed after " + bytes.length + " of " + count + " bytes");
		}
		return bytes;
	}

	/** Whether the server closed the connection (reads end of stream within the timeout). */
	boolean closedByServer() throws IOException {
		try {
			return this.in.read() < 0;
		}
		catch (java.net.SocketException ex) {
			return true;
		}
	}

	private void readHeadInto(Reply reply) throws IOException {
		String status = line();
		if (!status.startsWith("HTTP/1.1 ")) {
			throw new AssertionError("Not an HTTP/1.1 status line: " + status);
		}
		reply.status = Integer.parseInt(status.substring(9, 12));
		while (true) {
			String line = line();
			if (line.isEmpty()) {
				break;
			}
			int colon = line.indexOf(':');
			if (colon <= 0) {
				throw new AssertionError("Malformed header line: " + line);
			}
			reply.headers.add(new String[] { line.substring(0, colon), line.substring(colon + 1).trim() });
		}
	}

	private Reply read(boolean head, IntConsumer sink) throws IOException {
		Reply reply = new Reply();
		readHeadInto(reply);
		String length = reply.header("Content-Length");
		String coding = reply.header("Transfer-Encoding");
		if (length != null && coding != null) {
			throw new AssertionError("Both Content-Length and Transfer-Encoding");
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		if (head || reply.status == 204 || reply.status == 304 || reply.status < 200) {
			reply.framing = "none";
		}
		else if (coding != null) {
			reply.framing = "chunked";
			readChunked(body, sink);
		}
		else if (length != null) {
			reply.framing = "length";
			copy(Long.parseLong(length), body, sink);
		}
		else {
			reply.framing = "close";
			copy(Long.MAX_VALUE, body, sink);
		}
		reply.body = body.toByteArray();
		return reply;
	}

	private void readChunked(ByteArrayOutputStream body, IntConsumer sink) throws IOException {
		while (true) {
			String size = line();
			int semicolon = size.indexOf(';');
			long length = Long.parseLong((semicolon < 0) ? size : size.substring(0, semicolon), 16);
			if (length == 0) {
				while (!line().isEmpty()) {
					// trailers
				}
				return;
			}
			copy(length, body, sink);
			if (!line().isEmpty()) {
				throw new AssertionError("Chunk data longer than its size");
			}
		}
	}

	private void copy(long length, ByteArrayOutputStream body, IntConsumer sink) throws IOException {
		byte[] buffer = new byte[16384];
		long left = length;
		while (left > 0) {
			int count = this.in.read(buffer, 0, (int) Math.min(buffer.length, left));
			if (count < 0) {
				if (length == Long.MAX_VALUE) {
					return;
				}
				throw new EOFException("Connection closed inside a body, " + left + " bytes missing");
			}
			if (sink != null) {
				sink.accept(count);
			}
			else {
				body.write(buffer, 0, count);
			}
			left -= count;
		}
	}

	private String line() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		while (true) {
			int b = this.in.read();
			if (b < 0) {
				throw new EOFException("Connection closed inside a line: " + line.toString(StandardCharsets.ISO_8859_1));
			}
			if (b == '\r') {
				if (this.in.read() != '\n') {
					throw new AssertionError("CR without LF");
				}
				return line.toString(StandardCharsets.ISO_8859_1);
			}
			line.write(b);
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/** A response as read from the wire. */
	static final class Reply {

		int status;

		final List<String[]> headers = new ArrayList<>();

		byte[] body = new byte[0];

		String framing;

		String header(String name) {
			for (String[] header : this.headers) {
				if (header[0].equalsIgnoreCase(name)) {
					return header[1];
				}
			}
			return null;
		}

		List<String> headers(String name) {
			List<String> values = new ArrayList<>();
			for (String[] header : this.headers) {
				if (header[0].equalsIgnoreCase(name)) {
					values.add(header[1]);
				}
			}
			return values;
		}

		String text() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

		boolean closes() {
			String connection = header("Connection");
			return connection != null && connection.toLowerCase(Locale.ROOT).contains("close");
		}

		@Override
		public String toString() {
			return this.status + " " + this.framing + " " + text();
		}

	}

}
