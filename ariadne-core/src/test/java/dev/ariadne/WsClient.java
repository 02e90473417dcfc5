package dev.ariadne;

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
 * A WebSocket client for the socket tests: the JDK's {@code java.net.http.WebSocket}, whose
 * messages, pongs and close arrive in a queue as strings ({@code text:...}, {@code binary:<n>},
 * {@code pong:...}, {@code close:<code>:<reason>}, {@code error:...}).
 */
final class WsClient implements AutoCloseable {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	final BlockingQueue<String> events = new LinkedBlockingQueue<>();

	final CompletableFuture<Integer> closed = new CompletableFuture<>();

	final WebSocket socket;

	private final StringBuilder text = new StringBuilder();

	private long binary;

	private WsClient(URI uri, String... subprotocols) throws Exception {
		this(HTTP, uri, subprotocols);
	}

	private WsClient(HttpClient http, URI uri, String... subprotocols) throws Exception {
		WebSocket.Builder builder = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
		if (subprotocols.length > 0) {
			builder.subprotocols(subprotocols[0], java.util.Arrays.copyOfRange(subprotocols, 1, subprotocols.length));
		}
		this.socket = builder.buildAsync(uri, new Listener()).get(10, TimeUnit.SECONDS);
	}

	static WsClient connect(AriadneServer server, String path, String... subprotocols) throws Exception {
		return new WsClient(uri(server, path), subprotocols);
	}

	/** Connects over TLS ({@code wss}), trusting the test CA. */
	static WsClient connectSecure(AriadneServer server, String path) throws Exception {
		HttpClient http = HttpClient.newBuilder()
			.connectTimeout(Duration.ofSeconds(5))
			.sslContext(TestCertificates.get().clientContext())
			.build();
		return new WsClient(http, URI.create("wss://localhost:" + server.port() + path));
	}

	static URI uri(AriadneServer server, String path) {
		return URI.create("ws://127.0.0.1:" + server.port() + path);
	}

	/** The next event, or fails after the deadline. */
	String next() throws InterruptedException {
		String event = this.events.poll(10, TimeUnit.SECONDS);
		if (event == null) {
			throw new AssertionError("No WebSocket event within 10 s");
		}
		return event;
	}

	String sendAndReceive(String message) throws Exception {
		this.socket.sendText(message, true).get(10, TimeUnit.SECONDS);
		return next();
	}

	@Override
	public void close() {
		this.socket.abort();
	}

	private final class Listener implements WebSocket.Listener {

		@Override
		public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
			WsClient.this.text.append(data);
			if (last) {
				WsClient.this.events.add("text:" + WsClient.this.text);
				WsClient.this.text.setLength(0);
			}
			webSocket.request(1);
			return null;
		}

		@Override
		public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
			WsClient.this.binary += data.remaining();
			if (last) {
				WsClient.this.events.add("binary:" + WsClient.this.binary);
				WsClient.this.binary = 0;
			}
			webSocket.request(1);
			return null;
		}

		@Override
		public CompletionStage<?> onPong(WebSocket webSocket, ByteBuffer message) {
			byte[] bytes = new byte[message.remaining()];
			message.get(bytes);
			WsClient.this.events.add("pong:" + new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
			webSocket.request(1);
			return null;
		}

		@Override
		public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
			WsClient.this.events.add("close:" + statusCode + ":" + reason);
			WsClient.this.closed.complete(statusCode);
			return null;
		}

		@Override
		public void onError(WebSocket webSocket, Throwable error) {
			WsClient.this.events.add("error:" + error);
			WsClient.this.closed.complete(1006);
		}

	}

}
