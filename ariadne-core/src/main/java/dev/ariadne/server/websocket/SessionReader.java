package dev.ariadne.server.websocket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.websocket.CloseCode;
import dev.ariadne.websocket.FrameListener;
import dev.ariadne.websocket.FrameReader;
import dev.ariadne.websocket.MessageAssembler;
import dev.ariadne.websocket.PerMessageDeflate;
import dev.ariadne.websocket.WebSocketException;
import dev.ariadne.websocket.WebSocketLimits;

/**
 * How a session reads: a loop on a worker that reads what the connection has (never waiting),
 * feeds it to the {@link FrameReader} and delivers what it completes to the listener, then asks
 * to be called back when more arrives ({@link AsyncResponse#readable()}) and returns, so that a
 * quiet session holds no thread in {@code event-loop}. A listener that returns a stage not yet
 * complete pauses the reader: the loop returns without asking for more, and runs again on the
 * pool once the stage completes. The read buffer is borrowed while the loop reads and given back
 * before it waits, unless a pause holds bytes in it.
 *
 * <p>One thread at a time runs the loop: the callbacks of the exchange and the resumption after
 * a pause are each arranged by the loop itself just before it returns.
 */
final class SessionReader implements FrameListener {

	/** The loop runs, or is about to. */
	private static final int RUNNING = 0;

	/** The loop returned, paused until the listener's stage completes. */
	private static final int PAUSED = 1;

	/** The stage completed while the loop still ran: it goes on. */
	private static final int RESUMED = 2;

	private final Session session;

	private final AsyncResponse exchange;

	private final WebSocketListener listener;

	private final WebSocketSessions sessions;

	/** Whether the message under way is delivered in pieces; asked as each message begins. */
	private boolean partial;

	/** Whether a data message has begun and not ended. */
	private boolean inMessage;

	/** The limits the frame reader enforces. */
	private WebSocketLimits applied;

	private final FrameReader frames;

	private final AtomicInteger state = new AtomicInteger(RUNNING);

	// ---- the thread that runs the loop

	private byte[] array;

	private ByteBuffer input;

	private MessageAssembler assembler;

	/** The stage the listener returned last, not complete when it returned. */
	private CompletionStage<?> awaited;

	/** What a listener method threw, failing the session with 1011. */
	private RuntimeException listenerFailure;

	SessionReader(Session session, AsyncResponse exchange, WebSocketListener listener, WebSocketSessions sessions,
			PerMessageDeflate deflate) {
		this.session = session;
		this.exchange = exchange;
		this.listener = listener;
		this.sessions = sessions;
		this.applied = session.limits();
		this.frames = new FrameReader(this.applied, deflate);
	}

	/** Starts reading on the thread that opened the session. */
	void start() {
		this.exchange.onReadable(this::run);
		run();
	}

	private void run() {
		try {
			loop();
		}
		catch (WebSocketException ex) {
			RuntimeException cause = this.listenerFailure;
			this.listenerFailure = null;
			finish();
			this.session.failed(ex, cause);
		}
		catch (IOException ex) {
			finish();
			this.session.lost(ex);
		}
	}

	private void loop() throws WebSocketException, IOException {
		while (true) {
			if (this.session.ended()) {
				finish();
				return;
			}
			WebSocketLimits limits = this.session.limits();
			if (limits != this.applied) {
				this.applied = limits;
				this.frames.limits(limits);
			}
			ByteBuffer input = this.input;
			if (input != null && (input.hasRemaining() || this.frames.isPaused())) {
				this.frames.read(input, this);
				if (this.frames.isPaused()) {
					if (pause()) {
						return;
					}
					continue;
				}
			}
			if (input == null) {
				this.array = this.sessions.borrowBuffer();
				input = ByteBuffer.wrap(this.array);
				this.input = input;
			}
			int n = this.exchange.read(this.array, 0, this.array.length);
			if (n > 0) {
				input.limit(n).position(0);
				this.session.active();
				continue;
			}
			if (n < 0) {
				finish();
				this.session.lost(null);
				return;
			}
			releaseBuffer();
			if (!this.exchange.readable()) {
				// called back on the pool when the client sends more
				return;
			}
		}
	}

	/**
	 * Waits for the listener's stage without a thread.
	 * @return whether the loop returns; {@code false} when the stage completed meanwhile
	 */
	private boolean pause() {
		CompletionStage<?> stage = this.awaited;
		this.awaited = null;
		stage.whenComplete((result, failure) -> resume());
		if (this.state.compareAndSet(RUNNING, PAUSED)) {
			return true;
		}
		this.state.set(RUNNING);
		return false;
	}

