package dev.ariadne.server.connection;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Headers;
import dev.ariadne.http.Status;
import dev.ariadne.http.Version;
import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Response;

/**
 * The {@link Response} of one exchange. Encodes the head into the connection's output when
 * committed and frames the body: {@code Content-Length} for {@link #send}, the handler's
 * {@code Content-Length} or {@code chunked} for the stream, close-delimited for an HTTP/1.0
 * stream without a length.
 */
final class ServerResponse implements Response {

	private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final int CHUNK_BUFFER = 4096;

	private enum Framing {

		/** No body may follow (HEAD, 1xx, 204, 304). */
		NONE,

		/** Content-Length. */
		LENGTH,

		/** Transfer-Encoding: chunked. */
		CHUNKED,

		/** The body ends when the connection closes (HTTP/1.0 without a length). */
		CLOSE

	}

	private final HttpExchange exchange;

	private final ConnectionOutput out;

	private final boolean headRequest;

	private final Version version;

	private final Headers headers = new Headers();

	private int status = 200;

	private boolean committed;

	private boolean keepAlive;

	private Framing framing;

	private long declaredLength;

	private long written;

	private BodyStream stream;

	ServerResponse(HttpExchange exchange, ConnectionOutput out, boolean headRequest, Version version) {
		this.exchange = exchange;
		this.out = out;
		this.headRequest = headRequest;
		this.version = version;
	}

	@Override
	public Response status(int code) {
		checkNotCommitted();
		if (code < 200 || code > 999) {
			throw new IllegalArgumentException("Status code must be between 200 and 999, was " + code);
		}
		this.status = code;
		return this;
	}

	@Override
	public int status() {
		return this.status;
	}

	@Override
	public Response header(String name, String value) {
		checkNotCommitted();
		Headers.validate(name, value);
		this.headers.add(name, value);
		return this;
	}

	@Override
	public Response contentType(String contentType) {
		checkNotCommitted();
		Headers.validate(HeaderName.CONTENT_TYPE, contentType);
		this.headers.set(HeaderName.CONTENT_TYPE, contentType);
		return this;
	}

	@Override
	public Headers headers() {
		return this.headers;
	}

