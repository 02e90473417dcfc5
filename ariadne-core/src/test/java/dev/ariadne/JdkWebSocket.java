package dev.ariadne;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A WebSocket client on the JDK's {@code java.net.http.WebSocket}, whose messages (whole,
 * however the server fragments them), close and failure the test takes with a deadline.
 */
public final class JdkWebSocket implements WebSocket.Listener, AutoCloseable {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final BlockingQueue<Object> messages = new LinkedBlockingQueue<>();

	private final CompletableFuture<Integer> closed = new CompletableFuture<>();

	private volatile String closeReason;

	private final StringBuilder text = new StringBuilder();

	private ByteBuffer binary = ByteBuffer.allocate(0);

	private WebSocket socket;

	private JdkWebSocket() {
	}

	/**
	 * Opens a WebSocket.
	 * @param uri where
	 * @return the open client
	 */
	public static JdkWebSocket open(URI uri) throws Exception {
		return open(HttpClient.newHttpClient(), uri, Map.of());
	}

	/**
	 * Opens a WebSocket with a client of the caller's (TLS) and fields of its own.
	 * @param http the HTTP client
	 * @param uri where
	 * @param fields fields of the handshake request
	 * @return the open client
	 */
	public static JdkWebSocket open(HttpClient http, URI uri, Map<String, String> fields) throws Exception {
		JdkWebSocket client = new JdkWebSocket();
		WebSocket.Builder builder = http.newWebSocketBuilder().connectTimeout(TIMEOUT);
		fields.forEach(builder::header);
		client.socket = builder.buildAsync(uri, client).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		return client;
	}

	/**
	 * Tries a handshake the server is expected to refuse.
	 * @param uri where
	 * @return the status of the refusal
	 * @throws AssertionError if the handshake succeeded or failed otherwise
	 */
	public static int refusal(URI uri) throws Exception {
		JdkWebSocket opened;
		try {
			opened = open(uri);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof WebSocketHandshakeException refused) {
				return refused.getResponse().statusCode();
			}
			throw ex;
		}
		opened.close();
		throw new AssertionError("The handshake to " + uri + " succeeded");
	}

	public WebSocket socket() {
		return this.socket;
	}

	public JdkWebSocket send(String message) throws Exception {
		this.socket.sendText(message, true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		return this;
	}

	public JdkWebSocket send(ByteBuffer message) throws Exception {
		this.socket.sendBinary(message, true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		return this;
	}

	/** Takes the next whole message: a {@code String} or a {@code ByteBuffer}. */
	public Object next() throws InterruptedException {
		Object message = this.messages.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		if (message == null) {
			throw new AssertionError("No message within " + TIMEOUT + "; closed: " + this.closed);
		}
		return message;
	}

	public String nextText() throws InterruptedException {
		return (String) next();
	}

	/** Returns whether the server's close frame (or a failure) has arrived. */
	public boolean closedYet() {
		return this.closed.isDone();
	}

	/** Waits for the server's close frame and returns its code (-1: the connection failed). */
	public int closeCode() throws Exception {
		return this.closed.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
	}

	/** The reason of the server's close frame, once {@link #closeCode()} returned. */
	public String closeReason() {
		return this.closeReason;
	}

	@Override
	public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
		this.text.append(data);
		if (last) {
			this.messages.add(this.text.toString());
			this.text.setLength(0);
		}
		webSocket.request(1);
		return null;
	}

	@Override
	public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
		ByteBuffer joined = ByteBuffer.allocate(this.binary.remaining() + data.remaining());
		joined.put(this.binary).put(data).flip();
		this.binary = joined;
		if (last) {
			this.messages.add(this.binary);
			this.binary = ByteBuffer.allocate(0);
		}
		webSocket.request(1);
		return null;
	}

	@Override
	public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
		this.messages.add("closed: " + statusCode + " " + reason);
		this.closeReason = reason;
		this.closed.complete(statusCode);
		return null;
	}

	@Override
	public void onError(WebSocket webSocket, Throwable error) {
		this.messages.add(error);
		this.closed.complete(-1);
	}

	/** Closes as a well-behaved client does: a close frame, the server's answer, then the connection. */
	@Override
	public void close() {
		try {
			if (!this.socket.isOutputClosed()) {
				this.socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
			}
			this.closed.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			// the connection is gone already
		}
		finally {
			this.socket.abort();
		}
	}

}
