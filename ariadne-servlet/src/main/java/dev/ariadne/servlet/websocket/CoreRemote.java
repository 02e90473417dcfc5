package dev.ariadne.servlet.websocket;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import jakarta.websocket.EncodeException;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendHandler;
import jakarta.websocket.SendResult;
import jakarta.websocket.Session;

import dev.ariadne.server.websocket.WebSocketSession;

/**
 * The remote ends of a {@link CoreJakartaSession}: each send is the core session's, whose stage
 * completes once the session may send the next message. The basic remote waits for it (and
 * throws what failed it); the asynchronous one hands it over as a {@link Future} or to a
 * {@link SendHandler}, within its send timeout when one is set. The core sends one message at a
 * time: basic sends from several threads take turns (as on Jetty and Tyrus), and an asynchronous
 * send while another send is under way throws {@link IllegalStateException}, as Jakarta
 * WebSocket allows and Tomcat does.
 *
 * <p>Without encoders (the session's endpoint was upgraded without any), {@code sendObject} sends
 * what every container encodes: a {@code String} or a primitive's wrapper as text, a
 * {@code ByteBuffer} or a {@code byte[]} as binary; anything else fails with
 * {@link EncodeException}.
 */
final class CoreRemote {

	/** The largest piece the send stream and writer gather before they send it. */
	private static final int STREAM_PIECE = 8192;

	private final Session owner;

	private final Supplier<WebSocketSession> core;

	private final Basic basic = new Basic();

	private final Async async = new Async();

	/** One basic send at a time: a thread that sends while another does waits for it, as on Jetty and Tyrus. */
	private final ReentrantLock basicSends = new ReentrantLock();

	private volatile boolean batching;

	private volatile long sendTimeout;

	CoreRemote(Session owner, Supplier<WebSocketSession> core) {
		this.owner = owner;
		this.core = core;
	}

	RemoteEndpoint.Basic basic() {
		return this.basic;
	}

	RemoteEndpoint.Async async() {
		return this.async;
	}

	private WebSocketSession session() {
		return this.core.get();
	}

	private CompletionStage<Void> object(Object data) throws EncodeException {
		if (data == null) {
			throw new IllegalArgumentException("Cannot send null");
		}
		if (data instanceof ByteBuffer buffer) {
			return session().sendBinary(buffer);
		}
		if (data instanceof byte[] bytes) {
			return session().sendBinary(ByteBuffer.wrap(bytes));
		}
		if (data instanceof String || data instanceof Number || data instanceof Boolean || data instanceof Character) {
			return session().sendText(data.toString());
		}
		throw new EncodeException(data, "No encoder for " + data.getClass().getName()
				+ ": the endpoint was upgraded without encoders");
	}

	/** A basic send: the core's, after the one under way, waited for. */
	private void send(Supplier<CompletionStage<Void>> send) throws IOException {
		this.basicSends.lock();
		try {
			await(send.get());
		}
		finally {
			this.basicSends.unlock();
		}
	}

	private static void await(CompletionStage<Void> stage) throws IOException {
		try {
			stage.toCompletableFuture().get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while sending", ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			throw (cause instanceof IOException io) ? io : new IOException("The send failed: " + cause, cause);
		}
	}

	private CompletableFuture<Void> timed(CompletionStage<Void> stage) {
		CompletableFuture<Void> future = stage.toCompletableFuture().copy();
		long timeout = this.sendTimeout;
		return (timeout > 0) ? future.orTimeout(timeout, TimeUnit.MILLISECONDS) : future;
	}

	private void handOver(CompletionStage<Void> stage, SendHandler handler) {
		if (handler == null) {
			throw new IllegalArgumentException("A send handler is required");
		}
		timed(stage).whenComplete((result, failure) -> handler.onResult(
				(failure != null) ? new SendResult(this.owner, failure) : new SendResult(this.owner)));
	}

	private abstract class Common implements RemoteEndpoint {

		@Override
		public void setBatchingAllowed(boolean allowed) {
			// every message goes out as it is sent: there is no batch to hold
			CoreRemote.this.batching = allowed;
		}

		@Override
		public boolean getBatchingAllowed() {
			return CoreRemote.this.batching;
		}

		@Override
		public void flushBatch() {
		}

		@Override
		public void sendPing(ByteBuffer applicationData) throws IOException {
			await(session().sendPing(applicationData));
		}

		@Override
		public void sendPong(ByteBuffer applicationData) throws IOException {
			await(session().sendPong(applicationData));
		}

	}

