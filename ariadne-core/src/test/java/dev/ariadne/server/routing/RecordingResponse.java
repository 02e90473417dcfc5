package dev.ariadne.server.routing;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Headers;
import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Response;
import dev.ariadne.server.WebSocketTally;

/**
 * A response that keeps what a handler set and sent, for assertions. Only {@link #send} commits;
 * streaming is not supported.
 */
final class RecordingResponse implements Response {

	private final Headers headers = new Headers();

	private int status = 200;

	private String body;

	@Override
	public Response status(int code) {
		checkNotCommitted();
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
		this.body = new String(body, StandardCharsets.UTF_8);
	}

	@Override
	public void send(String body) {
		send(body.getBytes(StandardCharsets.UTF_8));
	}

	@Override
	public Response trailers(Supplier<Headers> trailers) {
		throw new UnsupportedOperationException("trailers");
	}

	@Override
	public OutputStream outputStream() {
		throw new UnsupportedOperationException("outputStream");
	}

	@Override
	public boolean committed() {
		return this.body != null;
	}

	@Override
	public AsyncResponse suspend() {
		throw new UnsupportedOperationException("suspend");
	}

	@Override
	public AsyncResponse upgrade() {
		throw new UnsupportedOperationException("upgrade");
	}

	@Override
	public WebSocketTally countWebSocket() {
		throw new UnsupportedOperationException("countWebSocket");
	}

	/** The body sent, or {@code null} when nothing was sent. */
	String body() {
		return this.body;
	}

	private void checkNotCommitted() {
		if (committed()) {
			throw new IllegalStateException("Response already committed");
		}
	}

}
