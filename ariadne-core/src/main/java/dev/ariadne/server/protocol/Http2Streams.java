package dev.ariadne.server.protocol;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import dev.ariadne.http.Headers;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http2.Abuse;
import dev.ariadne.http2.ErrorCode;
import dev.ariadne.http2.EventRate;
import dev.ariadne.http2.Http2Limits;
import dev.ariadne.http2.SessionListener;
import dev.ariadne.server.stats.StreamCount;
import dev.ariadne.server.stats.Defence;

/**
 * The streams of an {@link Http2Protocol}'s connection whose exchange has begun and not ended,
 * and what its session says of them: a request starts an exchange on the model's pool, content,
 * trailers and resets reach it, and the streams the client resets are counted (Rapid Reset).
 * Everything here runs under the protocol's lock: the session's events on the wire's own thread,
 * the rest on the thread that holds it.
 */
final class Http2Streams implements SessionListener {

	private final Http2Protocol protocol;

	private final Map<Integer, Http2Stream> exchanges = new HashMap<>();

	/** As many exchanges as the client may have streams: a reset stream counts until its exchange ends. */
	private final int maxExchanges;

	/**
	 * Streams the client reset before their response ended: beyond {@code http2.max-resets} in
	 * the rate window the connection ends with {@code ENHANCE_YOUR_CALM} (Rapid Reset).
	 */
	private final EventRate resets;

	private boolean calmDown;

	/**
	 * Streams whose request arrived in the input being read, started once the lock is let go
	 * ({@link #startArrived}): a worker woken for one while the wire's thread still holds the
	 * lock would only wait for it. The wire's own thread only, which alone reads input.
	 */
	private final ArrayDeque<Http2Stream> arrived = new ArrayDeque<>();

	Http2Streams(Http2Protocol protocol, Http2Limits limits) {
		this.protocol = protocol;
		this.maxExchanges = limits.maxConcurrentStreams();
		this.resets = new EventRate(limits.maxResets(), limits.rateWindowNanos());
	}

	int size() {
		return this.exchanges.size();
	}

	boolean isEmpty() {
		return this.exchanges.isEmpty();
	}

	/** What the exchanges do: how many, how many wait for a thread, whether at the stream limit. */
	StreamCount count() {
		int queued = 0;
		for (Http2Stream stream : this.exchanges.values()) {
			if (!stream.started()) {
				queued++;
			}
		}
		return new StreamCount(this.exchanges.size(), queued, (this.exchanges.size() >= this.maxExchanges) ? 1 : 0);
	}

	void remove(Http2Stream stream) {
		this.exchanges.remove(stream.id());
	}

	/**
	 * No stream of the connection can be answered (a write to its client failed): the connection
	 * is closed now, and its protocol resets every stream ({@link Http2Protocol#abort}), so those
	 * waiting for a worker never run; nothing more starts meanwhile. A {@code GOAWAY} would wait
	 * for the same client.
	 */
	void closeAll() {
		this.calmDown = true;
		this.protocol.wire.abort();
	}

	/**
	 * The connection's client read nothing, or gave no flow-control credit, within the
	 * low-resources stall timeout while its pool was starved: it holds workers others wait for,
	 * so it is cut off as an HTTP/1.1 client that reads nothing is, all its streams with it.
	 */
	void cutSlowReader() {
		this.protocol.context.registry().defended(Defence.SLOW_READER, true);
		closeAll();
	}

