package dev.ariadne.server.websocket;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.websocket.CloseCode;
import dev.ariadne.websocket.CloseHandshake;
import dev.ariadne.websocket.FrameWriter;
import dev.ariadne.websocket.MessageDeflater;
import dev.ariadne.websocket.Opcode;
import dev.ariadne.websocket.PerMessageDeflate;

/**
 * What a session sends, and the closing handshake that says what it still may: frames written to
 * the exchange's stream under one lock, each followed by a flush; back-pressure from
 * {@link AsyncResponse#writable()}, with one text or binary send waiting at a time; a pong kept
 * for the latest ping while the client reads nothing; compression when agreed.
 *
 * <p>Thread-safe: any thread may send; the lock orders the frames and the handshake's states.
 */
final class SessionOutput {

	/** Messages at least this long are compressed when permessage-deflate was agreed. */
	private static final int MIN_COMPRESSED = 64;

	static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

	/** What {@link #close} did. */
	enum Closing {

		/** Nothing: a close frame went out before, or the session ended. */
		IGNORED,

		/** The close frame went out; the client's is awaited. */
		SENT,

		/** The close frame went out after the client's: the handshake is complete. */
		COMPLETE

	}

	private final AsyncResponse exchange;

	private final OutputStream out;

	private final PerMessageDeflate deflate;

	/** Counts a message sent and makes the session active; called under the lock. */
	private final Runnable sent;

	private final Object lock = new Object();

	/** Whether the server's close frame was written (or nothing more may be). */
	private volatile boolean closeSent;

	// ---- guarded by lock

	private final CloseHandshake handshake = new CloseHandshake();

	/** Room for a data frame's header. */
	private final ByteBuffer head = ByteBuffer.allocate(10);

	/** Room for a whole control frame, made at the first one: a quiet session may never send one. */
	private ByteBuffer control;

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
	private boolean closed;

	SessionOutput(AsyncResponse exchange, OutputStream out, PerMessageDeflate deflate, Runnable sent) {
		this.exchange = exchange;
		this.out = out;
		this.deflate = deflate;
		this.sent = sent;
	}

	/** Sends a text or binary message, or a piece of one. */
	CompletionStage<Void> send(int type, ByteBuffer data, boolean last) {
		CompletableFuture<Void> done;
		synchronized (this.lock) {
			if (this.sending) {
				throw new IllegalStateException("The previous send has not completed: wait for its stage");
			}
			if (this.messageType != -1 && this.messageType != type) {
				throw new IllegalStateException("A " + ((this.messageType == Opcode.TEXT) ? "text" : "binary")
						+ " message is being sent: end it first");
			}
			if (this.closed || !this.handshake.maySendData()) {
				return closedStage();
			}
			try {
				writeData(type, data, last);
			}
			catch (IOException ex) {
				return CompletableFuture.failedFuture(ex);
			}
			if (last) {
				this.sent.run();
			}
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
		ByteBuffer head = this.head.clear();
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

	private ByteBuffer controlFrame() {
		ByteBuffer control = this.control;
		if (control == null) {
			control = ByteBuffer.allocate(2 + FrameWriter.MAX_CONTROL_PAYLOAD);
			this.control = control;
		}
		return control.clear();
	}

	/** Sends a ping or a pong of the application's. */
	CompletionStage<Void> sendControl(int opcode, ByteBuffer payload) {
		if (payload.remaining() > FrameWriter.MAX_CONTROL_PAYLOAD) {
			throw new IllegalArgumentException("A control frame carries at most 125 bytes, not " + payload.remaining());
		}
		synchronized (this.lock) {
			if (this.closed || !this.handshake.maySendControl()) {
				return closedStage();
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
		ByteBuffer control = controlFrame();
		FrameWriter.frame(control, opcode, true, false, payload);
		this.out.write(control.array(), 0, control.position());
		this.out.flush();
	}

	/** Answers a client's ping, or keeps it for when the connection takes more; the reader's thread. */
	void answerPing(ByteBuffer payload) {
		synchronized (this.lock) {
			if (this.closed || !this.handshake.maySendControl()) {
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
	void writableAgain() {
		CompletableFuture<Void> done;
		synchronized (this.lock) {
			byte[] pong = this.pendingPong;
			if (pong != null && !this.closed && this.handshake.maySendControl()) {
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

	static CompletableFuture<Void> closedStage() {
		return CompletableFuture.failedFuture(new IOException("The WebSocket session is closed"));
	}

	// ---- the closing handshake

	/** Sends the server's close frame, if it may still send one. */
	Closing close(int code, String reason) {
		synchronized (this.lock) {
			if (this.closed || !this.handshake.send(code)) {
				return Closing.IGNORED;
			}
			writeClose(code, reason);
			this.closeSent = true;
			return this.handshake.isClosed() ? Closing.COMPLETE : Closing.SENT;
		}
	}

	/**
	 * The client's close frame arrived: answered with its code and reason unless the server's
	 * went first (RFC 6455 §5.5.1; Tomcat, Jetty and Reactor Netty echo both).
	 */
	void closeReceived(int code, String reason) {
		synchronized (this.lock) {
			int answer = this.handshake.received(code);
			if (answer != -1 && !this.closed) {
				writeClose(answer, reason);
				this.closeSent = true;
			}
		}
	}

	/** Fails the connection: a close frame with the code, unless one went out already. */
	void fail(int code, String reason) {
		synchronized (this.lock) {
			if (this.handshake.fail(code) && !this.closed) {
				writeClose(code, reason);
			}
			this.closeSent = true;
		}
	}

	/** Writes a close frame, whatever the connection does: the session closes after it anyway. */
	private void writeClose(int code, String reason) {
		try {
			ByteBuffer close = controlFrame();
			FrameWriter.close(close, code, reason);
			this.out.write(close.array(), 0, close.position());
			this.out.flush();
		}
		catch (IOException ex) {
			// the connection is gone: the end closes it
		}
	}

	/**
	 * Writes nothing more, and ends the exchange: what was written leaves, then the connection
	 * closes. Once.
	 * @return the send that waited for the connection, to fail, or {@code null}
	 */
	CompletableFuture<Void> shut() {
		synchronized (this.lock) {
			this.handshake.fail(CloseCode.ABNORMAL);
			this.closed = true;
			this.closeSent = true;
			CompletableFuture<Void> waiting = this.pendingSend;
			this.pendingSend = null;
			this.sending = false;
			this.pendingPong = null;
			if (this.deflater != null) {
				this.deflater.close();
			}
			this.exchange.complete();
			return waiting;
		}
	}

	/** Whether the server's close frame went out, or nothing more may be written. */
	boolean closeSent() {
		return this.closeSent;
	}

	/** Whether neither close frame has gone either way. */
	boolean isOpen() {
		synchronized (this.lock) {
			return !this.closed && this.handshake.state() == CloseHandshake.State.OPEN;
		}
	}

}
