package dev.ariadne.autoconfigure.web;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;
import dev.ariadne.server.websocket.WebSocketHandler;
import dev.ariadne.server.websocket.WebSocketListener;
import dev.ariadne.server.websocket.WebSocketSessions;
import dev.ariadne.servlet.GzipCompressionFilter;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.AbstractServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

/**
 * A WebFlux {@code ServerHttpResponse} on Ariadne's exchange. Status, headers and cookies go to
 * the core's {@link Response} when WebFlux commits; the body goes to its stream with writes that
 * never wait ({@link AsyncResponse#onWritable}): one {@link DataBuffer} is asked for at a time,
 * and the next only while the client keeps up ({@link AsyncResponse#writable()}), else once the
 * queue has drained. No thread waits for a slow client, whichever thread the body's publisher
 * emits on.
 *
 * <p>A WebSocket handshake ({@link #switchToWebSocket}) hands the exchange to the core's
 * {@link WebSocketHandler}, which answers it itself: from then on what WebFlux commits or writes
 * is ignored.
 */
final class ExchangeServerHttpResponse extends AbstractServerHttpResponse {

	private final Request request;

	private final Response response;

	private final AsyncResponse exchange;

	private final ReactiveHandlerAdapter.Settings settings;

	/** Whether reading the request body failed on its framing, when WebFlux commits. */
	private final BooleanSupplier framingLost;

	/** The writer waiting for the client to take what is queued, if any. */
	private final AtomicReference<BodyWriter> waiting = new AtomicReference<>();

	private OutputStream body;

	/** Whether the body is to be compressed, decided when WebFlux commits. */
	private boolean compress;

	private GZIPOutputStream gzip;

	/** The sessions of the listener, for a WebSocket handshake; {@code null} when not known. */
	private final Supplier<WebSocketSessions> webSockets;

	/** Whether the core's WebSocket handler answered the request, rather than WebFlux. */
	private volatile boolean handedOver;

	ExchangeServerHttpResponse(Request request, Response response, AsyncResponse exchange,
			ReactiveHandlerAdapter.Settings settings, BooleanSupplier framingLost, Supplier<WebSocketSessions> webSockets) {
		super(DefaultDataBufferFactory.sharedInstance, new HttpHeaders());
		this.request = request;
		this.response = response;
		this.exchange = exchange;
		this.settings = settings;
		this.framingLost = framingLost;
		this.webSockets = webSockets;
	}

	/**
	 * Returns the response of Ariadne's native adapter under WebFlux's decorators.
	 * @param response a response as WebFlux hands it to a handler
	 * @return the adapter's response, or {@code null} when the request came another way (another
	 * server, the servlet adapter)
	 */
	static ExchangeServerHttpResponse unwrap(ServerHttpResponse response) {
		ServerHttpResponse current = response;
		while (current instanceof ServerHttpResponseDecorator decorator) {
			current = decorator.getDelegate();
		}
		return (current instanceof ExchangeServerHttpResponse exchange) ? exchange : null;
	}

	/**
	 * Answers a WebSocket handshake with the core's {@link WebSocketHandler}, on the thread that
	 * runs the adapter's handler (the core switches protocols only while it runs): the checks,
	 * the limit of {@code websocket.max-sessions} (503), permessage-deflate and the {@code 101},
	 * then a session among the listener's, under its {@code websocket.*} settings and meters.
	 * @param listener the session's listener
	 * @param subprotocol the subprotocol WebFlux agreed to, or {@code null}
	 * @throws Exception what the core's handler threw; the response is then WebFlux's again if
	 * nothing was sent
	 */
	void switchToWebSocket(WebSocketListener listener, String subprotocol) throws Exception {
		WebSocketHandler handler = WebSocketHandler.of((request) -> listener);
		if (subprotocol != null) {
			handler = handler.subprotocols(subprotocol);
		}
		WebSocketSessions sessions = (this.webSockets != null) ? this.webSockets.get() : null;
		if (sessions != null) {
			handler = handler.bind(sessions);
		}
		this.handedOver = true;
		try {
			handler.handle(this.request, this.response);
		}
		catch (Exception | Error ex) {
			this.handedOver = this.response.committed();
			throw ex;
		}
	}

