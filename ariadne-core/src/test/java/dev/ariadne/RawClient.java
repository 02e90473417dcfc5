package dev.ariadne;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import dev.ariadne.RawResponse.Field;
import dev.ariadne.RawResponse.Framing;

/**
 * A raw-socket HTTP/1.1 client for socket-level tests, loopback only: it writes exactly the
 * bytes it is given and reads responses with a strict reader, so that a framing mistake of the
 * server fails the test instead of being repaired.
 *
 * <p>The reader insists on CRLF line ends, {@code HTTP/1.1} status lines, token header names,
 * no obsolete line folding, no {@code Content-Length} or {@code Transfer-Encoding} on 1xx and
 * 204, never both on one response, and exact chunk framing. A violation fails with an
 * {@link AssertionError}; a connection that ends inside a response throws
 * {@link IncompleteResponseException} carrying what arrived. Every read has a timeout
 * ({@link #READ_TIMEOUT} unless given), so a test never hangs on a silent server.
 *
 * <p>Not thread-safe: one thread reads; at most one other thread may write meanwhile.
 */
public final class RawClient implements AutoCloseable {

	/** The only address tests use. */
	public static final InetAddress LOOPBACK = loopback();

	/** Default time a read may wait for bytes. */
	public static final Duration READ_TIMEOUT = Duration.ofSeconds(5);

	private static final int CONNECT_TIMEOUT_MILLIS = 5000;

	private static final int MAX_LINE = 64 * 1024;

	private static final int MAX_BODY = 64 * 1024 * 1024;

	private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 ([1-9][0-9]{2}) [\\t\\x20-\\x7E\\x80-\\xFF]*");

	private static final Pattern CHUNK_LINE = Pattern.compile("([0-9a-fA-F]{1,15})(;[\\t\\x20-\\x7E\\x80-\\xFF]*)?");

	private static final Pattern DIGITS = Pattern.compile("[0-9]{1,18}");

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private final Duration readTimeout;

	private RawClient(Socket socket, Duration readTimeout) throws IOException {
		this.socket = socket;
		this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
		this.out = socket.getOutputStream();
		this.readTimeout = readTimeout;
	}

	/**
	 * Connects to a server on the loopback address, with the default read timeout.
	 * @param port the server's port
	 * @return the connected client
	 * @throws IOException if the connection is refused
	 */
	public static RawClient connect(int port) throws IOException {
		return connect(port, READ_TIMEOUT);
	}

	/**
	 * Connects to a server on the loopback address.
	 * @param port the server's port
	 * @param readTimeout how long any one read may wait for bytes
	 * @return the connected client
	 * @throws IOException if the connection is refused
	 */
	public static RawClient connect(int port, Duration readTimeout) throws IOException {
		return connect(port, readTimeout, Layer.PLAIN);
	}

	/**
	 * Connects to a server on the loopback address and speaks through a layer over the socket.
	 * @param port the server's port
	 * @param readTimeout how long any one read may wait for bytes
	 * @param layer what the client speaks through: the socket, or TLS over it
	 * @return the connected client
	 * @throws IOException if the connection is refused, or the layer fails (a TLS handshake)
	 */
	static RawClient connect(int port, Duration readTimeout, Layer layer) throws IOException {
		Socket socket = new Socket();
		try {
			socket.connect(new InetSocketAddress(LOOPBACK, port), CONNECT_TIMEOUT_MILLIS);
			socket.setSoTimeout((int) readTimeout.toMillis());
			socket.setTcpNoDelay(true);
			return new RawClient(layer.over(socket), readTimeout);
		}
		catch (IOException | RuntimeException ex) {
			socket.close();
			throw ex;
		}
	}

	/**
	 * Speaks over a socket that is connected already, TLS or not.
	 * @param socket the socket, with its read timeout set
	 * @param readTimeout the read timeout, for messages
	 * @return the client
	 * @throws IOException if the socket's streams cannot be had
	 */
	static RawClient over(Socket socket, Duration readTimeout) throws IOException {
		return new RawClient(socket, readTimeout);
	}