	@Override
	public void send(byte[] body) {
		checkNotCommitted();
		try {
			commit(body.length, false);
			if (this.framing != Framing.NONE) {
				this.out.write(body, 0, body.length);
				this.written = body.length;
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void send(String body) {
		if (!this.headers.contains(HeaderName.CONTENT_TYPE)) {
			contentType("text/plain; charset=utf-8");
		}
		send(body.getBytes(StandardCharsets.UTF_8));
	}

	@Override
	public OutputStream outputStream() {
		if (this.stream == null) {
			if (this.committed) {
				throw new IllegalStateException("Response already sent");
			}
			this.stream = new BodyStream();
		}
		return this.stream;
	}

	@Override
	public boolean committed() {
		return this.committed;
	}

	@Override
	public AsyncResponse suspend() {
		return this.exchange.suspend(this);
	}

	boolean keepAlive() {
		return this.keepAlive;
	}

	/**
	 * Answers with what the server chose itself instead of what the handler set (an error,
	 * through the one encoder, {@link Answers}): forgets the status, headers and stream of a
	 * response not yet committed; the connection closes after it.
	 * @param status the status
	 * @param reason the body, plain text, safe to echo
	 * @param retryAfterSeconds a {@code Retry-After} value, or 0 for none
	 */
	void answer(Status status, String reason, int retryAfterSeconds) {
		checkNotCommitted();
		this.headers.clear();
		this.stream = null;
		this.status = status.code();
		this.committed = true;
		this.keepAlive = false;
		this.framing = Framing.NONE;
		Answers.write(this.out, this.exchange.context().clock(), status, reason, retryAfterSeconds, this.headRequest);
	}

	/**
	 * Ends the response: commits an empty one if nothing was sent, ends a streamed body.
	 * @return whether the response is complete on the wire (framing intact)
	 */
	boolean finish() throws IOException {
		if (!this.committed) {
			commit(0, false);
			return true;
		}
		if (this.stream != null) {
			return this.stream.end();
		}
		return true;
	}

	private void checkNotCommitted() {
		if (this.committed) {
			throw new IllegalStateException("Response already committed: status and headers can no longer change");
		}
	}

	private void commit(long length, boolean streaming) throws IOException {
		// headers() hands out the list itself, so a field may have bypassed header(): check them
		// all before anything is written, so that a bad one is refused and the response is still
		// free to become a 500
		for (int i = 0; i < this.headers.size(); i++) {
			Headers.validate(this.headers.name(i), this.headers.value(i));
		}
		this.committed = true;
		Status status = Status.of(this.status);
		String userLength = this.headers.get(HeaderName.CONTENT_LENGTH);
		if (status.forbidsContent()) {
			this.framing = Framing.NONE;
		}
		else if (!streaming) {
			this.framing = Framing.LENGTH;
			this.declaredLength = length;
		}
		else if (userLength != null && isDigits(userLength)) {
			this.framing = Framing.LENGTH;
			this.declaredLength = Long.parseLong(userLength);
		}
		else {
			this.framing = (this.version == Version.HTTP_1_1) ? Framing.CHUNKED : Framing.CLOSE;
		}
		boolean userClose = this.headers.containsToken(HeaderName.CONNECTION, "close");
		this.keepAlive = !userClose && this.framing != Framing.CLOSE && this.exchange.keepAliveAfter(this);
		writeHead(status);
		if (this.headRequest) {
			this.framing = Framing.NONE;
		}
	}

	private void writeHead(Status status) {
		ConnectionOutput out = this.out;
		out.append(StatusLines.of(status));
		out.append(this.exchange.context().clock().headerLine());
		for (int i = 0; i < this.headers.size(); i++) {
			String name = this.headers.name(i);
			if (name.equalsIgnoreCase(HeaderName.CONTENT_LENGTH) || name.equalsIgnoreCase(HeaderName.TRANSFER_ENCODING)
					|| name.equalsIgnoreCase(HeaderName.CONNECTION) || name.equalsIgnoreCase(HeaderName.DATE)) {
				continue;
			}
			out.append(name);
			out.append(": ");
			out.append(this.headers.value(i));
			out.appendCrlf();
		}
		if (this.framing == Framing.LENGTH) {
			out.append("Content-Length: ");
			out.appendDecimal(this.declaredLength);
			out.appendCrlf();
		}
		else if (this.framing == Framing.CHUNKED && !this.headRequest) {
			out.append("Transfer-Encoding: chunked\r\n");
		}
		if (!this.keepAlive) {
			out.append("Connection: close\r\n");
		}
		else if (this.version == Version.HTTP_1_0) {
			out.append("Connection: keep-alive\r\n");
		}
		out.appendCrlf();
	}

	private static boolean isDigits(String value) {
		if (value.isEmpty() || value.length() > 18) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			if (value.charAt(i) < '0' || value.charAt(i) > '9') {
				return false;
			}
		}
		return true;
	}

	/** The body stream: frames what the handler writes, as it writes it. */
	private final class BodyStream extends OutputStream {

		private byte[] chunk;

		private int chunked;

		private boolean ended;

		@Override
		public void write(int b) throws IOException {
			write(new byte[] { (byte) b }, 0, 1);
		}

		@Override
		public void write(byte[] bytes, int offset, int length) throws IOException {
			if (this.ended) {
				throw new IOException("Response body already ended");
			}
			if (!ServerResponse.this.committed) {
				commit(-1, true);
			}
			if (length == 0) {
				return;
			}
			switch (ServerResponse.this.framing) {
				case NONE -> ServerResponse.this.written += length;
				case LENGTH -> {
					if (ServerResponse.this.written + length > ServerResponse.this.declaredLength) {
						throw new IOException("Response body longer than its Content-Length of "
								+ ServerResponse.this.declaredLength);
					}
					ServerResponse.this.out.write(bytes, offset, length);
					ServerResponse.this.written += length;
				}
				case CHUNKED -> writeChunked(bytes, offset, length);
				case CLOSE -> {
					ServerResponse.this.out.write(bytes, offset, length);
					ServerResponse.this.written += length;
				}
			}
		}

		private void writeChunked(byte[] bytes, int offset, int length) throws IOException {
			if (this.chunked + length <= CHUNK_BUFFER) {
				if (this.chunk == null) {
					this.chunk = new byte[CHUNK_BUFFER];
				}
				System.arraycopy(bytes, offset, this.chunk, this.chunked, length);
				this.chunked += length;
				return;
			}
			emitChunk();
			emit(bytes, offset, length);
		}

		private void emitChunk() throws IOException {
			if (this.chunked > 0) {
				int length = this.chunked;
				this.chunked = 0;
				emit(this.chunk, 0, length);
			}
		}

		private void emit(byte[] bytes, int offset, int length) throws IOException {
			ConnectionOutput out = ServerResponse.this.out;
			out.appendHex(length);
			out.appendCrlf();
			out.write(bytes, offset, length);
			out.appendCrlf();
			ServerResponse.this.written += length;
		}

		@Override
		public void flush() throws IOException {
			if (this.ended) {
				return;
			}
			if (!ServerResponse.this.committed) {
				commit(-1, true);
			}
			if (ServerResponse.this.framing == Framing.CHUNKED) {
				emitChunk();
			}
			ServerResponse.this.out.flush();
		}

		@Override
		public void close() throws IOException {
			end();
		}

		/** Ends the body; returns whether its framing is complete. */
		boolean end() throws IOException {
			if (this.ended) {
				return ServerResponse.this.framing != Framing.LENGTH
						|| ServerResponse.this.written == ServerResponse.this.declaredLength;
			}
			if (!ServerResponse.this.committed) {
				commit(-1, true);
			}
			this.ended = true;
			switch (ServerResponse.this.framing) {
				case CHUNKED -> {
					emitChunk();
					ServerResponse.this.out.append(LAST_CHUNK);
					return true;
				}
				case LENGTH -> {
					return ServerResponse.this.written == ServerResponse.this.declaredLength;
				}
				default -> {
					return true;
				}
			}
		}

	}

}