	/**
	 * Returns whether the exchange switched to WebSocket: its end is the session's, not WebFlux's.
	 * @return whether a {@code 101} was answered
	 */
	boolean upgraded() {
		return this.handedOver && this.response.status() == 101;
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T> T getNativeResponse() {
		return (T) this.response;
	}

	/**
	 * Returns the status WebFlux set, or else the core response's (200 unless a handler or the
	 * server set another): what Spring's request observation tags {@code status} and
	 * {@code outcome} with, as on Reactor Netty and the servlet adapter, rather than
	 * {@code UNKNOWN} for every response whose handler left the default.
	 * @return the status
	 */
	@Override
	public HttpStatusCode getStatusCode() {
		HttpStatusCode status = super.getStatusCode();
		return (status != null) ? status : HttpStatusCode.valueOf(this.response.status());
	}

	@Override
	protected void applyStatusCode() {
		if (this.handedOver) {
			return;
		}
		HttpStatusCode status = getStatusCode();
		if (status != null) {
			this.response.status(status.value());
		}
	}

	@Override
	protected void applyHeaders() {
		if (this.handedOver) {
			return;
		}
		HttpHeaders headers = getHeaders();
		String server = this.settings.serverHeader();
		if (server != null && !headers.containsHeader(HttpHeaders.SERVER)) {
			this.response.header(HttpHeaders.SERVER, server);
		}
		GzipCompressionFilter compression = this.settings.compression();
		if (compression != null && compression.compresses(this.request.header(HttpHeaders.ACCEPT_ENCODING),
				this.request.header(HttpHeaders.USER_AGENT), this.response.status(),
				headers.getFirst(HttpHeaders.CONTENT_TYPE), headers.getFirst(HttpHeaders.CONTENT_ENCODING),
				headers.getContentLength())) {
			headers.remove(HttpHeaders.CONTENT_LENGTH);
			headers.set(HttpHeaders.CONTENT_ENCODING, "gzip");
			headers.add(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
			this.compress = true;
		}
		headers.forEach(this::copyHeader);
		if (this.framingLost.getAsBoolean() && !headers.getConnection().contains("close")) {
			// the rest of the body cannot be found: the connection carries no other request
			this.response.header(HttpHeaders.CONNECTION, "close");
		}
	}

	private void copyHeader(String name, List<String> values) {
		for (String value : values) {
			this.response.header(name, value);
		}
	}

	@Override
	protected void applyCookies() {
		if (this.handedOver) {
			return;
		}
		for (List<ResponseCookie> cookies : getCookies().values()) {
			for (ResponseCookie cookie : cookies) {
				this.response.header(HttpHeaders.SET_COOKIE, cookie.toString());
			}
		}
	}

	@Override
	protected Mono<Void> writeWithInternal(Publisher<? extends DataBuffer> body) {
		if (this.handedOver) {
			return Flux.from(body).doOnNext(DataBufferUtils::release).then();
		}
		return Mono.create((sink) -> body.subscribe(new BodyWriter(sink)));
	}

	@Override
	protected Mono<Void> writeAndFlushWithInternal(Publisher<? extends Publisher<? extends DataBuffer>> body) {
		return Flux.from(body).concatMap((each) -> writeWithInternal(each).then(Mono.fromCallable(() -> {
			body().flush();
			return null;
		}))).then();
	}

	/**
	 * Ends the body: commits a response that wrote no body but declared a length (the answer to
	 * a {@code HEAD}) or is compressed through the stream, so that its head says what a
	 * {@code GET} would get, and finishes the compression, if any.
	 * @throws IOException if the connection failed
	 */
	void finish() throws IOException {
		if (this.handedOver) {
			return;
		}
		if (this.body == null && !this.response.committed()
				&& (this.compress || this.response.headers().get(HttpHeaders.CONTENT_LENGTH) != null)) {
			body().flush();
		}
		if (this.gzip != null) {
			this.gzip.finish();
		}
	}

	/** The body's stream, created on the first write: never waiting, compressed if so decided. */
	private OutputStream body() throws IOException {
		if (this.body == null) {
			this.exchange.onWritable(this::writePossible);
			OutputStream stream = this.response.outputStream();
			if (this.compress) {
				this.gzip = new GZIPOutputStream(stream, 8192, true);
				stream = this.gzip;
			}
			this.body = stream;
		}
		return this.body;
	}

	private void writePossible() {
		BodyWriter writer = this.waiting.getAndSet(null);
		if (writer != null) {
			writer.next();
		}
	}

	private void write(DataBuffer buffer) throws IOException {
		OutputStream out = body();
		try (DataBuffer.ByteBufferIterator buffers = buffer.readableByteBuffers()) {
			while (buffers.hasNext()) {
				ByteBuffer bytes = buffers.next();
				if (bytes.hasArray()) {
					out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
				}
				else {
					byte[] copy = new byte[bytes.remaining()];
					bytes.get(copy);
					out.write(copy);
				}
			}
		}
	}

	/** Writes one body publisher, a buffer at a time, asking for the next while the client keeps up. */
	private final class BodyWriter extends OneAtATime<DataBuffer> {

		BodyWriter(MonoSink<Void> sink) {
			super(sink);
		}

		@Override
		public void onNext(DataBuffer buffer) {
			try {
				write(buffer);
			}
			catch (IOException | RuntimeException ex) {
				cancelUpstream();
				this.sink.error(ex);
				return;
			}
			finally {
				DataBufferUtils.release(buffer);
			}
			ExchangeServerHttpResponse.this.waiting.set(this);
			if (ExchangeServerHttpResponse.this.exchange.writable()
					&& ExchangeServerHttpResponse.this.waiting.compareAndSet(this, null)) {
				next();
			}
		}

		@Override
		public void onError(Throwable failure) {
			this.sink.error(failure);
		}

		@Override
		public void onComplete() {
			this.sink.success();
		}

	}

}
