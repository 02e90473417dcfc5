package dev.ariadne.server.websocket;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.ariadne.http.Headers;
import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Request;
import dev.ariadne.websocket.CloseCode;
import dev.ariadne.websocket.FrameWriter;
import dev.ariadne.websocket.Opcode;
import dev.ariadne.websocket.PerMessageDeflate;
import dev.ariadne.websocket.WebSocketException;
import dev.ariadne.websocket.WebSocketLimits;

/**
 * A session on an upgraded exchange, as the application and the timer see it: its one end (the
 * connection closed after what was written, the listener told once), the closing handshake's
 * deadline, the idle timeout and the keep-alive pings. Its {@link SessionOutput} writes, its
 * {@link SessionReader} reads.
 */
final class Session implements WebSocketSession {

	private final WebSocketSessions sessions;

	private final AsyncResponse exchange;

	private final WebSocketListener listener;

	private final String subprotocol;

	private final PerMessageDeflate deflate;

	private final String path;

	private final String query;

	private final Headers headers;

	private final InetSocketAddress remote;

	private final boolean secure;

	private final SessionReader reader;

	private final AtomicBoolean ended = new AtomicBoolean();

	private volatile Map<String, Object> attributes;

	/** What the client may send, from its next message on. */
	private volatile WebSocketLimits limits;

	/** This session's idle timeout, -1 for the server's {@code websocket.idle-timeout}. */
	private volatile long idleNanos = -1;

	/** When a frame last went either way (the server's own pings aside). */
	private volatile long lastActivity = System.nanoTime();

	private volatile long lastPing;

	/** When a closing handshake the server began gives up on the client; 0 while none began. */
	private volatile long closeDeadline;

	/** Whether a task the timer handed the pool has not run yet. */
	private volatile boolean outsideTaskPending;

	private final SessionOutput output;

	Session(WebSocketSessions sessions, Request request, AsyncResponse exchange, OutputStream out,
			WebSocketListener listener, String subprotocol, PerMessageDeflate deflate, WebSocketLimits limits) {
		this.sessions = sessions;
		this.limits = limits;
		this.exchange = exchange;
		this.listener = listener;
		this.subprotocol = subprotocol;
		this.deflate = deflate;
		this.path = request.path();
		this.query = request.query();
		// the exchange keeps its request, and with it these fields, for as long as the session lasts
		this.headers = request.headers();
		this.remote = request.remoteAddress();
		this.secure = request.secure();
		this.output = new SessionOutput(exchange, out, deflate, () -> {
			sessions.sent();
			active();
		});
		this.reader = new SessionReader(this, exchange, listener, sessions, deflate);
	}

	private static Headers copy(Headers headers) {
		Headers copy = new Headers();
		for (int i = 0; i < headers.size(); i++) {
			copy.add(headers.name(i), headers.value(i));
		}
		return copy;
	}

	/** Opens the session on the thread that ran the handshake, once the 101 is out. */
	void start() {
		this.exchange.onWritable(this.output::writableAgain);
		this.exchange.onClose(() -> end(CloseCode.ABNORMAL, "", null));
		this.sessions.opened(this);
		try {
			this.listener.onOpen(this);
		}
		catch (RuntimeException ex) {
			failed(new WebSocketException(CloseCode.INTERNAL_ERROR, "Internal error"), ex);
			return;
		}
		this.reader.start();
	}

	// ---- sending

	@Override
	public CompletionStage<Void> sendText(CharSequence text) {
		return sendText(text, true);
	}

	@Override
	public CompletionStage<Void> sendBinary(ByteBuffer data) {
		return sendBinary(data, true);
	}

	@Override
	public CompletionStage<Void> sendText(CharSequence text, boolean last) {
		byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
		return send(Opcode.TEXT, ByteBuffer.wrap(bytes), last);
	}

	@Override
	public CompletionStage<Void> sendText(ByteBuffer utf8, boolean last) {
		return send(Opcode.TEXT, utf8, last);
	}

	@Override
	public CompletionStage<Void> sendBinary(ByteBuffer data, boolean last) {
		return send(Opcode.BINARY, data, last);
	}

	private CompletionStage<Void> send(int type, ByteBuffer data, boolean last) {
		return this.output.send(type, data, last);
	}

	@Override
	public CompletionStage<Void> sendPing(ByteBuffer payload) {
		return this.output.sendControl(Opcode.PING, payload);
	}

	@Override
	public CompletionStage<Void> sendPong(ByteBuffer payload) {
		return this.output.sendControl(Opcode.PONG, payload);
	}

	/** Answers a client's ping; the reader's thread. */
	void answerPing(ByteBuffer payload) {
		this.output.answerPing(payload);
	}

	// ---- closing

	@Override
	public CompletionStage<Void> close(int code, String reason) {
		FrameWriter.closeLength(code, reason);
		if (this.ended.get()) {
			return SessionOutput.DONE;
		}
		this.closeDeadline = System.nanoTime() + WebSocketSessions.CLOSE_TIMEOUT_NANOS;
		if (this.output.close(code, reason) == SessionOutput.Closing.COMPLETE) {
			end(code, reason, null);
		}
		return SessionOutput.DONE;
	}

	/** The client's close frame arrived: answered with its code and reason, then the session ends; the reader's thread. */
	void closeReceived(int code, String reason) {
		this.output.closeReceived(code, reason);
		end(code, reason, null);
	}

