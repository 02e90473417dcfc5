package dev.ariadne.servlet.websocket;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.http.HttpSession;
import jakarta.websocket.CloseReason;
import jakarta.websocket.CloseReason.CloseCodes;
import jakarta.websocket.Endpoint;
import jakarta.websocket.Extension;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.PongMessage;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpointConfig;

import dev.ariadne.server.websocket.WebSocketListener;
import dev.ariadne.server.websocket.WebSocketSession;
import dev.ariadne.websocket.WebSocketLimits;

/**
 * A Jakarta WebSocket {@link Session} on the core's own session: the session of an endpoint that
 * {@link ServletServerContainer#upgradeHttpToWebSocket} switched a request to (Spring's
 * {@code StandardWebSocketUpgradeStrategy}, which every {@code @EnableWebSocket} handler and STOMP
 * endpoint goes through). The core reads, frames, checks and writes, as it does for a route's
 * session: an idle session holds no thread and no buffer, and a message costs what it costs a
 * route (Tyrus's engine, which serves the endpoints deployed with {@code addEndpoint}, spends about
 * a fifth more of the server's time on each echoed message).
 *
 * <p>Messages go to the endpoint's handlers ({@link MessageHandlers}) one at a time, on the
 * session's worker; a handler that throws is reported to the endpoint's {@code onError} and the
 * session goes on, as Jakarta WebSocket has it. A whole message over the session's text or binary
 * limit closes the session with 1009 ({@code setMaxTextMessageBufferSize}, whose default is the
 * container's); the core refuses, from its frame header, one over the larger of the two.
 */
final class CoreJakartaSession implements Session, WebSocketListener, OpenSessions.HttpBound {

	private static final AtomicLong ids = new AtomicLong();

	private final String id = "ariadne-" + Long.toHexString(ids.incrementAndGet());

	private final Endpoint endpoint;

	private final ServerEndpointConfig config;

	private final ServletServerContainer container;

	private final URI uri;

	private final Principal principal;

	/** The HTTP session of an authenticated handshake, whose end closes this one; or {@code null}. */
	private final HttpSession httpSession;

	private final Map<String, String> pathParameters;

	private final Map<String, List<String>> parameters;

	private final Map<String, Object> properties;

	private final MessageHandlers handlers = new MessageHandlers();

	private final CoreRemote remote;

	private final int maxFrameSize;

	private final long defaultIdleMillis;

	private volatile WebSocketSession core;

	private volatile int maxText;

	private volatile int maxBinary;

	private volatile long idleMillis = -1;

	/**
	 * The close this side started (the endpoint's {@code close}, or the container's 1001, 1008 or
	 * 1009), which the endpoint's {@code onClose} is told, as Tomcat and Tyrus tell it, rather
	 * than the client's answer to it (the core reports the client's close frame); the first one.
	 */
	private final AtomicReference<CloseReason> closing = new AtomicReference<>();

	/** Pieces of messages on their way to the handlers; the delivering thread's. */
	private final IncomingPieces pieces = new IncomingPieces();

	CoreJakartaSession(Endpoint endpoint, ServerEndpointConfig config, ServletServerContainer container, URI uri,
			Principal principal, HttpSession httpSession, Map<String, String> pathParameters,
			Map<String, List<String>> parameters, int maxFrameSize, long defaultIdleMillis) {
		this.httpSession = httpSession;
		this.endpoint = endpoint;
		this.config = config;
		this.container = container;
		this.uri = uri;
		this.principal = principal;
		this.pathParameters = Map.copyOf(pathParameters);
		this.parameters = Map.copyOf(parameters);
		this.properties = new ConcurrentHashMap<>(config.getUserProperties());
		this.maxText = container.getDefaultMaxTextMessageBufferSize();
		this.maxBinary = container.getDefaultMaxBinaryMessageBufferSize();
		this.maxFrameSize = maxFrameSize;
		this.defaultIdleMillis = defaultIdleMillis;
		this.remote = new CoreRemote(this, () -> this.core);
	}

	/** What the core lets the client send: frames as the settings say, messages up to the larger limit. */
	WebSocketLimits limits() {
		return new WebSocketLimits(this.maxFrameSize, Math.max(this.maxText, this.maxBinary));
	}

	// ---- what the core tells

	@Override
	public void onOpen(WebSocketSession session) {
		this.core = session;
		this.container.opened(this);
		this.endpoint.onOpen(this, this.config);
	}

	@Override
	public boolean partialMessages() {
		return this.handlers.partial();
	}

