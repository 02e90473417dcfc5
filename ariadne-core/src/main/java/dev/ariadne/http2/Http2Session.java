package dev.ariadne.http2;

import java.nio.ByteBuffer;

import dev.ariadne.http.Headers;
import dev.ariadne.http.RequestHead;

/**
 * The server side of one HTTP/2 connection, free of sockets and threads: bytes from the client
 * go in through {@link #receive}, what the server sends comes out of {@link #output}, and the
 * streams' requests reach a {@link SessionListener}.
 *
 * <p>The session enforces RFC 9113 as a whole: the preface, the settings both ways, stream
 * states (§5.1), header blocks and their {@code CONTINUATION}s, HPACK, the request rules (§8),
 * flow control both ways (§5.2, §6.9), and the errors (§5.4): a stream error resets that stream
 * and the connection goes on, a connection error queues a {@code GOAWAY} and ends the session.
 * The {@link Http2Limits} apply from the client's first frame.
 *
 * <p>Not thread-safe: the protocol that owns a session calls it from one thread at a time, and
 * writes what {@link #output} returns in the order it was queued.
 */
public final class Http2Session {

	private static final ByteBuffer PREFACE = Preface.bytes();

	final Http2Limits limits;

	final SessionListener listener;

	final FrameOutput output = new FrameOutput();

	final StreamMap streams = new StreamMap();

	final ClosedStreams closed = new ClosedStreams();

	final HpackDecoder decoder;

	final HpackEncoder encoder = new HpackEncoder(Settings.DEFAULT_HEADER_TABLE_SIZE);

	private final FrameReader reader;

	private final SessionInput input;

	/** The client's settings in force. */
	final Settings peer = Settings.initial();

	/** What the server may still send on the connection. */
	final FlowWindow sendWindow = new FlowWindow(Settings.DEFAULT_WINDOW);

	/** What the client may still send on the connection before the server credits it. */
	long receiveWindow = Settings.DEFAULT_WINDOW;

	/** Consumed content not yet credited back on the connection. */
	long uncredited;

	/** The highest stream id the client has opened. */
	int lastStreamId;

	/** The last stream id of a {@code GOAWAY} the server sent, or -1. */
	int goAwayStreamId = -1;

	private int prefaceRead;

	private Http2Exception failure;

	/**
	 * Creates the session of one connection; call {@link #start} before anything else.
	 * @param limits what the server allows the client
	 * @param listener receives the streams
	 */
	public Http2Session(Http2Limits limits, SessionListener listener) {
		this.limits = limits;
		this.listener = listener;
		this.decoder = new HpackDecoder(Settings.DEFAULT_HEADER_TABLE_SIZE, limits.maxHeaderListSize());
		this.reader = new FrameReader(limits.maxFrameSize());
		this.input = new SessionInput(this);
	}

	/**
	 * Queues the server's connection preface: its {@code SETTINGS}, and a {@code WINDOW_UPDATE}
	 * that opens the connection window to {@link Http2Limits#connectionWindowSize()}.
	 */
	public void start() {
		Settings settings = this.limits.settings();
		FrameWriter.settings(this.output.room(FrameWriter.settingsLength(settings)), settings);
		int increase = this.limits.connectionWindowSize() - Settings.DEFAULT_WINDOW;
		if (increase > 0) {
			FrameWriter.windowUpdate(this.output.room(13), 0, increase);
			this.receiveWindow += increase;
		}
	}

	/**
	 * Opens stream 1 for a request that arrived as HTTP/1.1 with {@code Upgrade: h2c} (RFC 7540
	 * §3.2): the request is complete, so the stream is half-closed (remote), and the client's
	 * {@code HTTP2-Settings} are in force. Call after {@link #start}; the client's preface follows
	 * in {@link #receive}.
	 * @param head the upgraded request (the caller gives it to its application)
	 * @param settings the settings of the {@code HTTP2-Settings} field
	 * @throws Http2Exception a connection error when the settings are invalid
	 */
	public void upgraded(RequestHead head, Settings settings) throws Http2Exception {
		applySettings(settings);
		SessionStream stream = open(1);
		stream.state = StreamState.HALF_CLOSED_REMOTE;
		stream.delivered = true;
	}