	private final class Basic extends Common implements RemoteEndpoint.Basic {

		@Override
		public void sendText(String text) throws IOException {
			send(() -> session().sendText(text));
		}

		@Override
		public void sendBinary(ByteBuffer data) throws IOException {
			send(() -> session().sendBinary(data));
		}

		@Override
		public void sendText(String partialMessage, boolean isLast) throws IOException {
			send(() -> session().sendText(partialMessage, isLast));
		}

		@Override
		public void sendBinary(ByteBuffer partialByte, boolean isLast) throws IOException {
			send(() -> session().sendBinary(partialByte, isLast));
		}

		@Override
		public OutputStream getSendStream() {
			return new SendStream();
		}

		@Override
		public Writer getSendWriter() {
			return new SendWriter();
		}

		@Override
		public void sendObject(Object data) throws IOException, EncodeException {
			CoreRemote.this.basicSends.lock();
			try {
				await(object(data));
			}
			finally {
				CoreRemote.this.basicSends.unlock();
			}
		}

	}

	private final class Async extends Common implements RemoteEndpoint.Async {

		@Override
		public long getSendTimeout() {
			return CoreRemote.this.sendTimeout;
		}

		@Override
		public void setSendTimeout(long timeoutmillis) {
			CoreRemote.this.sendTimeout = timeoutmillis;
		}

		@Override
		public void sendText(String text, SendHandler handler) {
			handOver(session().sendText(text), handler);
		}

		@Override
		public Future<Void> sendText(String text) {
			return timed(session().sendText(text));
		}

		@Override
		public Future<Void> sendBinary(ByteBuffer data) {
			return timed(session().sendBinary(data));
		}

		@Override
		public void sendBinary(ByteBuffer data, SendHandler handler) {
			handOver(session().sendBinary(data), handler);
		}

		@Override
		public Future<Void> sendObject(Object data) {
			try {
				return timed(object(data));
			}
			catch (EncodeException ex) {
				return CompletableFuture.failedFuture(ex);
			}
		}

		@Override
		public void sendObject(Object data, SendHandler handler) {
			CompletionStage<Void> stage;
			try {
				stage = object(data);
			}
			catch (EncodeException ex) {
				stage = CompletableFuture.failedFuture(ex);
			}
			handOver(stage, handler);
		}

	}

	/** A binary message written in pieces: each full piece goes out, the last on close. */
	private final class SendStream extends OutputStream {

		private final byte[] piece = new byte[STREAM_PIECE];

		private int count;

		private boolean closed;

		@Override
		public void write(int b) throws IOException {
			write(new byte[] { (byte) b }, 0, 1);
		}

		@Override
		public void write(byte[] bytes, int offset, int length) throws IOException {
			if (this.closed) {
				throw new IOException("The message was sent: its stream is closed");
			}
			while (length > 0) {
				if (this.count == this.piece.length) {
					send(false);
				}
				int n = Math.min(length, this.piece.length - this.count);
				System.arraycopy(bytes, offset, this.piece, this.count, n);
				this.count += n;
				offset += n;
				length -= n;
			}
		}

		@Override
		public void close() throws IOException {
			if (!this.closed) {
				this.closed = true;
				send(true);
			}
		}

		private void send(boolean last) throws IOException {
			await(session().sendBinary(ByteBuffer.wrap(this.piece, 0, this.count), last));
			this.count = 0;
		}

	}

	/** A text message written in pieces of whole characters: each full piece goes out, the last on close. */
	private final class SendWriter extends Writer {

		private final StringBuilder piece = new StringBuilder(STREAM_PIECE);

		private boolean closed;

		@Override
		public void write(char[] chars, int offset, int length) throws IOException {
			if (this.closed) {
				throw new IOException("The message was sent: its writer is closed");
			}
			this.piece.append(chars, offset, length);
			if (this.piece.length() >= STREAM_PIECE) {
				// a high surrogate at the end waits for its pair in the next piece
				int end = this.piece.length();
				if (Character.isHighSurrogate(this.piece.charAt(end - 1))) {
					end--;
				}
				await(session().sendText(this.piece.substring(0, end), false));
				this.piece.delete(0, end);
			}
		}

		@Override
		public void flush() {
		}

		@Override
		public void close() throws IOException {
			if (!this.closed) {
				this.closed = true;
				await(session().sendText(this.piece.toString(), true));
				this.piece.setLength(0);
			}
		}

	}

}