	/**
	 * Returns whether a stream's writer waits for the client now (its credit, or its reading).
	 * @return whether one does
	 */
	boolean waitingForClient() {
		for (Http2Stream stream : this.exchanges.values()) {
			if (stream.waitingForClient()) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Refuses a stream ({@code REFUSED_STREAM}, which a client may retry) instead of running it,
	 * while its pool is starved and another stream of the connection waits for the client's
	 * credit or reading: a client that holds one worker that way gets no more of them, and its
	 * queued streams go by at once rather than each waiting as long (the low-resources mode then
	 * ends the one that waits). On the stream's thread, before its handler runs.
	 * @param stream the stream whose turn came
	 * @param pool the pool it runs in
	 * @return whether refused
	 */
	boolean refusedWhileClientHoldsWorkers(Http2Stream stream, String pool) {
		if (!this.protocol.context.lowResources().starved(pool)) {
			// the usual case: no lock taken, no stream looked at
			return false;
		}
		this.protocol.lock.lock();
		try {
			if (!waitingForClient()) {
				return false;
			}
			stream.resetQuietly(ErrorCode.REFUSED_STREAM);
			this.protocol.context.registry().defended(Defence.HTTP2_STREAMS, true);
			return true;
		}
		finally {
			this.protocol.lock.unlock();
		}
	}

	/** Resets every exchange, for a connection that closes under them. */
	void resetAll(ErrorCode error) {
		for (Http2Stream stream : this.exchanges.values()) {
			stream.resetBy(error);
		}
	}

	@Override
	public void request(int streamId, RequestHead head, boolean endStream) {
		if (this.calmDown) {
			// the connection ends once this input is read: nothing more runs for it
			return;
		}
		if (this.exchanges.size() >= this.maxExchanges) {
			// the session counts open streams; this counts the exchanges that still cost a worker
			this.protocol.context.registry().defended(Defence.HTTP2_STREAMS, false);
			this.protocol.session.reset(streamId, ErrorCode.REFUSED_STREAM);
			return;
		}
		Http2Stream stream = new Http2Stream(this.protocol, streamId, head, endStream, this.protocol.wire.now());
		// counted, and queued, from now; it goes to its thread once the input is read
		this.exchanges.put(streamId, stream);
		this.arrived.add(stream);
	}

	/**
	 * Sends the streams whose request the input just read brought to their threads, in the order
	 * they came; on the wire's own thread, without the lock. One whose thread cannot be had (the
	 * pool's queue is full) is answered 503 here.
	 */
	void startArrived() {
		Http2Stream stream;
		while ((stream = this.arrived.poll()) != null) {
			if (!this.protocol.wire.fork(stream::dispatch)) {
				this.protocol.lock.lock();
				try {
					remove(stream);
				}
				finally {
					this.protocol.lock.unlock();
				}
				stream.refused();
			}
		}
	}

	@Override
	public void headersTooLarge(int streamId, boolean endStream) {
		Headers headers = new Headers().add("content-length", "0");
		this.protocol.session.writeHeaders(streamId, 431, headers, true);
		if (!endStream) {
			this.protocol.session.reset(streamId, ErrorCode.NO_ERROR);
		}
	}

	@Override
	public void data(int streamId, ByteBuffer content, boolean endStream) {
		Http2Stream stream = this.exchanges.get(streamId);
		if (stream == null) {
			// the exchange ended and stopped reading: nothing waits for it
			this.protocol.session.consumed(streamId, content.remaining());
			return;
		}
		stream.body().received(content, endStream);
		this.protocol.changed.signalAll();
	}

	@Override
	public void trailers(int streamId, Headers trailers) {
		Http2Stream stream = this.exchanges.get(streamId);
		if (stream != null) {
			stream.body().ended(trailers);
			this.protocol.changed.signalAll();
		}
	}

	@Override
	public void reset(int streamId, ErrorCode error, boolean byPeer) {
		Http2Stream stream = this.exchanges.get(streamId);
		if (stream != null) {
			stream.resetBy(error);
			this.protocol.changed.signalAll();
			if (byPeer) {
				countReset();
			}
		}
	}

	/** The defence a session's connection error stands for. */
	static Defence defence(Abuse abuse) {
		return switch (abuse) {
			case CONTROL_FRAMES -> Defence.HTTP2_CONTROL_FRAMES;
			case PROVOKED_RESETS -> Defence.HTTP2_PROVOKED_RESETS;
			case HEADER_BLOCK -> Defence.HTTP2_HEADER_BLOCK;
		};
	}

	/** A client reset a stream whose exchange had not ended: too many in the window end the connection. */
	private void countReset() {
		if (this.resets.exceeded(this.protocol.wire.now()) && !this.calmDown) {
			this.calmDown = true;
			this.protocol.context.registry().defended(Defence.HTTP2_RAPID_RESET, false);
			this.protocol.session.fail(ErrorCode.ENHANCE_YOUR_CALM, "Too many streams reset");
		}
	}

	@Override
	public void writable(int streamId) {
		this.protocol.changed.signalAll();
	}

	@Override
	public void goAway(int lastStreamId, ErrorCode error) {
		// the client opens no more streams and closes once its own are answered
	}

}
