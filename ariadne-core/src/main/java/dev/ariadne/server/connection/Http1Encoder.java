package dev.ariadne.server.connection;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Headers;
import dev.ariadne.http.Status;
import dev.ariadne.http.Version;
import dev.ariadne.server.internal.DateClock;

/**
 * HTTP/1.1's {@link ResponseEncoder}: a status line and fields as text into the connection's
 * output, {@code Content-Length} or {@code Transfer-Encoding: chunked} (small writes gathered
 * into one chunk, trailers after the last), {@code Connection: close} when the connection ends after the response, and
 * the server's answers ({@link Answers}). A {@code 101} switches protocols: {@code Connection:
 * Upgrade}, and the new protocol's bytes after it as they are. One per connection, reused by its
 * responses.
 */
final class Http1Encoder implements ResponseEncoder {

	private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final int CHUNK_BUFFER = 4096;

	private static final Status SWITCHING_PROTOCOLS = Status.of(101);

	private final ConnectionOutput out;

	private final DateClock clock;

	private Version version;

	private boolean chunked;

	private byte[] chunk;

	private int gathered;

	/** Whether a 101 was sent: what follows is the new protocol's, written as it comes. */
	private boolean switched;

	Http1Encoder(ConnectionOutput out, DateClock clock) {
		this.out = out;
		this.clock = clock;
	}

	@Override
	public void start(Version version) {
		this.version = version;
		this.chunked = false;
		this.chunk = null;
		this.gathered = 0;
		this.switched = false;
	}

	@Override
	public void head(Status status, Headers headers, Framing framing, long length, boolean keepAlive,
			boolean headRequest) {
		if (status.code() == SWITCHING_PROTOCOLS.code()) {
			switching(headers);
			return;
		}
		ConnectionOutput out = this.out;
		out.append(StatusLines.of(status));
		out.append(this.clock.headerLine());
		fields(headers);
		if (framing == Framing.LENGTH) {
			out.append("Content-Length: ");
			out.appendDecimal(length);
			out.appendCrlf();
		}
		else if (framing == Framing.DELIMITED && !headRequest) {
			out.append("Transfer-Encoding: chunked\r\n");
			this.chunked = true;
		}
		if (!keepAlive) {
			out.append("Connection: close\r\n");
		}
		else if (this.version == Version.HTTP_1_0) {
			out.append("Connection: keep-alive\r\n");
		}
		out.appendCrlf();
	}

	/**
	 * Writes a 101: the handler's fields (the new protocol's), without framing, and
	 * {@code Connection: Upgrade}, which RFC 9110 §7.8 asks for with {@code Upgrade}.
	 */
	private void switching(Headers headers) {
		ConnectionOutput out = this.out;
		out.append(StatusLines.of(SWITCHING_PROTOCOLS));
		out.append(this.clock.headerLine());
		fields(headers);
		out.append("Connection: Upgrade\r\n\r\n");
		this.switched = true;
	}

	/** Writes the handler's fields but those the server writes itself (framing, connection, date). */
	private void fields(Headers headers) {
		ConnectionOutput out = this.out;
		for (int i = 0; i < headers.size(); i++) {
			String name = headers.name(i);
			if (name.equalsIgnoreCase(HeaderName.CONTENT_LENGTH) || name.equalsIgnoreCase(HeaderName.TRANSFER_ENCODING)
					|| name.equalsIgnoreCase(HeaderName.CONNECTION) || name.equalsIgnoreCase(HeaderName.DATE)) {
				continue;
			}
			out.append(name);
			out.append(": ");
			out.append(headers.value(i));
			out.appendCrlf();
		}
	}

	@Override
	public void content(byte[] bytes, int offset, int length) throws IOException {
		if (!this.chunked) {
			this.out.write(bytes, offset, length);
			return;
		}
		if (this.gathered + length <= CHUNK_BUFFER) {
			if (this.chunk == null) {
				this.chunk = new byte[CHUNK_BUFFER];
			}
			System.arraycopy(bytes, offset, this.chunk, this.gathered, length);
			this.gathered += length;
			return;
		}
		emitGathered();
		emit(bytes, offset, length);
	}

	private void emitGathered() throws IOException {
		if (this.gathered > 0) {
			int length = this.gathered;
			this.gathered = 0;
			emit(this.chunk, 0, length);
		}
	}

	private void emit(byte[] bytes, int offset, int length) throws IOException {
		ConnectionOutput out = this.out;
		out.appendHex(length);
		out.appendCrlf();
		out.write(bytes, offset, length);
		out.appendCrlf();
	}

	@Override
	public void flush() throws IOException {
		if (this.chunked) {
			emitGathered();
		}
		this.out.flush();
		if (this.switched) {
			// the new protocol may be idle long: the output holds no buffer meanwhile
			this.out.release();
		}
	}

	@Override
	public void end(Headers trailers) throws IOException {
		if (this.chunked) {
			emitGathered();
			if (trailers == null || trailers.isEmpty()) {
				this.out.append(LAST_CHUNK);
			}
			else {
				ConnectionOutput out = this.out;
				out.append("0\r\n");
				for (int i = 0; i < trailers.size(); i++) {
					out.append(trailers.name(i));
					out.append(": ");
					out.append(trailers.value(i));
					out.appendCrlf();
				}
				out.appendCrlf();
			}
			this.chunked = false;
		}
	}

	@Override
	public void answer(Status status, String reason, int retryAfterSeconds, boolean headRequest) {
		Answers.write(this.out, this.clock, status, reason, retryAfterSeconds, headRequest);
	}

}
