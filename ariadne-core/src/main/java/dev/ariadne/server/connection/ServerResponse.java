package dev.ariadne.server.connection;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Headers;
import dev.ariadne.http.Status;
import dev.ariadne.http.TrailerFields;
import dev.ariadne.http.Version;
import dev.ariadne.server.connection.ResponseEncoder.Framing;
import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Response;
import dev.ariadne.server.WebSocketTally;

/**
 * The {@link Response} of one exchange: its status and fields, the checks of the API, and the
 * framing of its content: the length {@link #send} knows, the handler's {@code Content-Length} or
 * the protocol's own delimiting for a stream, close-delimited for an HTTP/1.0 stream without a
 * length. The protocol's {@link ResponseEncoder} writes what the framing means on its wire.
 */
final class ServerResponse implements Response {

	private final HttpExchange exchange;

	private final ResponseEncoder encoder;

	private final boolean headRequest;

	private final Version version;

	private final Headers headers = new Headers();

	private int status = 200;

	private boolean committed;

	private boolean keepAlive;

	private Framing framing;

	private long declaredLength;

	private long written;

	/** Content bytes handed to the encoder: what the access log reports as sent. */
	private long sent;

	private BodyStream stream;

	private Supplier<Headers> trailers;

	/** {@link Headers#writes()} when every field was known valid: added through {@link #header}. */
	private int validatedWrites;

	/** Whether the exchange switched protocols: the response is a 101, its content raw bytes. */
	private boolean upgraded;

	/** The one protocol the request offered, sent when the handler names none; or {@code null}. */
	private String offeredProtocol;

	/** A WebSocket session of another implementation counted on this exchange, or {@code null}. */
	private WebSocketTally webSocket;

	ServerResponse(HttpExchange exchange, ResponseEncoder encoder, boolean headRequest, Version version) {
		this.exchange = exchange;
		this.encoder = encoder;
		this.headRequest = headRequest;
		this.version = version;
		encoder.start(version);
	}
	@Override
	public Response status(int code) {
		checkNotCommitted();
		if (this.upgraded) {
			throw new IllegalStateException("The response switched protocols: its status is 101");
		}
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
		boolean valid = this.validatedWrites == this.headers.writes();
		this.headers.add(name, value);
		if (valid) {
			this.validatedWrites = this.headers.writes();
		}
		return this;
	}

	@Override
	public Response contentType(String contentType) {
		checkNotCommitted();
		Headers.validate(HeaderName.CONTENT_TYPE, contentType);
		boolean valid = this.validatedWrites == this.headers.writes();
		this.headers.set(HeaderName.CONTENT_TYPE, contentType);
		if (valid) {
			this.validatedWrites = this.headers.writes();
		}
		return this;
	}

	@Override
	public Headers headers() {
		return this.headers;
	}

	@Override
	public Response trailers(Supplier<Headers> trailers) {
		checkNotCommitted();
		if (this.version == Version.HTTP_1_0) {
			throw new IllegalStateException("An HTTP/1.0 response cannot carry trailer fields");
		}
		if (this.upgraded) {
			throw new IllegalStateException("A response that switched protocols cannot carry trailer fields");
		}
		this.trailers = trailers;
		return this;
	}

