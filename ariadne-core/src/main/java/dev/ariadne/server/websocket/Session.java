package dev.ariadne.server.websocket;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.ariadne.http.Headers;
import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Request;
import dev.ariadne.websocket.CloseCode;
import dev.ariadne.websocket.CloseHandshake;
import dev.ariadne.websocket.FrameWriter;
import dev.ariadne.websocket.MessageDeflater;
import dev.ariadne.websocket.Opcode;
import dev.ariadne.websocket.PerMessageDeflate;
import dev.ariadne.websocket.WebSocketException;

/**
 * A session on an upgraded exchange: what it sends (frames written under one lock, each
 * followed by a flush, back-pressure from the exchange's {@link AsyncResponse#writable()}), the
 * closing handshake, the timer's checks, and the session's one end. Its {@link SessionReader}
 * reads.
 */
final class Session implements WebSocketSession {

	/** Messages at least this long are compressed when permessage-deflate was agreed. */
	private static final int MIN_COMPRESSED = 64;

	private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

	private final WebSocketSessions sessions;

	private final AsyncResponse exchange;

	private final OutputStream out;

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

	/** When a frame last went either way (the server's own pings aside). */
	private volatile long lastActivity = System.nanoTime();

	private volatile long lastPing;

	/** When a closing handshake the server began gives up on the client; 0 while none began. */
	private volatile long closeDeadline;

	/** Whether the server's close frame was written (or the session ended). */
	private volatile boolean closeSent;

	/** Whether a task the timer handed the pool has not run yet. */
	private volatile boolean outsideTaskPending;

	private final Object lock = new Object();

	// ---- guarded by lock

	private final CloseHandshake handshake = new CloseHandshake();

	/** Room for a frame header, or a whole control frame. */
	private final ByteBuffer frame = ByteBuffer.allocate(2 + FrameWriter.MAX_CONTROL_PAYLOAD);

	private MessageDeflater deflater;

	/** Whether a text or binary send waits for the connection to take more. */
	private boolean sending;

	private CompletableFuture<Void> pendingSend;

	/** The type of the message whose pieces are being sent, or -1 between messages. */
	private int messageType = -1;

	private boolean messageCompressed;

	/** The payload of the latest ping left unanswered while the connection took no more. */
	private byte[] pendingPong;

	/** Whether the exchange's end was asked for: nothing more is written. */
	private boolean outputClosed;