	/**
	 * What a client speaks through over its connected socket.
	 */
	@FunctionalInterface
	interface Layer {

		/** The socket itself: plaintext. */
		Layer PLAIN = (socket) -> socket;

		/**
		 * Returns what the client speaks through.
		 * @param socket the connected socket, with its read timeout set
		 * @return the socket to use
		 * @throws IOException if setting the layer up failed
		 */
		Socket over(Socket socket) throws IOException;

		/**
		 * Returns TLS over the socket, handshaken before the first request is sent.
		 * @param context the client's context
		 * @param serverName the host name to ask for (SNI), which is also the name the server's
		 * certificate must match
		 * @return the layer
		 */
		static Layer tls(SSLContext context, String serverName) {
			return (socket) -> {
				SSLSocket tls = (SSLSocket) context.getSocketFactory()
					.createSocket(socket, serverName, socket.getPort(), true);
				SSLParameters parameters = tls.getSSLParameters();
				parameters.setServerNames(List.of(new SNIHostName(serverName)));
				parameters.setEndpointIdentificationAlgorithm("HTTPS");
				tls.setSSLParameters(parameters);
				tls.startHandshake();
				return tls;
			};
		}

	}

	/**
	 * Writes text as ISO-8859-1 bytes (so {@code \u0001} is the byte 0x01), in one write.
	 * @param text the bytes to send, as characters up to U+00FF
	 * @return this client
	 * @throws IOException if the write fails
	 */
	public RawClient send(String text) throws IOException {
		return send(text.getBytes(StandardCharsets.ISO_8859_1));
	}

	/**
	 * Writes bytes in one write.
	 * @param bytes the bytes
	 * @return this client
	 * @throws IOException if the write fails
	 */
	public RawClient send(byte[] bytes) throws IOException {
		this.out.write(bytes);
		this.out.flush();
		return this;
	}

	/**
	 * Writes the first bytes of an array in one write.
	 * @param bytes the array
	 * @param length how many of its bytes
	 * @return this client
	 * @throws IOException if the write fails
	 */
	RawClient send(byte[] bytes, int length) throws IOException {
		this.out.write(bytes, 0, length);
		this.out.flush();
		return this;
	}

	/**
	 * Sends a request and reads the response to it (not a {@code HEAD} request).
	 * @param request the request bytes
	 * @return the response
	 * @throws IOException if the exchange fails
	 */
	public RawResponse exchange(String request) throws IOException {
		return send(request).read();
	}

	/**
	 * Reads the next response, which answers a request other than {@code HEAD}. A 1xx interim
	 * response is returned as it is; read again for the final one.
	 * @return the response
	 * @throws IOException if the connection fails, ends inside the response, or a read times out
	 */
	public RawResponse read() throws IOException {
		return readResponse(false);
	}

	/**
	 * Reads the next response, which answers a {@code HEAD} request and so has no body whatever
	 * its header fields say.
	 * @return the response
	 * @throws IOException if the connection fails, ends inside the response, or a read times out
	 */
	public RawResponse readHeadResponse() throws IOException {
		return readResponse(true);
	}

	/**
	 * Waits until at least {@code count} bytes have arrived and returns them without consuming
	 * them: the next read starts where this one did.
	 * @param count how many bytes to wait for
	 * @return the bytes
	 * @throws IOException if the connection ends first or a read times out
	 */
	public byte[] peek(int count) throws IOException {
		this.in.mark(count + 1);
		byte[] bytes = this.in.readNBytes(count);
		this.in.reset();
		if (bytes.length < count) {
			throw new IncompleteResponseException("connection closed after " + bytes.length + " of " + count
					+ " awaited bytes", null);
		}
		return bytes;
	}

	/**
	 * Reads exactly {@code count} bytes: what a server sends that is not an HTTP/1.1 response.
	 * @param count how many bytes to read
	 * @return the bytes
	 * @throws IOException if the connection ends first or a read times out
	 */
	public byte[] take(int count) throws IOException {
		byte[] bytes = this.in.readNBytes(count);
		if (bytes.length < count) {
			throw new IncompleteResponseException("connection closed after " + bytes.length + " of " + count
					+ " awaited bytes", null);
		}
		return bytes;
	}