	@Override
	public void send(byte[] body) {
		checkNotCommitted();
		if (this.upgraded) {
			throw new IllegalStateException("A response that switched protocols has no body: write the new "
					+ "protocol's bytes to outputStream()");
		}
		try {
			commit(body.length, false);
			if (this.framing != Framing.NONE && body.length > 0) {
				this.encoder.content(body, 0, body.length);
				this.written = body.length;
				this.sent = body.length;
			}
			if (this.framing == Framing.DELIMITED) {
				endDelimited();
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

	@Override
	public AsyncResponse upgrade() {
		if (!this.upgraded) {
			checkNotCommitted();
		}
		return this.exchange.upgrade(this);
	}

	@Override
	public WebSocketTally countWebSocket() {
		if (this.webSocket == null) {
			this.webSocket = this.exchange.countWebSocket(this);
		}
		return this.webSocket;
	}

	/** The exchange ended: a WebSocket session counted on it, if still open, ends with it. */
	void endWebSocket() {
		if (this.webSocket != null) {
			this.webSocket.end();
		}
	}

	/**
	 * The exchange switches protocols: the response is a 101, its content the new protocol's
	 * bytes.
	 * @param offered the one protocol the request offered, or {@code null}
	 */
	void switching(String offered) {
		this.upgraded = true;
		this.status = 101;
		this.offeredProtocol = offered;
	}

	/**
	 * Commits the head now, unless it is committed: for a response whose content is written
	 * later, by another thread.
	 * @throws IOException if the connection failed
	 */
	void commitHead() throws IOException {
		if (!this.committed) {
			commit(-1, true);
		}
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
		this.trailers = null;
		this.status = status.code();
		this.committed = true;
		this.keepAlive = false;
		this.framing = Framing.NONE;
		this.encoder.answer(status, reason, retryAfterSeconds, this.headRequest);
		this.sent = Answers.contentLength(reason, this.headRequest);
	}

	/**
	 * Returns the content bytes sent so far, without the head: what the handler wrote that went
	 * on the wire (none for {@code HEAD}), or the body of the server's own answer.
	 * @return the byte count
	 */
	long bytesSent() {
		return this.sent;
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
		// free to become a 500; unless every field since came through header(), checked then
		if (this.headers.writes() != this.validatedWrites) {
			for (int i = 0; i < this.headers.size(); i++) {
				Headers.validate(this.headers.name(i), this.headers.value(i));
			}
			this.validatedWrites = this.headers.writes();
		}
		this.committed = true;
		Status status = Status.of(this.status);
		if (this.upgraded) {
			// the new protocol's bytes follow the head as they are, until the connection closes
			Upgrade.namesProtocol(this.headers, this.offeredProtocol);
			this.framing = Framing.CLOSE;
			this.keepAlive = false;
			this.encoder.head(status, this.headers, this.framing, 0, false, false);
			return;
		}
		String userLength = this.headers.get(HeaderName.CONTENT_LENGTH);
		if (status.forbidsContent()) {
			this.framing = Framing.NONE;
		}
		else if (this.trailers != null) {
			// the trailers follow the content, so the protocol delimits it (chunked, or frames)
			this.framing = Framing.DELIMITED;
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
			this.framing = (this.version != Version.HTTP_1_0) ? Framing.DELIMITED : Framing.CLOSE;
		}
		boolean userClose = this.headers.containsToken(HeaderName.CONNECTION, "close");
		this.keepAlive = !userClose && this.framing != Framing.CLOSE && this.exchange.keepAliveAfter(this);
		this.encoder.head(status, this.headers, this.framing, this.declaredLength, this.keepAlive, this.headRequest);
		if (this.headRequest) {
			this.framing = Framing.NONE;
		}
	}

	/** Ends delimited content, calling the application's trailer supplier on this thread. */
	private void endDelimited() throws IOException {
		Supplier<Headers> trailers = this.trailers;
		this.trailers = null;
		this.encoder.end((trailers != null) ? TrailerFields.sendable(trailers.get()) : null);
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

	/** The body stream: counts and checks what the handler writes, and hands it to the encoder. */
	private final class BodyStream extends OutputStream {

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
			ServerResponse response = ServerResponse.this;
			if (response.framing == Framing.LENGTH && response.written + length > response.declaredLength) {
				throw new IOException("Response body longer than its Content-Length of " + response.declaredLength);
			}
			if (response.framing != Framing.NONE) {
				response.encoder.content(bytes, offset, length);
				response.sent += length;
			}
			response.written += length;
		}

		@Override
		public void flush() throws IOException {
			if (this.ended) {
				return;
			}
			if (!ServerResponse.this.committed) {
				commit(-1, true);
			}
			ServerResponse.this.encoder.flush();
		}

		@Override
		public void close() throws IOException {
			end();
		}

		/** Ends the body; returns whether its framing is complete. */
		boolean end() throws IOException {
			ServerResponse response = ServerResponse.this;
			if (!this.ended) {
				if (!response.committed) {
					commit(-1, true);
				}
				this.ended = true;
				if (response.framing == Framing.DELIMITED) {
					response.endDelimited();
				}
			}
			return response.framing != Framing.LENGTH || response.written == response.declaredLength;
		}

	}

}
