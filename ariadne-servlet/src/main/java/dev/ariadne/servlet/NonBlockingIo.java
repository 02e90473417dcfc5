package dev.ariadne.servlet;

import java.io.IOException;

import jakarta.servlet.ReadListener;
import jakarta.servlet.WriteListener;

import dev.ariadne.server.AsyncResponse;

/**
 * Servlet non-blocking I/O ({@link ReadListener}, {@link WriteListener}, {@code isReady()}) with
 * the semantics of the Servlet 6.1 specification, on the core's non-blocking reads and writes
 * of a suspended exchange ({@link AsyncResponse#read}, {@link AsyncResponse#readable()},
 * {@link AsyncResponse#writable()}).
 *
 * <ul>
 * <li>Reads: {@code isReady()} is true while bytes fetched from the core remain, or when the
 * core has bytes (or the end, or a failure) now, which it then fetches without waiting; when
 * false, the core calls back once it has, and the listener gets {@code onDataAvailable}, at the
 * end {@code onAllDataRead} (once), after a failure {@code onError}.</li>
 * <li>Writes: once a write listener is set, the response's stream never waits: what the client
 * does not take is queued by the core; {@code isReady()} is false while 64 KiB are queued or the
 * buffer budget is spent, and {@code onWritePossible} follows once the queue has drained; a
 * failed write calls {@code onError}.</li>
 * </ul>
 *
 * <p>Every callback is one of the exchange's {@link ExchangeTasks}: never two at a time, never
 * during a container dispatch. In {@code event-loop} no worker waits for the client between
 * them; in the socket models the connection's own thread does the waiting for them.
 *
 * <p>The same for a request in async mode ({@link ServletExchange}) and for the streams of a
 * connection that switched protocols ({@link UpgradeConnection}), each its {@link Owner}.
 */
final class NonBlockingIo {

	/** What the listeners' callbacks belong to: an exchange in async mode, or an upgraded connection. */
	interface Owner {

		/**
		 * Returns the tasks the callbacks run as; the suspended core exchange under them.
		 * @return the tasks
		 */
		ExchangeTasks tasks();

		/**
		 * Returns the input that non-blocking reads fetch into.
		 * @return the input
		 */
		RequestInput input();

		/**
		 * Says why listeners may not be set now, if they may not.
		 * @return the reason, or {@code null} when they may
		 */
		String noListeners();

		/**
		 * A listener's callback threw, on one of the tasks.
		 * @param failure what it threw
		 */
		void callbackFailed(Throwable failure);

	}

	private final Owner owner;

	private volatile ReadListener readListener;

	private boolean allDataReadSent;

	private volatile WriteListener writeListener;

	NonBlockingIo(Owner owner) {
		this.owner = owner;
	}

	boolean readingNonBlocking() {
		return this.readListener != null;
	}

	synchronized void readListener(ReadListener listener) {
		if (listener == null) {
			throw new NullPointerException("ReadListener must not be null");
		}
		if (this.readListener != null) {
			throw new IllegalStateException("A ReadListener is already set");
		}
		String refusal = this.owner.noListeners();
		if (refusal != null) {
			throw new IllegalStateException("A ReadListener " + refusal);
		}
		this.readListener = listener;
		ExchangeTasks tasks = this.owner.tasks();
		tasks.core().onReadable(() -> tasks.run(this::readTurn));
		tasks.execute(this::readTurn);
	}

	/**
	 * Answers {@code ServletInputStream.isReady()}: whether a read returns without blocking.
	 * When not, the core calls back once it would.
	 * @return whether a read returns without blocking
	 */
	boolean readReady() {
		if (this.readListener == null) {
			return true;
		}
		RequestInput input = this.owner.input();
		if (input.fetched() > 0 || input.ended() || input.failure() != null) {
			return true;
		}
		AsyncResponse core = this.owner.tasks().core();
		if (!core.readable()) {
			// the reader waits for the client, perhaps for hours: it holds no buffer meanwhile
			input.releaseIdle();
			return false;
		}
		input.fetchNow(core);
		return true;
	}

	/** One of the exchange's tasks: a read would return something now; tells the listener. */
	private void readTurn() {
		ReadListener listener = this.readListener;
		if (!readReady()) {
			return;
		}
		RequestInput input = this.owner.input();
		IOException failure = input.failure();
		if (failure != null) {
			callback(() -> listener.onError(failure));
			return;
		}
		if (input.fetched() > 0) {
			callback(listener::onDataAvailable);
		}
		if (input.isFinished() && !this.allDataReadSent) {
			this.allDataReadSent = true;
			callback(listener::onAllDataRead);
		}
	}

	synchronized void writeListener(WriteListener listener) {
		if (listener == null) {
			throw new NullPointerException("WriteListener must not be null");
		}
		if (this.writeListener != null) {
			throw new IllegalStateException("A WriteListener is already set");
		}
		String refusal = this.owner.noListeners();
		if (refusal != null) {
			throw new IllegalStateException("A WriteListener " + refusal);
		}
		this.writeListener = listener;
		ExchangeTasks tasks = this.owner.tasks();
		Runnable writePossible = () -> callback(listener::onWritePossible);
		tasks.core().onWritable(() -> tasks.run(writePossible));
		tasks.execute(writePossible);
	}

	/**
	 * Answers {@code ServletOutputStream.isReady()}: whether a write may be made now. When not,
	 * {@code onWritePossible} follows once it may.
	 * @return whether to write now
	 */
	boolean writeReady() {
		if (this.writeListener == null) {
			return true;
		}
		return this.owner.tasks().core().writable();
	}

	/**
	 * Tells the write listener, if any, that a write failed.
	 * @param failure the failure
	 */
	void writeFailed(IOException failure) {
		WriteListener listener = this.writeListener;
		if (listener != null) {
			this.owner.tasks().execute(() -> callback(() -> listener.onError(failure)));
		}
	}

	/** Runs a listener callback; a callback that throws fails the async cycle. */
	private void callback(IoCallback callback) {
		try {
			callback.run();
		}
		catch (Throwable ex) {
			this.owner.callbackFailed(ex);
		}
	}

	@FunctionalInterface
	private interface IoCallback {

		void run() throws IOException;

	}

}