	/**
	 * Returns whether response bytes have arrived and wait to be read, without blocking.
	 * @return whether anything can be read now
	 * @throws IOException if the connection failed
	 */
	public boolean hasBytesWaiting() throws IOException {
		return this.in.available() > 0;
	}

	/**
	 * Asserts that the server closes the connection in order (a read returns -1) before the
	 * read timeout, without sending anything more.
	 * @throws AssertionError if more bytes arrive, the connection stays open, or it is reset
	 */
	public void expectClosed() {
		try {
			int next = this.in.read();
			if (next >= 0) {
				byte[] more = new byte[Math.min(this.in.available(), 200)];
				int n = this.in.read(more);
				throw new AssertionError("Expected the server to close the connection, but it sent more: "
						+ escape((char) next + new String(more, 0, Math.max(n, 0), StandardCharsets.ISO_8859_1)));
			}
		}
		catch (SocketTimeoutException ex) {
			throw new AssertionError("Expected the server to close the connection, but it was still open after "
					+ this.readTimeout.toMillis() + " ms");
		}
		catch (IOException ex) {
			throw new AssertionError("Expected an orderly close (FIN), but the connection failed: " + ex, ex);
		}
	}

	/**
	 * Reads everything until the server closes the connection.
	 * @return the bytes
	 * @throws IOException if the connection fails or a read times out
	 */
	public byte[] readUntilClose() throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		byte[] buffer = new byte[8192];
		int n;
		while ((n = this.in.read(buffer)) >= 0) {
			bytes.write(buffer, 0, n);
			if (bytes.size() > MAX_BODY) {
				throw new AssertionError("More than " + MAX_BODY + " bytes before close");
			}
		}
		return bytes.toByteArray();
	}

	/**
	 * Reads and counts everything until the server closes the connection, keeping nothing.
	 * @return the number of bytes
	 * @throws IOException if the connection fails or a read times out
	 */
	long countUntilClose() throws IOException {
		return this.in.transferTo(OutputStream.nullOutputStream());
	}

	/**
	 * Reads and counts everything until the server closes the connection, as a slow client
	 * would: at most a few bytes at a time, with a pause after each read.
	 * @param bytesPerRead the most bytes per read
	 * @param pauseMillis the pause after each read
	 * @return the number of bytes
	 * @throws IOException if the connection fails or a read times out
	 */
	long countSlowly(int bytesPerRead, long pauseMillis) throws IOException {
		byte[] buffer = new byte[bytesPerRead];
		long total = 0;
		int n;
		while ((n = this.in.read(buffer)) >= 0) {
			total += n;
			try {
				Thread.sleep(pauseMillis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException("Interrupted", ex);
			}
		}
		return total;
	}

	/**
	 * Closes the sending direction only, so the server reads the end of the stream.
	 * @throws IOException if the socket is closed
	 */
	public void shutdownOutput() throws IOException {
		this.socket.shutdownOutput();
	}

	/**
	 * Returns the client's local port, to tell connections apart in messages.
	 * @return the port
	 */
	public int localPort() {
		return this.socket.getLocalPort();
	}

	/**
	 * Closes the connection with a reset instead of a FIN (SO_LINGER 0), as a crashed client
	 * or a middlebox does: the server's next read or write on it fails.
	 */
	public void reset() {
		try {
			this.socket.setSoLinger(true, 0);
		}
		catch (IOException ex) {
			// already closed: nothing left to reset
		}
		close();
	}

	@Override
	public void close() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			// nothing to clean up beyond the socket
		}
	}

	// ---- the strict response reader

	private RawResponse readResponse(boolean headRequest) throws IOException {
		String statusLine = readLine(() -> null, true);
		Matcher matcher = STATUS_LINE.matcher(statusLine);
		if (!matcher.matches()) {
			throw violation("malformed status line '" + escape(statusLine) + "'");
		}
		int status = Integer.parseInt(matcher.group(1));
		List<Field> headers = readFields(statusLine, status);
		Framing framing = framing(status, headers, headRequest);
		RawResponse head = new RawResponse(statusLine, status, headers, framing, new byte[0], List.of(), List.of());
		return switch (framing) {
			case NONE -> head;
			case LENGTH -> readFixed(head, Long.parseLong(head.header("Content-Length")));
			case CHUNKED -> readChunked(head);
			case CLOSE -> withBody(head, readUntilClose(), List.of(), List.of());
		};
	}

	private List<Field> readFields(String statusLine, int status) throws IOException {
		List<Field> fields = new ArrayList<>();
		while (true) {
			String line = readLine(() -> partial(statusLine, status, fields), false);
			if (line.isEmpty()) {
				return fields;
			}
			fields.add(field(line));
		}
	}

	private static Field field(String line) {
		if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
			throw violation("obsolete line folding: '" + escape(line) + "'");
		}
		int colon = line.indexOf(':');
		if (colon <= 0) {
			throw violation("field without a name or colon: '" + escape(line) + "'");
		}
		String name = line.substring(0, colon);
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (!(Character.isLetterOrDigit(c) && c < 0x80) && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
				throw violation("field name is not a token: '" + escape(line) + "'");
			}
		}
		String value = line.substring(colon + 1).strip();
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if ((c < 0x20 && c != '\t') || c == 0x7F) {
				throw violation("control character in field value: '" + escape(line) + "'");
			}
		}
		return new Field(name, value);
	}

	private static Framing framing(int status, List<Field> headers, boolean headRequest) {
		RawResponse probe = new RawResponse("", status, headers, Framing.NONE, new byte[0], List.of(), List.of());
		List<String> transferEncoding = probe.headers("Transfer-Encoding");
		List<String> contentLength = probe.headers("Content-Length");
		if ((status < 200 || status == 204) && !(transferEncoding.isEmpty() && contentLength.isEmpty())) {
			throw violation(status + " response with Content-Length or Transfer-Encoding");
		}
		if (!transferEncoding.isEmpty() && !contentLength.isEmpty()) {
			throw violation("both Transfer-Encoding and Content-Length");
		}
		if (contentLength.size() > 1 || (contentLength.size() == 1 && !DIGITS.matcher(contentLength.get(0)).matches())) {
			throw violation("Content-Length " + contentLength);
		}
		if (transferEncoding.size() > 1
				|| (transferEncoding.size() == 1 && !transferEncoding.get(0).equalsIgnoreCase("chunked"))) {
			throw violation("Transfer-Encoding " + transferEncoding + " (the server only ever sends chunked)");
		}
		if (headRequest || status < 200 || status == 204 || status == 304) {
			return Framing.NONE;
		}
		if (!transferEncoding.isEmpty()) {
			return Framing.CHUNKED;
		}
		return contentLength.isEmpty() ? Framing.CLOSE : Framing.LENGTH;
	}

	private RawResponse readFixed(RawResponse head, long length) throws IOException {
		if (length > MAX_BODY) {
			throw violation("Content-Length " + length + " larger than this client reads");
		}
		byte[] body = this.in.readNBytes((int) length);
		if (body.length < length) {
			throw new IncompleteResponseException("connection closed after " + body.length + " of " + length
					+ " body bytes", withBody(head, body, List.of(), List.of()));
		}
		return withBody(head, body, List.of(), List.of());
	}

	private RawResponse readChunked(RawResponse head) throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		List<Integer> sizes = new ArrayList<>();
		while (true) {
			String line = readLine(() -> withBody(head, body.toByteArray(), sizes, List.of()), false);
			Matcher matcher = CHUNK_LINE.matcher(line);
			if (!matcher.matches()) {
				throw violation("malformed chunk-size line '" + escape(line) + "' after " + sizes.size() + " chunks");
			}
			long size = Long.parseLong(matcher.group(1), 16);
			if (size == 0) {
				break;
			}
			if (body.size() + size > MAX_BODY) {
				throw violation("chunked body larger than this client reads");
			}
			byte[] data = this.in.readNBytes((int) size);
			body.write(data);
			if (data.length < size) {
				throw new IncompleteResponseException("connection closed inside a chunk",
						withBody(head, body.toByteArray(), sizes, List.of()));
			}
			sizes.add((int) size);
			String end = readLine(() -> withBody(head, body.toByteArray(), sizes, List.of()), false);
			if (!end.isEmpty()) {
				throw violation("chunk data not followed by CRLF but by '" + escape(end) + "'");
			}
		}
		List<Field> trailers = new ArrayList<>();
		while (true) {
			String line = readLine(() -> withBody(head, body.toByteArray(), sizes, trailers), false);
			if (line.isEmpty()) {
				return withBody(head, body.toByteArray(), sizes, trailers);
			}
			trailers.add(field(line));
		}
	}

	/**
	 * Reads one CRLF-terminated line as ISO-8859-1, without its CRLF.
	 * @param partial what was read of the response so far, for the exception when the
	 * connection ends ({@code null} before the status line)
	 * @param first whether this is the status line (an end of stream before any byte is then
	 * reported as such)
	 */
	private String readLine(Supplier<RawResponse> partial, boolean first) throws IOException {
		StringBuilder line = new StringBuilder();
		while (true) {
			int b = this.in.read();
			if (b < 0) {
				String where = (first && line.length() == 0) ? "connection closed before a response"
						: "connection closed inside a line, after '" + escape(line.toString()) + "'";
				throw new IncompleteResponseException(where, partial.get());
			}
			if (b == '\n') {
				throw violation("bare LF after '" + escape(line.toString()) + "'");
			}
			if (b == '\r') {
				int next = this.in.read();
				if (next != '\n') {
					throw violation("bare CR after '" + escape(line.toString()) + "'");
				}
				return line.toString();
			}
			line.append((char) b);
			if (line.length() > MAX_LINE) {
				throw violation("line longer than " + MAX_LINE + " bytes");
			}
		}
	}

	private static RawResponse partial(String statusLine, int status, List<Field> fields) {
		return new RawResponse(statusLine, status, List.copyOf(fields), Framing.NONE, new byte[0], List.of(),
				List.of());
	}

	private static RawResponse withBody(RawResponse head, byte[] body, List<Integer> sizes, List<Field> trailers) {
		return new RawResponse(head.statusLine(), head.status(), head.headers(), head.framing(), body,
				List.copyOf(sizes), List.copyOf(trailers));
	}

	private static AssertionError violation(String what) {
		return new AssertionError("Malformed HTTP/1.1 response: " + what);
	}

	/**
	 * Makes control characters visible, for messages.
	 * @param text the text
	 * @return the text with CR, LF and other controls escaped
	 */
	static String escape(String text) {
		StringBuilder escaped = new StringBuilder();
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '\r' -> escaped.append("\\r");
				case '\n' -> escaped.append("\\n");
				case '\t' -> escaped.append("\\t");
				default -> {
					if (c < 0x20 || c == 0x7F) {
						escaped.append(String.format("\\x%02x", (int) c));
					}
					else {
						escaped.append(c);
					}
				}
			}
		}
		return escaped.toString();
	}

	private static InetAddress loopback() {
		try {
			return InetAddress.getByAddress("localhost", new byte[] { 127, 0, 0, 1 });
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The connection ended inside a response; carries what had arrived.
	 */
	public static final class IncompleteResponseException extends EOFException {

		private static final long serialVersionUID = 1L;

		private final transient RawResponse partial;

		IncompleteResponseException(String message, RawResponse partial) {
			super(message);
			this.partial = partial;
		}

		/**
		 * Returns what was read before the connection ended.
		 * @return the partial response, or {@code null} when nothing of it arrived
		 */
		public RawResponse partial() {
			return this.partial;
		}

	}

}