	@Override
	public CompletionStage<?> onText(WebSocketSession session, String text) {
		MessageHandlers.Entry entry = this.handlers.text();
		if (accepted(entry) && withinLimit(text)) {
			deliver(() -> {
				if (entry.partial()) {
					entry.part(text, true);
				}
				else {
					entry.whole(MessageHandlers.text(entry, text));
				}
			});
		}
		return null;
	}

	@Override
	public CompletionStage<?> onBinary(WebSocketSession session, ByteBuffer data) {
		MessageHandlers.Entry entry = this.handlers.binary();
		if (accepted(entry) && withinLimit(data.remaining(), this.maxBinary)) {
			deliver(() -> {
				if (entry.partial()) {
					entry.part(partOf(entry, data), true);
				}
				else {
					entry.whole(MessageHandlers.binary(entry, data));
				}
			});
		}
		return null;
	}

	@Override
	public CompletionStage<?> onTextPart(WebSocketSession session, ByteBuffer utf8, boolean last) {
		MessageHandlers.Entry entry = this.handlers.text();
		if (!accepted(entry)) {
			return null;
		}
		if (!entry.partial()) {
			byte[] whole = this.pieces.gather(utf8, last);
			if (whole != null && withinLimit(whole.length, this.maxText)) {
				onText(session, new String(whole, StandardCharsets.UTF_8));
			}
			return null;
		}
		String piece;
		try {
			piece = this.pieces.decode(utf8, last);
		}
		catch (CharacterCodingException ex) {
			// the core checked the UTF-8 already: not expected
			close(CloseCodes.NOT_CONSISTENT, "Invalid UTF-8");
			return null;
		}
		deliver(() -> entry.part(piece, last));
		return null;
	}

	@Override
	public CompletionStage<?> onBinaryPart(WebSocketSession session, ByteBuffer data, boolean last) {
		MessageHandlers.Entry entry = this.handlers.binary();
		if (!accepted(entry)) {
			return null;
		}
		if (!entry.partial()) {
			byte[] whole = this.pieces.gather(data, last);
			if (whole != null && withinLimit(whole.length, this.maxBinary)) {
				onBinary(session, ByteBuffer.wrap(whole));
			}
			return null;
		}
		Object piece = partOf(entry, data);
		deliver(() -> entry.part(piece, last));
		return null;
	}

	@Override
	public void onPong(WebSocketSession session, ByteBuffer payload) {
		MessageHandlers.Entry entry = this.handlers.pong();
		if (entry != null) {
			ByteBuffer data = ByteBuffer.wrap(MessageHandlers.bytes(payload.duplicate())).asReadOnlyBuffer();
			PongMessage pong = () -> data.duplicate();
			deliver(() -> entry.whole(pong));
		}
	}

	@Override
	public void onError(WebSocketSession session, Throwable failure) {
		this.endpoint.onError(this, failure);
	}

	@Override
	public void onClose(WebSocketSession session, int code, String reason) {
		CloseReason started = this.closing.get();
		try {
			this.endpoint.onClose(this,
					(started != null) ? started : new CloseReason(CloseCodes.getCloseCode(code), reason));
		}
		finally {
			this.container.closed(this);
		}
	}

	/**
	 * Whether a handler takes the message: a message no handler takes closes the session with
	 * 1003 (a type of data it cannot accept, RFC 6455 §7.4.1), as Tomcat closes it.
	 */
	private boolean accepted(MessageHandlers.Entry entry) {
		if (entry == null) {
			close(CloseCodes.CANNOT_ACCEPT, "No handler for the message");
			return false;
		}
		return true;
	}

	private void deliver(Runnable call) {
		try {
			call.run();
		}
		catch (RuntimeException ex) {
			this.endpoint.onError(this, ex);
		}
	}

	/** A piece of binary for a partial handler: a copy, the handler's to keep, as its type. */
	private static Object partOf(MessageHandlers.Entry entry, ByteBuffer data) {
		byte[] bytes = new byte[data.remaining()];
		data.get(bytes);
		return (entry.type() == byte[].class) ? bytes : ByteBuffer.wrap(bytes);
	}

	private boolean withinLimit(String text) {
		int max = this.maxText;
		if ((long) text.length() * 3 <= max) {
			return true;
		}
		if (text.length() > max) {
			return withinLimit(max + 1L, max);
		}
		return withinLimit(StandardCharsets.UTF_8.encode(text).remaining(), max);
	}

	private boolean withinLimit(long size, int max) {
		if (size <= max) {
			return true;
		}
		close(CloseCodes.TOO_BIG, "Message too big");
		return false;
	}

	private void close(CloseCodes code, String reason) {
		WebSocketSession core = this.core;
		if (core != null) {
			closeCore(core, new CloseReason(code, reason));
		}
	}