	/**
	 * Reads bytes from the client, all of them, and acts on them: the listener hears of streams,
	 * and answers the connection needs (acknowledgements, resets, window updates, a
	 * {@code GOAWAY}) are queued to {@link #output}.
	 * @param bytes what arrived, consumed entirely
	 * @return whether the session goes on; {@code false} once a connection error has queued its
	 * {@code GOAWAY}: write the output, then close
	 */
	public boolean receive(ByteBuffer bytes) {
		if (this.failure != null) {
			bytes.position(bytes.limit());
			return false;
		}
		try {
			if (this.prefaceRead < Preface.LENGTH && !readPreface(bytes)) {
				return true;
			}
			this.reader.read(bytes, this.input);
		}
		catch (Http2Exception ex) {
			fail(ex);
		}
		return this.failure == null;
	}

	private boolean readPreface(ByteBuffer bytes) throws Http2Exception {
		while (bytes.hasRemaining() && this.prefaceRead < Preface.LENGTH) {
			if (bytes.get() != PREFACE.get(this.prefaceRead++)) {
				throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "Invalid connection preface");
			}
		}
		return this.prefaceRead == Preface.LENGTH;
	}

	private void fail(Http2Exception ex) {
		this.failure = ex;
		int last = (this.goAwayStreamId >= 0) ? Math.min(this.goAwayStreamId, this.lastStreamId) : this.lastStreamId;
		queueGoAway(last, ex.error(), ex.reason());
		this.streams.forEach((stream) -> {
			if (stream.delivered) {
				this.listener.reset(stream.id, ex.error(), false);
			}
		});
	}

	/**
	 * Returns the connection error that ended the session, if one has.
	 * @return the error, or {@code null} while the session goes on
	 */
	public Http2Exception failure() {
		return this.failure;
	}

	/**
	 * Returns how many streams are open or half-closed: what counts against
	 * {@link Http2Limits#maxConcurrentStreams()}.
	 * @return the count
	 */
	public int activeStreams() {
		return this.streams.size();
	}

	/**
	 * Returns the highest stream id the client has opened.
	 * @return the id, 0 before the first stream
	 */
	public int lastStreamId() {
		return this.lastStreamId;
	}

	// Output

	/**
	 * Returns whether frames wait to be written.
	 * @return whether {@link #output} has bytes
	 */
	public boolean hasOutput() {
		return this.output.pending() > 0;
	}

	/**
	 * Returns how many bytes wait to be written: the protocol stops writing content while this is
	 * large, so that the output is bounded by the transport's back-pressure.
	 * @return the byte count
	 */
	public int pendingOutput() {
		return this.output.pending();
	}

	/**
	 * Returns the bytes to write, in read mode. Write from it, then call {@link #written}, before
	 * any other call on the session.
	 * @return the session's own buffer
	 */
	public ByteBuffer output() {
		return this.output.drain();
	}

	/**
	 * Ends a write from {@link #output}: what was written is dropped, the rest kept.
	 */
	public void written() {
		this.output.drained();
	}

	/**
	 * Returns how much content the server may send on a stream now: the smaller of its window and
	 * the connection's.
	 * @param streamId the stream
	 * @return the bytes, 0 when either window is closed or the stream cannot be written
	 */
	public int writable(int streamId) {
		SessionStream stream = writableStream(streamId);
		if (stream == null) {
			return 0;
		}
		return (int) Math.max(0, Math.min(stream.sendWindow.available(), this.sendWindow.available()));
	}

	/**
	 * Queues a response head (or an interim 1xx head) on a stream.
	 * @param streamId the stream
	 * @param status the status code
	 * @param headers the response fields; connection-specific ones are dropped
	 * @param endStream whether the response has no content and no trailers
	 * @return {@code false} when the stream can no longer be written (it was reset)
	 */
	public boolean writeHeaders(int streamId, int status, Headers headers, boolean endStream) {
		SessionStream stream = writableStream(streamId);
		if (stream == null) {
			return false;
		}
		this.encoder.startBlock();
		ResponseFields.head(status, headers, this.encoder::add);
		writeBlock(stream, this.encoder.endBlock(), endStream);
		return true;
	}

	/**
	 * Queues trailers, which end the stream.
	 * @param streamId the stream
	 * @param trailers the trailer fields
	 * @return {@code false} when the stream can no longer be written
	 */
	public boolean writeTrailers(int streamId, Headers trailers) {
		SessionStream stream = writableStream(streamId);
		if (stream == null) {
			return false;
		}
		this.encoder.startBlock();
		ResponseFields.trailers(trailers, this.encoder::add);
		writeBlock(stream, this.encoder.endBlock(), true);
		return true;
	}

	private void writeBlock(SessionStream stream, ByteBuffer block, boolean endStream) {
		int frameSize = (int) this.peer.get(Settings.MAX_FRAME_SIZE);
		ByteBuffer out = this.output.room(FrameWriter.headersLength(block.remaining(), frameSize));
		FrameWriter.headers(out, stream.id, block, endStream, frameSize);
		if (endStream) {
			localEnded(stream);
		}
	}

	/**
	 * Queues as much of a response's content as flow control allows, in frames of at most the
	 * client's {@code SETTINGS_MAX_FRAME_SIZE}.
	 * @param streamId the stream
	 * @param content the content, advanced past what was queued
	 * @param endStream whether the response ends with this content; applied only once all of it
	 * is queued
	 * @return the bytes queued, or -1 when the stream can no longer be written
	 */
	public int writeData(int streamId, ByteBuffer content, boolean endStream) {
		SessionStream stream = writableStream(streamId);
		if (stream == null) {
			return -1;
		}
		int frameSize = (int) this.peer.get(Settings.MAX_FRAME_SIZE);
		int total = 0;
		do {
			int length = Math.min(Math.min(content.remaining(), frameSize), writable(streamId));
			boolean last = endStream && length == content.remaining();
			if (length == 0 && !last) {
				break;
			}
			ByteBuffer out = this.output.room(FrameType.HEADER_LENGTH + length);
			FrameWriter.dataHeader(out, streamId, length, last);
			int limit = content.limit();
			content.limit(content.position() + length);
			out.put(content);
			content.limit(limit);
			stream.sendWindow.consume(length);
			this.sendWindow.consume(length);
			total += length;
			if (last) {
				localEnded(stream);
				break;
			}
		}
		while (content.hasRemaining());
		return total;
	}

	/**
	 * Resets a stream from the server's side, with {@code RST_STREAM}. The listener is not told:
	 * it asked.
	 * @param streamId the stream
	 * @param error the reason
	 */
	public void reset(int streamId, ErrorCode error) {
		SessionStream stream = this.streams.get(streamId);
		if (stream == null || this.failure != null) {
			return;
		}
		queueReset(streamId, error);
		close(stream, ClosedStreams.RESET_BY_SERVER);
	}

	/**
	 * Credits content the application has read, so that the client may send more: a
	 * {@code WINDOW_UPDATE} goes out once half a window has been read (for the stream, while the
	 * client may still send on it; and for the connection).
	 * @param streamId the stream the content was delivered on
	 * @param bytes how many bytes were read
	 */
	public void consumed(int streamId, int bytes) {
		SessionStream stream = this.streams.get(streamId);
		if (stream == null || bytes <= 0 || this.failure != null) {
			// A closed stream's content was credited to the connection when it closed.
			return;
		}
		int credit = (int) Math.min(bytes, stream.unconsumed);
		stream.unconsumed -= credit;
		if (stream.state.remoteOpen()) {
			stream.uncredited += credit;
			if (stream.uncredited >= this.limits.initialWindowSize() / 2) {
				queueWindowUpdate(streamId, (int) stream.uncredited);
				stream.receiveWindow += stream.uncredited;
				stream.uncredited = 0;
			}
		}
		creditConnection(credit);
	}

	/**
	 * Starts a graceful close: a {@code GOAWAY} with {@code NO_ERROR} and the last stream the
	 * client opened. The streams opened so far go on; later ones are ignored.
	 * @param debug a short reason, or {@code null}
	 */
	public void goAway(String debug) {
		if (this.goAwayStreamId >= 0 || this.failure != null) {
			return;
		}
		this.goAwayStreamId = this.lastStreamId;
		queueGoAway(this.lastStreamId, ErrorCode.NO_ERROR, debug);
	}

	/**
	 * Ends the session for a reason of the server's own (a defence against a client): a
	 * {@code GOAWAY} with the error and the last stream the client opened is queued, and the
	 * session takes nothing more, as after a connection error; write the output, then close. The
	 * listener is not told of the streams it has: the caller ends them.
	 * @param error the error code
	 * @param debug a short reason
	 */
	public void fail(ErrorCode error, String debug) {
		if (this.failure != null) {
			return;
		}
		this.failure = Http2Exception.connection(error, debug);
		int last = (this.goAwayStreamId >= 0) ? Math.min(this.goAwayStreamId, this.lastStreamId) : this.lastStreamId;
		this.goAwayStreamId = last;
		queueGoAway(last, error, debug);
	}

	// What SessionInput and the write methods share

	SessionStream open(int streamId) {
		SessionStream stream = new SessionStream(streamId, (int) this.peer.get(Settings.INITIAL_WINDOW_SIZE),
				this.limits.initialWindowSize());
		this.streams.put(stream);
		this.lastStreamId = streamId;
		return stream;
	}

	private SessionStream writableStream(int streamId) {
		SessionStream stream = this.streams.get(streamId);
		return (stream == null || !stream.state.localOpen() || this.failure != null) ? null : stream;
	}

	private void localEnded(SessionStream stream) {
		stream.state = stream.state.localEnded();
		if (stream.state == StreamState.CLOSED) {
			close(stream, ClosedStreams.ENDED);
		}
	}

	void remoteEnded(SessionStream stream) {
		stream.state = stream.state.remoteEnded();
		if (stream.state == StreamState.CLOSED) {
			close(stream, ClosedStreams.ENDED);
		}
	}

	/** Forgets a stream, crediting the connection with the content the application never read. */
	void close(SessionStream stream, byte how) {
		stream.state = StreamState.CLOSED;
		this.streams.remove(stream.id);
		this.closed.add(stream.id, how);
		creditConnection(stream.unconsumed);
		stream.unconsumed = 0;
	}

	void creditConnection(long bytes) {
		this.uncredited += bytes;
		if (this.uncredited > 0 && this.uncredited >= this.limits.connectionWindowSize() / 2) {
			queueWindowUpdate(0, (int) this.uncredited);
			this.receiveWindow += this.uncredited;
			this.uncredited = 0;
		}
	}

	void queueReset(int streamId, ErrorCode error) {
		FrameWriter.rstStream(this.output.room(13), streamId, error);
	}

	void queueWindowUpdate(int streamId, int increment) {
		FrameWriter.windowUpdate(this.output.room(13), streamId, increment);
	}

	private void queueGoAway(int lastStreamId, ErrorCode error, String debug) {
		int debugLength = (debug != null) ? debug.length() : 0;
		FrameWriter.goAway(this.output.room(FrameType.HEADER_LENGTH + 8 + debugLength), lastStreamId, error, debug);
	}

	/** Puts the client's settings in force, adjusting every stream's window to a new initial size. */
	void applySettings(Settings settings) throws Http2Exception {
		if (settings.has(Settings.INITIAL_WINDOW_SIZE)) {
			long delta = settings.get(Settings.INITIAL_WINDOW_SIZE) - this.peer.get(Settings.INITIAL_WINDOW_SIZE);
			Http2Exception[] overflow = new Http2Exception[1];
			this.streams.forEach((stream) -> {
				if (!stream.sendWindow.increase(delta) && overflow[0] == null) {
					overflow[0] = Http2Exception.connection(ErrorCode.FLOW_CONTROL_ERROR,
							"SETTINGS_INITIAL_WINDOW_SIZE overflows a stream window");
				}
			});
			if (overflow[0] != null) {
				throw overflow[0];
			}
			settings.applyTo(this.peer);
			if (delta > 0) {
				this.listener.writable(0);
			}
		}
		else {
			settings.applyTo(this.peer);
		}
		if (settings.has(Settings.HEADER_TABLE_SIZE)) {
			this.encoder.peerMaxTableSize((int) Math.min(Integer.MAX_VALUE, settings.get(Settings.HEADER_TABLE_SIZE)));
		}
	}

}