	Session(WebSocketSessions sessions, Request request, AsyncResponse exchange, OutputStream out,
			WebSocketListener listener, String subprotocol, PerMessageDeflate deflate) {
		this.sessions = sessions;
		this.exchange = exchange;
		this.out = out;
		this.listener = listener;
		this.subprotocol = subprotocol;
		this.deflate = deflate;
		this.path = request.path();
		this.query = request.query();
		// the exchange keeps its request, and with it these fields, for as long as the session lasts
		this.headers = request.headers();
		this.remote = request.remoteAddress();
		this.secure = request.secure();
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
		this.exchange.onWritable(this::writableAgain);
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
	public CompletionStage<Void> sendBinary(ByteBuffer data, boolean last) {
		return send(Opcode.BINARY, data, last);
	}

	private CompletionStage<Void> send(int type, ByteBuffer data, boolean last) {
		CompletableFuture<Void> done;
		synchronized (this.lock) {
			if (this.sending) {
				throw new IllegalStateException("The previous send has not completed: wait for its stage");
			}
			if (this.messageType != -1 && this.messageType != type) {
				throw new IllegalStateException("A " + ((this.messageType == Opcode.TEXT) ? "text" : "binary")
						+ " message is being sent: end it first");
			}
			if (this.outputClosed || !this.handshake.maySendData()) {
				return closed();
			}
			try {
				writeData(type, data, last);
			}
			catch (IOException ex) {
				return CompletableFuture.failedFuture(ex);
			}
			if (last) {
				this.sessions.sent();
			}
			this.lastActivity = System.nanoTime();
			if (this.exchange.writable()) {
				return DONE;
			}
			this.sending = true;
			done = new CompletableFuture<>();
			this.pendingSend = done;
		}
		return done;
	}

	/** Writes a message or a piece of one, compressed when agreed and worth it. */
	private void writeData(int type, ByteBuffer data, boolean last) throws IOException {
		boolean first = this.messageType == -1;
		if (first) {
			this.messageCompressed = this.deflate != null && (!last || data.remaining() >= MIN_COMPRESSED);
		}
		ByteBuffer payload = data;
		if (this.messageCompressed) {
			if (this.deflater == null) {
				this.deflater = this.deflate.newDeflater();
			}
			payload = this.deflater.deflate(data, last);
		}
		ByteBuffer head = this.frame.clear();
		FrameWriter.header(head, first ? type : Opcode.CONTINUATION, last, first && this.messageCompressed,
				payload.remaining());
		this.out.write(head.array(), 0, head.position());
		writePayload(payload);
		this.out.flush();
		this.messageType = last ? -1 : type;
	}

	private void writePayload(ByteBuffer payload) throws IOException {
		if (payload.hasArray()) {
			this.out.write(payload.array(), payload.arrayOffset() + payload.position(), payload.remaining());
			payload.position(payload.limit());
			return;
		}
		byte[] chunk = new byte[Math.min(payload.remaining(), 8192)];
		while (payload.hasRemaining()) {
			int n = Math.min(chunk.length, payload.remaining());
			payload.get(chunk, 0, n);
			this.out.write(chunk, 0, n);
		}
	}

	@Override
	public CompletionStage<Void> sendPing(ByteBuffer payload) {
		return sendControl(Opcode.PING, payload);
	}

	@Override
	public CompletionStage<Void> sendPong(ByteBuffer payload) {
		return sendControl(Opcode.PONG, payload);
	}

	private CompletionStage<Void> sendControl(int opcode, ByteBuffer payload) {
		if (payload.remaining() > FrameWriter.MAX_CONTROL_PAYLOAD) {
			throw new IllegalArgumentException("A control frame carries at most 125 bytes, not " + payload.remaining());
		}
		synchronized (this.lock) {
			if (this.outputClosed || !this.handshake.maySendControl()) {
				return closed();
			}
			try {
				writeControl(opcode, payload);
			}
			catch (IOException ex) {
				return CompletableFuture.failedFuture(ex);
			}
		}
		return DONE;
	}

	private void writeControl(int opcode, ByteBuffer payload) throws IOException {
		ByteBuffer control = this.frame.clear();
		FrameWriter.frame(control, opcode, true, false, payload);
		this.out.write(control.array(), 0, control.position());
		this.out.flush();
	}

	/** Answers a client's ping, or keeps it for when the connection takes more; the reader's thread. */
	void answerPing(ByteBuffer payload) {
		synchronized (this.lock) {
			if (this.outputClosed || !this.handshake.maySendControl()) {
				return;
			}
			if (this.pendingPong != null || !this.exchange.writable()) {
				// a client that does not read gets one pong, for its latest ping (RFC 6455 §5.5.3)
				byte[] copy = new byte[payload.remaining()];
				payload.get(copy);
				this.pendingPong = copy;
				return;
			}
			try {
				writeControl(Opcode.PONG, payload);
			}
			catch (IOException ex) {
				// the reader finds the connection failed
			}
		}
	}

	/** The connection takes more: a kept pong goes, and a waiting send completes. */
	private void writableAgain() {
		CompletableFuture<Void> done;
		synchronized (this.lock) {
			byte[] pong = this.pendingPong;
			if (pong != null && !this.outputClosed && this.handshake.maySendControl()) {
				this.pendingPong = null;
				try {
					writeControl(Opcode.PONG, ByteBuffer.wrap(pong));
				}
				catch (IOException ex) {
					// the next send or read finds the connection failed
				}
			}
			if (this.pendingSend == null || !this.exchange.writable()) {
				return;
			}
			done = this.pendingSend;
			this.pendingSend = null;
			this.sending = false;
		}
		done.complete(null);
	}

	private static CompletableFuture<Void> closed() {
		return CompletableFuture.failedFuture(new IOException("The WebSocket session is closed"));
	}

	// ---- closing

	@Override
	public CompletionStage<Void> close(int code, String reason) {
		FrameWriter.closeLength(code, reason);
		boolean complete;
		synchronized (this.lock) {
			if (this.outputClosed || !this.handshake.send(code)) {
				return DONE;
			}
			this.closeDeadline = System.nanoTime() + WebSocketSessions.CLOSE_TIMEOUT_NANOS;
			writeClose(code, reason);
			this.closeSent = true;
			complete = this.handshake.isClosed();
		}
		if (complete) {
			end(code, reason, null);
		}
		return DONE;
	}

	/** Writes a close frame, whatever the connection does: the session closes after it anyway. */
	private void writeClose(int code, String reason) {
		try {
			ByteBuffer close = this.frame.clear();
			FrameWriter.close(close, code, reason);
			this.out.write(close.array(), 0, close.position());
			this.out.flush();
		}
		catch (IOException ex) {
			// the connection is gone: the end closes it
		}
	}

	/** The client's close frame arrived: answered with its code, then the session ends; the reader's thread. */
	void closeReceived(int code, String reason) {
		synchronized (this.lock) {
			int answer = this.handshake.received(code);
			if (answer != -1 && !this.outputClosed) {
				writeClose(answer, "");
			}
		}
		end(code, reason, null);
	}

	/** The client broke the protocol, or the listener failed: the session closes with the error's code. */
	void failed(WebSocketException error, Throwable cause) {
		synchronized (this.lock) {
			if (this.handshake.fail(error.closeCode()) && !this.outputClosed) {
				writeClose(error.closeCode(), error.reason());
			}
		}
		end(error.closeCode(), error.reason(), (cause != null) ? cause : error);
	}

	/** The connection failed or the client closed it without a close frame. */
	void lost(IOException failure) {
		end(CloseCode.ABNORMAL, "", failure);
	}

	@Override
	public void abort() {
		synchronized (this.lock) {
			this.handshake.fail(CloseCode.ABNORMAL);
		}
		this.exchange.abort(new IOException("WebSocket session aborted"));
		end(CloseCode.ABNORMAL, "", null);
	}

	/** Ends the session once: the connection closes after what was written, and the listener is told. */
	private void end(int code, String reason, Throwable failure) {
		if (!this.ended.compareAndSet(false, true)) {
			return;
		}
		CompletableFuture<Void> waiting;
		synchronized (this.lock) {
			this.handshake.fail(CloseCode.ABNORMAL);
			this.outputClosed = true;
			waiting = this.pendingSend;
			this.pendingSend = null;
			this.sending = false;
			this.pendingPong = null;
			if (this.deflater != null) {
				this.deflater.close();
			}
			this.exchange.complete();
		}
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
		return this.closeSent || this.ended.get();
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
		if (now - this.lastActivity > idleNanos) {
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
		synchronized (this.lock) {
			// no worker is needed to close: a blocking model's connection thread wakes from its read
			this.outputClosed = true;
			this.exchange.complete();
		}
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
	public boolean isOpen() {
		if (this.ended.get()) {
			return false;
		}
		synchronized (this.lock) {
			return this.handshake.state() == CloseHandshake.State.OPEN;
		}
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
			synchronized (this.lock) {
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