	/** Closes the core's session, remembering the close for the endpoint's {@code onClose} unless one came first. */
	private void closeCore(WebSocketSession core, CloseReason closeReason) {
		String reason = closeReason.getReasonPhrase();
		boolean first = core.isOpen() && this.closing.compareAndSet(null, closeReason);
		try {
			core.close(closeReason.getCloseCode().getCode(), (reason != null) ? reason : "");
		}
		catch (RuntimeException ex) {
			// a code or reason no close frame may carry: nothing went out
			if (first) {
				this.closing.compareAndSet(closeReason, null);
			}
			throw ex;
		}
	}

	// ---- closing from the container

	/** The server goes away. */
	void goingAway() {
		close(CloseCodes.GOING_AWAY, "Server shutting down");
	}

	/** The HTTP session the handshake was authenticated through ended. */
	@Override
	public void httpSessionEnded() {
		close(CloseCodes.VIOLATED_POLICY, "The HTTP session ended");
	}

	// ---- Session

	@Override
	public ServletServerContainer getContainer() {
		return this.container;
	}

	@Override
	public void addMessageHandler(MessageHandler handler) {
		this.handlers.add(handler);
	}

	@Override
	public <T> void addMessageHandler(Class<T> clazz, MessageHandler.Whole<T> handler) {
		this.handlers.add(handler, clazz, false);
	}

	@Override
	public <T> void addMessageHandler(Class<T> clazz, MessageHandler.Partial<T> handler) {
		this.handlers.add(handler, clazz, true);
	}

	@Override
	public Set<MessageHandler> getMessageHandlers() {
		return this.handlers.all();
	}

	@Override
	public void removeMessageHandler(MessageHandler handler) {
		this.handlers.remove(handler);
	}

	@Override
	public String getProtocolVersion() {
		return "13";
	}

	@Override
	public String getNegotiatedSubprotocol() {
		String subprotocol = this.core.subprotocol();
		return (subprotocol != null) ? subprotocol : "";
	}

	@Override
	public List<Extension> getNegotiatedExtensions() {
		return List.of();
	}

	@Override
	public boolean isSecure() {
		return this.core.secure();
	}

	@Override
	public boolean isOpen() {
		WebSocketSession core = this.core;
		return core != null && core.isOpen();
	}

	@Override
	public long getMaxIdleTimeout() {
		long idle = this.idleMillis;
		return (idle >= 0) ? idle : this.defaultIdleMillis;
	}

	@Override
	public void setMaxIdleTimeout(long milliseconds) {
		this.idleMillis = Math.max(0, milliseconds);
		this.core.idleTimeout(Duration.ofMillis(this.idleMillis));
	}

	@Override
	public void setMaxBinaryMessageBufferSize(int length) {
		this.maxBinary = positive(length);
		this.core.limits(limits());
	}

	@Override
	public int getMaxBinaryMessageBufferSize() {
		return this.maxBinary;
	}

	@Override
	public void setMaxTextMessageBufferSize(int length) {
		this.maxText = positive(length);
		this.core.limits(limits());
	}

	@Override
	public int getMaxTextMessageBufferSize() {
		return this.maxText;
	}

	private static int positive(int length) {
		if (length < 1) {
			throw new IllegalArgumentException("A message size limit must be positive, not " + length);
		}
		return length;
	}

	@Override
	public RemoteEndpoint.Async getAsyncRemote() {
		return this.remote.async();
	}

	@Override
	public RemoteEndpoint.Basic getBasicRemote() {
		return this.remote.basic();
	}

	@Override
	public String getId() {
		return this.id;
	}

	@Override
	public void close() throws IOException {
		close(new CloseReason(CloseCodes.NORMAL_CLOSURE, ""));
	}

	@Override
	public void close(CloseReason closeReason) throws IOException {
		closeCore(this.core, closeReason);
	}

	@Override
	public URI getRequestURI() {
		return this.uri;
	}

	@Override
	public Map<String, List<String>> getRequestParameterMap() {
		return this.parameters;
	}

	@Override
	public String getQueryString() {
		return this.uri.getRawQuery();
	}

	@Override
	public Map<String, String> getPathParameters() {
		return this.pathParameters;
	}

	@Override
	public Map<String, Object> getUserProperties() {
		return this.properties;
	}

	@Override
	public Principal getUserPrincipal() {
		return this.principal;
	}

	/** The open sessions of the same endpoint: those upgraded to its path. */
	@Override
	public Set<Session> getOpenSessions() {
		return this.container.openSessions(this.config.getPath());
	}

	HttpSession httpSession() {
		return this.httpSession;
	}

	ServerEndpointConfig config() {
		return this.config;
	}

	@Override
	public String toString() {
		return "CoreJakartaSession[" + this.id + ", " + this.uri + "]";
	}

}
