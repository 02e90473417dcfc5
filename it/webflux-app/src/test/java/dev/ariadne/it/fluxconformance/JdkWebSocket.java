package dev.ariadne.it.fluxconformance;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@link WebSocket} as a test drives it: whole messages queued as they arrive (text as
 * {@code String}, binary as {@code byte[]}), and the close frame's status and reason.
 */
final class JdkWebSocket implements AutoCloseable {

	static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

	/** A close frame as the client got it. */
	record Close(int code, String reason) {
	}

	final WebSocket socket;

	private final Listener listener;

	private JdkWebSocket(WebSocket socket, Listener listener) {
		this.socket = socket;
		this.listener = listener;
	}

	/**
	 * Opens a session.
	 * @param port the server's port
	 * @param path the path and query
	 * @param subprotocols the subprotocols to offer, possibly none
	 * @param headers header names and values, alternating
	 * @return the open session
	 */
	static JdkWebSocket open(int port, String path, String[] subprotocols, String... headers) throws Exception {
		Listener listener = new Listener();
		WebSocket.Builder builder = CLIENT.newWebSocketBuilder().connectTimeout(TIMEOUT);
		for (int i = 0; i < headers.length; i += 2) {
			builder.header(headers[i], headers[i + 1]);
		}
		if (subprotocols.length > 0) {
			String[] more = new String[subprotocols.length - 1];
			System.arraycopy(subprotocols, 1, more, 0, more.length);
			builder.subprotocols(subprotocols[0], more);
		}
		WebSocket socket = builder.buildAsync(URI.create("ws://127.0.0.1:" + port + path), listener)
			.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		return new JdkWebSocket(socket, listener);
	}

	static JdkWebSocket open(int port, String path) throws Exception {
		return open(port, path, new String[0]);
	}

	/** The next whole message, {@code String} or {@code byte[]}. */
	Object next() throws InterruptedException {
		Object message = this.listener.messages.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		if (message == null) {
			throw new AssertionError("No message within " + TIMEOUT + "; closed: " + this.listener.closed.getNow(null));
		}
		return message;
	}

	/** The server's close frame, or a close status of 1006 when the connection ended without one. */
	Close closed() throws Exception {
		return this.listener.closed.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
	}

	@Override
	public void close() {
		this.socket.abort();
	}

	private static final class Listener implements WebSocket.Listener {

		private final BlockingQueue<Object> messages = new LinkedBlockingQueue<>();

		private final CompletableFuture<Close> closed = new CompletableFuture<>();

		private StringBuilder text = new StringBuilder();

		private ByteArrayOutputStream binary = new ByteArrayOutputStream();

		@Override
		public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
			this.text.append(data);
			if (last) {
				this.messages.add(this.text.toString());
				this.text = new StringBuilder();
			}
			socket.request(1);
			return null;
		}

		@Override
		public CompletionStage<?> onBinary(WebSocket socket, ByteBuffer data, boolean last) {
			byte[] bytes = new byte[data.remaining()];
			data.get(bytes);
			this.binary.writeBytes(bytes);
			if (last) {
				this.messages.add(this.binary.toByteArray());
				this.binary = new ByteArrayOutputStream();
			}
			socket.request(1);
			return null;
		}

		@Override
		public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
			this.closed.complete(new Close(statusCode, reason));
			return null;
		}

		@Override
		public void onError(WebSocket socket, Throwable error) {
			this.closed.complete(new Close(1006, String.valueOf(error)));
		}

	}

}