	private void resume() {
		if (this.state.compareAndSet(RUNNING, RESUMED)) {
			// the loop has not returned yet: it goes on by itself
			return;
		}
		if (this.state.compareAndSet(PAUSED, RUNNING)) {
			try {
				this.exchange.execute(this::run);
			}
			catch (IllegalStateException ex) {
				this.session.lost(new IOException("The session could not resume reading", ex));
			}
		}
	}

	private void releaseBuffer() {
		if (this.array != null) {
			this.sessions.releaseBuffer(this.array);
			this.array = null;
			this.input = null;
		}
	}

	/** The session is over: the buffer goes back, the inflater is freed. */
	private void finish() {
		releaseBuffer();
		this.assembler = null;
		this.frames.close();
	}

	// ---- the frames

	@Override
	public void text(ByteBuffer data, boolean frameEnd, boolean last) throws WebSocketException {
		if (last) {
			this.sessions.received();
		}
		if (piecewise(last)) {
			deliver(() -> this.listener.onTextPart(this.session, data, last));
			return;
		}
		if (this.assembler == null && last) {
			String text = text(data);
			deliver(() -> this.listener.onText(this.session, text));
			return;
		}
		if (assemble(data, last)) {
			String text = this.assembler.text();
			this.assembler = null;
			deliver(() -> this.listener.onText(this.session, text));
		}
	}

	@Override
	public void binary(ByteBuffer data, boolean frameEnd, boolean last) throws WebSocketException {
		if (last) {
			this.sessions.received();
		}
		if (piecewise(last)) {
			deliver(() -> this.listener.onBinaryPart(this.session, data, last));
			return;
		}
		if (this.assembler == null && last) {
			ByteBuffer message = ByteBuffer.wrap(bytes(data));
			deliver(() -> this.listener.onBinary(this.session, message));
			return;
		}
		if (assemble(data, last)) {
			ByteBuffer message = this.assembler.binary();
			this.assembler = null;
			deliver(() -> this.listener.onBinary(this.session, message));
		}
	}

	/**
	 * Returns whether the message a frame belongs to is delivered in pieces, as the listener says
	 * when the message begins (an endpoint may add its handlers once the session is open).
	 */
	private boolean piecewise(boolean last) {
		if (!this.inMessage) {
			this.partial = this.listener.partialMessages();
		}
		this.inMessage = !last;
		return this.partial;
	}

	private boolean assemble(ByteBuffer data, boolean last) throws WebSocketException {
		if (this.assembler == null) {
			this.assembler = new MessageAssembler(this.applied.maxMessageSize());
		}
		return this.assembler.add(data, last);
	}

	/** Decodes a whole message of one frame, valid UTF-8 (the codec checked it), without a copy. */
	private static String text(ByteBuffer data) {
		if (!data.hasArray()) {
			return new String(bytes(data), StandardCharsets.UTF_8);
		}
		String text = new String(data.array(), data.arrayOffset() + data.position(), data.remaining(),
				StandardCharsets.UTF_8);
		data.position(data.limit());
		return text;
	}

	private static byte[] bytes(ByteBuffer data) {
		byte[] bytes = new byte[data.remaining()];
		data.get(bytes);
		return bytes;
	}

	@Override
	public void ping(ByteBuffer payload) throws WebSocketException {
		this.session.answerPing(payload.duplicate());
		call(() -> this.listener.onPing(this.session, payload));
	}

	@Override
	public void pong(ByteBuffer payload) throws WebSocketException {
		call(() -> this.listener.onPong(this.session, payload));
	}

	@Override
	public void close(int code, String reason) {
		this.session.closeReceived(code, reason);
	}

	/** Calls the listener; a stage it returns not complete pauses the reader. */
	private void deliver(Delivery delivery) throws WebSocketException {
		CompletionStage<?> stage;
		try {
			stage = delivery.call();
		}
		catch (RuntimeException ex) {
			this.listenerFailure = ex;
			throw new WebSocketException(CloseCode.INTERNAL_ERROR, "Internal error");
		}
		if (stage != null && !isDone(stage)) {
			this.awaited = stage;
			this.frames.pause();
		}
	}

	private void call(Runnable call) throws WebSocketException {
		try {
			call.run();
		}
		catch (RuntimeException ex) {
			this.listenerFailure = ex;
			throw new WebSocketException(CloseCode.INTERNAL_ERROR, "Internal error");
		}
	}

	private static boolean isDone(CompletionStage<?> stage) {
		try {
			return stage.toCompletableFuture().isDone();
		}
		catch (UnsupportedOperationException ex) {
			return false;
		}
	}

	/** A listener method that returns a stage. */
	@FunctionalInterface
	private interface Delivery {

		CompletionStage<?> call();

	}

}
