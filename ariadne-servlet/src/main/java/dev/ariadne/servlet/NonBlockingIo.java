package dev.ariadne.servlet;

import java.io.IOException;

import jakarta.servlet.ReadListener;
import jakarta.servlet.WriteListener;

/**
 * Servlet non-blocking I/O ({@link ReadListener}, {@link WriteListener}, {@code isReady()}) with
 * the semantics of the Servlet 6.1 specification, emulated over the core's blocking streams: the
 * one place that changes when the core offers readiness callbacks.
 *
 * <ul>
 * <li>Reads: when a read listener is set, the exchange's thread fetches bytes (blocking,
 * outside any callback) and then calls {@code onDataAvailable}; {@code isReady()} is true while
 * fetched bytes remain, and when it answers false the next fetch is scheduled, followed by
 * {@code onDataAvailable} again or, at the end of the body, {@code onAllDataRead} (once).</li>
 * <li>Writes: writes complete before they return, so nothing is ever pending and
 * {@code isReady()} is always true; {@code onWritePossible} is called once after the listener is
 * set; a failed write calls {@code onError}.</li>
 * </ul>
 *
 * <p>Callbacks run on the exchange's thread, never while a dispatch is running, and never two at
 * a time.
 */
final class NonBlockingIo {

	private final ServletExchange exchange;

	private ReadListener readListener;

	private boolean fetchScheduled;

	private boolean allDataReadSent;

	private WriteListener writeListener;

	NonBlockingIo(ServletExchange exchange) {
		this.exchange = exchange;
	}

	synchronized boolean readingNonBlocking() {
		return this.readListener != null;
	}

	synchronized void readListener(ReadListener listener) {
		if (listener == null) {
			throw new NullPointerException("ReadListener must not be null");
		}
		if (this.readListener != null) {
			throw new IllegalStateException("A ReadListener is already set");
		}
		if (!this.exchange.isAsyncStarted()) {
			throw new IllegalStateException("A ReadListener can be set only in async mode (startAsync)");
		}
		this.readListener = listener;
		scheduleFetch();
	}

	/**
	 * Answers {@code ServletInputStream.isReady()}.
	 * @return whether a read returns without blocking
	 */
	synchronized boolean readReady() {
		if (this.readListener == null) {
			return true;
		}
		RequestInput input = this.exchange.request().input();
		if (input.fetched() > 0) {
			return true;
		}
		scheduleFetch();
		return false;
	}

	private void scheduleFetch() {
		if (!this.fetchScheduled && !this.allDataReadSent) {
			this.fetchScheduled = true;
			this.exchange.suspension().execute(this::fetch);
		}
	}

	/** Runs on the exchange's thread: fetches bytes, then tells the listener. */
	private void fetch() {
		ReadListener listener;
		synchronized (this) {
			this.fetchScheduled = false;
			listener = this.readListener;
		}
		int count;
		try {
			count = this.exchange.request().input().fetch();
		}
		catch (IOException ex) {
			callback(() -> listener.onError(ex));
			return;
		}
		if (count >= 0) {
			callback(listener::onDataAvailable);
			return;
		}
		synchronized (this) {
			if (this.allDataReadSent) {
				return;
			}
			this.allDataReadSent = true;
		}
		callback(listener::onAllDataRead);
	}

	synchronized void writeListener(WriteListener listener) {
		if (listener == null) {
			throw new NullPointerException("WriteListener must not be null");
		}
		if (this.writeListener != null) {
			throw new IllegalStateException("A WriteListener is already set");
		}
		if (!this.exchange.isAsyncStarted()) {
			throw new IllegalStateException("A WriteListener can be set only in async mode (startAsync)");
		}
		this.writeListener = listener;
		this.exchange.suspension().execute(() -> callback(listener::onWritePossible));
	}

	/**
	 * Answers {@code ServletOutputStream.isReady()}: writes never leave anything pending.
	 * @return {@code true}
	 */
	boolean writeReady() {
		return true;
	}

	/**
	 * Tells the write listener, if any, that a write failed.
	 * @param failure the failure
	 */
	void writeFailed(IOException failure) {
		WriteListener listener;
		synchronized (this) {
			listener = this.writeListener;
		}
		if (listener != null) {
			this.exchange.suspension().execute(() -> callback(() -> listener.onError(failure)));
		}
	}

	/** Runs a listener callback; a callback that throws fails the async cycle. */
	private void callback(IoCallback callback) {
		try {
			callback.run();
		}
		catch (Throwable ex) {
			this.exchange.asyncFailure(ex);
		}
	}

	@FunctionalInterface
	private interface IoCallback {

		void run() throws IOException;

	}

}