	/** The client broke the protocol, or the listener failed: the session closes with the error's code. */
	void failed(WebSocketException error, Throwable cause) {
		this.output.fail(error.closeCode(), error.reason());
		end(error.closeCode(), error.reason(), (cause != null) ? cause : error);
	}

	/** The connection failed or the client closed it without a close frame. */
	void lost(IOException failure) {
		end(CloseCode.ABNORMAL, "", failure);
	}

	@Override
	public void abort() {
		this.exchange.abort(new IOException("WebSocket session aborted"));
		end(CloseCode.ABNORMAL, "", null);
	}

	/** Ends the session once: the connection closes after what was written, and the listener is told. */
	private void end(int code, String reason, Throwable failure) {
		if (!this.ended.compareAndSet(false, true)) {
			return;
		}
		CompletableFuture<Void> waiting = this.output.shut();
		this.sessions.ended(this);
		if (waiting != null) {
			waiting.completeExceptionally(new IOException("The WebSocket session closed"));
		}
		if (failure != null) {
			try {
				this.listener.onError(this, failure);
			}
			catch (RuntimeException ex) {
				// told once; the session ends anyway
			}
		}
		this.listener.onClose(this, code, reason);
	}

	boolean ended() {
		return this.ended.get();
	}

	/** Whether the server's close frame went out, or the session is over. */
	boolean closing() {
		return this.output.closeSent() || this.ended.get();
	}

	// ---- the timer

	/** Reading or writing a frame: the session is not idle. */
	void active() {
		this.lastActivity = System.nanoTime();
	}

	/**
	 * The timer's look at the session: ends a closing handshake the client does not answer,
	 * closes an idle session, pings a quiet one. The timer's thread, which never writes: what
	 * writes runs on the pool.
	 */
	void tick(long now, long idleNanos, long pingNanos) {
		if (this.ended.get()) {
			return;
		}
		long deadline = this.closeDeadline;
		if (deadline != 0) {
			if (now - deadline > 0) {
				giveUp();
			}
			return;
		}
		long idle = this.idleNanos;
		if (now - this.lastActivity > ((idle >= 0) ? idle : idleNanos)) {
			closeFromOutside(CloseCode.GOING_AWAY, "Idle timeout");
		}
		else if (pingNanos > 0 && now - Math.max(this.lastActivity, this.lastPing) > pingNanos) {
			this.lastPing = now;
			runOutside(() -> sendPing(ByteBuffer.allocate(0)));
		}
	}

	/**
	 * Ends a closing handshake the client did not answer, or one no worker could begin: the
	 * connection closes now, and the listener hears of it on the pool (on this thread only if the
	 * pool refuses the task).
	 */
	private void giveUp() {
		this.closeDeadline = Long.MAX_VALUE;
		Runnable end = () -> end(CloseCode.ABNORMAL, "", null);
		boolean queued;
		try {
			this.exchange.execute(end);
			queued = true;
		}
		catch (IllegalStateException ex) {
			queued = false;
		}
		// no worker is needed to close: a blocking model's connection thread wakes from its read
		this.output.shut();
		if (!queued) {
			end.run();
		}
	}

	/**
	 * Begins the closing handshake from a thread that must not write (the timer, a shutdown): on
	 * the pool, and if no worker runs it within the close timeout, the connection closes without it.
	 */
	void closeFromOutside(int code, String reason) {
		if (this.closeDeadline == 0) {
			this.closeDeadline = System.nanoTime() + WebSocketSessions.CLOSE_TIMEOUT_NANOS;
		}
		runOutside(() -> close(code, reason));
	}

	private void runOutside(Runnable task) {
		if (this.outsideTaskPending) {
			return;
		}
		this.outsideTaskPending = true;
		try {
			this.exchange.execute(() -> {
				this.outsideTaskPending = false;
				task.run();
			});
		}
		catch (IllegalStateException ex) {
			// ended, or the pool refused it: the close deadline ends the session
			this.outsideTaskPending = false;
		}
	}

	// ---- what the session is

	@Override
	public void idleTimeout(Duration timeout) {
		this.idleNanos = timeout.isZero() ? Long.MAX_VALUE : timeout.toNanos();
	}

	@Override
	public void limits(WebSocketLimits limits) {
		this.limits = Objects.requireNonNull(limits, "limits");
	}

	WebSocketLimits limits() {
		return this.limits;
	}

	@Override
	public boolean isOpen() {
		return !this.ended.get() && this.output.isOpen();
	}

	@Override
	public String subprotocol() {
		return this.subprotocol;
	}

	@Override
	public boolean compressed() {
		return this.deflate != null;
	}

	@Override
	public String path() {
		return this.path;
	}

	@Override
	public String query() {
		return this.query;
	}

	@Override
	public Headers handshakeHeaders() {
		return copy(this.headers);
	}

	@Override
	public InetSocketAddress remoteAddress() {
		return this.remote;
	}

	@Override
	public boolean secure() {
		return this.secure;
	}

	@Override
	public Map<String, Object> attributes() {
		Map<String, Object> attributes = this.attributes;
		if (attributes == null) {
			synchronized (this.ended) {
				attributes = this.attributes;
				if (attributes == null) {
					attributes = new ConcurrentHashMap<>(4);
					this.attributes = attributes;
				}
			}
		}
		return attributes;
	}

	@Override
	public String toString() {
		return "WebSocketSession[" + this.path + ", " + this.remote + "]";
	}

}
