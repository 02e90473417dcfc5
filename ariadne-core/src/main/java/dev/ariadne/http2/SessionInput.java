package dev.ariadne.http2;

import java.nio.ByteBuffer;

import dev.ariadne.http.Headers;
import dev.ariadne.http.RequestHead;

/**
 * The frames of a {@link Http2Session}'s client, checked against the connection's state: the
 * first frame, stream states, header blocks, flow control, settings. Stream errors are answered
 * here with {@code RST_STREAM}; connection errors are thrown to the session.
 */
final class SessionInput implements FrameListener {

	/** What a header block in progress will be, once complete. */
	private enum Block {

		/** A new stream's request. */
		REQUEST,

		/** A stream's trailers. */
		TRAILERS,

		/** Decoded only to keep HPACK in step: its stream was reset, refused or is being ignored. */
		IGNORED

	}

	/** Takes the fields of blocks decoded only to keep HPACK in step. */
	private static final HeaderListener DISCARD = (name, value) -> {
	};

	private final Http2Session session;

	private final SessionGuard guard;

	private boolean settingsReceived;

	// The header block in progress (blockStream 0: none).

	private int blockStream;

	private Block blockKind;

	private boolean blockEndStream;

	private int blockContinuations;

	private ErrorCode blockError;

	private final BlockBuffer blockBytes = new BlockBuffer();

	// The DATA frame in progress.

	private SessionStream dataStream;

	private int dataFlow;

	private int dataContent;

	private boolean dataEndStream;

	private final RequestFields fields;

	SessionInput(Http2Session session) {
		this.session = session;
		this.guard = new SessionGuard(session.limits);
		this.fields = new RequestFields(session.limits.parserLimits(), false);
	}

	// Settings, ping, goaway, window updates

	@Override
	public void settings(Settings settings) throws Http2Exception {
		first(true);
		this.guard.control("SETTINGS");
		this.session.applySettings(settings);
		FrameWriter.settingsAck(this.session.output.room(FrameType.HEADER_LENGTH));
	}

	@Override
	public void settingsAck() throws Http2Exception {
		first(false);
	}

	@Override
	public void ping(boolean ack, long payload) throws Http2Exception {
		first(false);
		// the server sends no PING of its own, so an acknowledgement costs as much as a PING
		this.guard.control("PING");
		if (!ack) {
			FrameWriter.ping(this.session.output.room(FrameType.HEADER_LENGTH + 8), true, payload);
		}
	}

	@Override
	public void goAway(int lastStreamId, int errorCode, ByteBuffer debug) throws Http2Exception {
		first(false);
		this.session.listener.goAway(lastStreamId, ErrorCode.of(errorCode));
	}

	@Override
	public void windowUpdate(int streamId, int increment) throws Http2Exception {
		first(false);
		Http2Session session = this.session;
		if (streamId == 0) {
			this.guard.credit(session.sendWindow, increment);
			if (increment == 0) {
				throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE of 0 on the connection");
			}
			if (!session.sendWindow.increase(increment)) {
				throw Http2Exception.connection(ErrorCode.FLOW_CONTROL_ERROR, "Connection window above 2^31-1");
			}
			session.listener.writable(0);
			return;
		}
		SessionStream stream = existing(streamId, "WINDOW_UPDATE", true);
		if (stream == null) {
			// clients credit a stream's last content after it ended: nothing to count
			return;
		}
		this.guard.credit(stream.sendWindow, increment);
		if (increment == 0) {
			streamError(stream, ErrorCode.PROTOCOL_ERROR);
		}
		else if (!stream.sendWindow.increase(increment)) {
			streamError(stream, ErrorCode.FLOW_CONTROL_ERROR);
		}
		else {
			session.listener.writable(streamId);
		}
	}

	@Override
	public void rstStream(int streamId, int errorCode) throws Http2Exception {
		first(false);
		SessionStream stream = existing(streamId, "RST_STREAM", true);
		if (stream != null) {
			this.session.close(stream, ClosedStreams.RESET_BY_PEER);
			if (stream.delivered) {
				this.session.listener.reset(streamId, ErrorCode.of(errorCode), true);
			}
		}
	}

	@Override
	public void priority(int streamId, int dependency) throws Http2Exception {
		first(false);
		this.guard.control("PRIORITY");
		if (streamId == dependency) {
			SessionStream stream = this.session.streams.get(streamId);
			if (stream != null) {
				streamError(stream, ErrorCode.PROTOCOL_ERROR);
			}
			else {
				provokedReset(streamId, ErrorCode.PROTOCOL_ERROR);
			}
		}
		// Otherwise ignored: RFC 9113 deprecates the priority tree, and a PRIORITY frame may name
		// any stream, idle ones included, without opening it.
	}

	@Override
	public void pushPromise(int streamId) throws Http2Exception {
		first(false);
		throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "PUSH_PROMISE from a client");
	}

	@Override
	public void unknownFrame(int type, int streamId) throws Http2Exception {
		first(false);
		this.guard.control("frames of unknown types");
	}

	@Override
	public void streamError(int streamId, ErrorCode error, String reason) throws Http2Exception {
		first(false);
		SessionStream stream = this.session.streams.get(streamId);
		if (stream != null) {
			streamError(stream, error);
		}
		else {
			provokedReset(streamId, error);
		}
	}

	// Header blocks

	@Override
	public void headers(int streamId, ByteBuffer fragment, int dependency, boolean endHeaders, boolean endStream)
			throws Http2Exception {
		first(false);
		Http2Session session = this.session;
		if ((streamId & 1) == 0) {
			throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "HEADERS on an even stream id");
		}
		this.blockStream = streamId;
		this.blockEndStream = endStream;
		this.blockContinuations = 0;
		this.blockError = null;
		this.blockBytes.clear();
		SessionStream stream = session.streams.get(streamId);
		if (stream != null) {
			this.blockKind = Block.TRAILERS;
			if (!stream.state.remoteOpen()) {
				// HEADERS on a half-closed stream
				blockError(ErrorCode.STREAM_CLOSED);
			}
			else if (!endStream) {
				// trailers without END_STREAM
				blockError(ErrorCode.PROTOCOL_ERROR);
			}
		}
		else if (streamId > session.lastStreamId) {
			this.blockKind = Block.REQUEST;
			session.lastStreamId = streamId;
			if (session.goAwayStreamId >= 0) {
				// After a GOAWAY, new streams are ignored (RFC 9113 §6.8); the block still updates HPACK.
				this.blockKind = Block.IGNORED;
			}
		}
		else if (session.closed.kind(streamId) == ClosedStreams.RESET_BY_SERVER) {
			this.blockKind = Block.IGNORED;
		}
		else if (session.closed.kind(streamId) != 0) {
			throw Http2Exception.connection(ErrorCode.STREAM_CLOSED, "HEADERS on a closed stream");
		}
		else {
			throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "HEADERS on a stream id lower than one used");
		}
		if (dependency == streamId) {
			// a stream that depends on itself
			blockError(ErrorCode.PROTOCOL_ERROR);
		}
		if (endHeaders) {
			this.guard.blockSize(fragment.remaining());
			endBlock(fragment);
		}
		else {
			append(fragment);
		}
	}

	@Override
	public void continuation(int streamId, ByteBuffer fragment, boolean endHeaders) throws Http2Exception {
		if (!this.settingsReceived) {
			first(false);
		}
		if (this.blockStream == 0 || streamId != this.blockStream) {
			throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "CONTINUATION without a header block in progress");
		}
		this.guard.continuations(++this.blockContinuations);
		append(fragment);
		if (endHeaders) {
			endBlock(this.blockBytes.contents());
		}
	}

	private void append(ByteBuffer fragment) throws Http2Exception {
		this.guard.blockSize(this.blockBytes.length() + fragment.remaining());
		this.blockBytes.append(fragment, this.session.limits.maxHeaderBlockSize());
	}

	/** Keeps the first error of the block in progress, answered once it is decoded. */
	private void blockError(ErrorCode error) {
		if (this.blockError == null) {
			this.blockError = error;
		}
	}

	private void endBlock(ByteBuffer block) throws Http2Exception {
		Http2Session session = this.session;
		int streamId = this.blockStream;
		Block kind = this.blockKind;
		boolean endStream = this.blockEndStream;
		this.blockStream = 0;
		if (kind == Block.IGNORED) {
			session.decoder.decode(block, DISCARD);
			return;
		}
		this.fields.reset();
		boolean fits = session.decoder.decode(block, this.fields);
		if (kind == Block.TRAILERS) {
			endTrailers(session.streams.get(streamId), fits);
			return;
		}
		SessionStream stream = session.open(streamId);
		stream.state = endStream ? StreamState.HALF_CLOSED_REMOTE : StreamState.OPEN;
		if (this.blockError != null) {
			refuse(stream, this.blockError);
			return;
		}
		if (session.streams.size() > session.limits.maxConcurrentStreams()) {
			refuse(stream, ErrorCode.REFUSED_STREAM);
			return;
		}
		if (!fits) {
			stream.delivered = true;
			session.listener.headersTooLarge(streamId, endStream);
			return;
		}
		RequestHead head;
		try {
			head = this.fields.head(streamId, endStream);
		}
		catch (Http2Exception ex) {
			if (this.fields.tooLarge()) {
				stream.delivered = true;
				session.listener.headersTooLarge(streamId, endStream);
			}
			else {
				refuse(stream, ex.error());
			}
			return;
		}
		stream.declaredLength = head.contentLength();
		stream.delivered = true;
		session.listener.request(streamId, head, endStream);
	}

	private void endTrailers(SessionStream stream, boolean fits) throws Http2Exception {
		if (stream == null) {
			return;
		}
		if (this.blockError != null) {
			streamError(stream, this.blockError);
			return;
		}
		Headers trailers;
		try {
			trailers = this.fields.trailers(stream.id);
		}
		catch (Http2Exception ex) {
			streamError(stream, ex.error());
			return;
		}
		if (!fits || !lengthMatches(stream)) {
			streamError(stream, ErrorCode.PROTOCOL_ERROR);
			return;
		}
		this.session.remoteEnded(stream);
		this.session.listener.trailers(stream.id, trailers);
	}

	private void refuse(SessionStream stream, ErrorCode error) throws Http2Exception {
		provokedReset(stream.id, error);
		this.session.close(stream, ClosedStreams.RESET_BY_SERVER);
	}

	// DATA

	@Override
	public void dataFrame(int streamId, int flowLength, boolean endStream) throws Http2Exception {
		first(false);
		Http2Session session = this.session;
		// The connection window counts every DATA frame, whatever becomes of its stream.
		if (flowLength > session.receiveWindow) {
			throw Http2Exception.connection(ErrorCode.FLOW_CONTROL_ERROR, "DATA beyond the connection window");
		}
		session.receiveWindow -= flowLength;
		if (flowLength == 0 && !endStream) {
			this.guard.control("empty DATA");
		}
		this.dataFlow = flowLength;
		this.dataContent = 0;
		this.dataEndStream = endStream;
		this.dataStream = null;
		SessionStream stream = existing(streamId, "DATA", false);
		if (stream == null) {
			return;
		}
		if (!stream.state.remoteOpen()) {
			streamError(stream, ErrorCode.STREAM_CLOSED);
			return;
		}
		if (flowLength > stream.receiveWindow) {
			streamError(stream, ErrorCode.FLOW_CONTROL_ERROR);
			return;
		}
		stream.receiveWindow -= flowLength;
		this.dataStream = stream;
	}

	@Override
	public void data(int streamId, ByteBuffer content, boolean endOfFrame) throws Http2Exception {
		SessionStream stream = this.dataStream;
		int length = content.remaining();
		this.dataContent += length;
		if (stream != null && stream.state == StreamState.CLOSED) {
			// Reset while its frame was being read.
			stream = null;
			this.dataStream = null;
		}
		if (stream == null) {
			this.session.creditConnection(length);
		}
		else {
			stream.received += length;
			if (stream.declaredLength >= 0 && stream.received > stream.declaredLength) {
				this.session.creditConnection(length);
				streamError(stream, ErrorCode.PROTOCOL_ERROR);
				this.dataStream = null;
				stream = null;
			}
		}
		if (!endOfFrame) {
			if (stream != null && length > 0) {
				stream.unconsumed += length;
				this.session.listener.data(streamId, content, false);
			}
			return;
		}
		// Padding is flow-controlled but never reaches the application: credit it at once.
		this.session.creditConnection(this.dataFlow - this.dataContent);
		if (stream == null) {
			return;
		}
		if (stream.state.remoteOpen()) {
			stream.uncredited += this.dataFlow - this.dataContent;
		}
		boolean end = this.dataEndStream;
		if (end && !lengthMatches(stream)) {
			streamError(stream, ErrorCode.PROTOCOL_ERROR);
			return;
		}
		stream.unconsumed += length;
		if (end) {
			this.session.remoteEnded(stream);
		}
		if (length > 0 || end) {
			this.session.listener.data(streamId, content, end);
		}
		this.dataStream = null;
	}

	private static boolean lengthMatches(SessionStream stream) {
		return stream.declaredLength < 0 || stream.declaredLength == stream.received;
	}

	// Shared checks

	/**
	 * Checks what every frame must: the client's first frame is its {@code SETTINGS}, and no
	 * frame comes between a header block's frames.
	 */
	private void first(boolean isSettings) throws Http2Exception {
		if (!this.settingsReceived) {
			if (!isSettings) {
				throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "The client's first frame must be SETTINGS");
			}
			this.settingsReceived = true;
		}
		if (this.blockStream != 0) {
			throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "A frame inside a header block");
		}
	}

	/**
	 * Returns the open stream a frame is on; {@code null} when the frame is to be ignored (its
	 * stream was reset by the server, or is closed and forgotten). {@code allowedOnClosed}: the
	 * frame may still come once the client has closed the stream (RFC 9113 §5.1).
	 */
	private SessionStream existing(int streamId, String frame, boolean allowedOnClosed) throws Http2Exception {
		Http2Session session = this.session;
		SessionStream stream = session.streams.get(streamId);
		if (stream != null) {
			return stream;
		}
		if (streamId > session.lastStreamId || (streamId & 1) == 0) {
			throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, frame + " on an idle stream");
		}
		byte kind = session.closed.kind(streamId);
		if (!allowedOnClosed && (kind == ClosedStreams.ENDED || kind == ClosedStreams.RESET_BY_PEER)) {
			throw Http2Exception.connection(ErrorCode.STREAM_CLOSED, frame + " on a closed stream");
		}
		return null;
	}

	/**
	 * Resets a stream for what the client sent on it; too many within the rate window end the
	 * connection (MadeYouReset).
	 */
	private void provokedReset(int streamId, ErrorCode error) throws Http2Exception {
		this.session.queueReset(streamId, error);
		this.guard.provokedReset();
	}

	private void streamError(SessionStream stream, ErrorCode error) throws Http2Exception {
		provokedReset(stream.id, error);
		this.session.close(stream, ClosedStreams.RESET_BY_SERVER);
		if (stream.delivered) {
			this.session.listener.reset(stream.id, error, false);
		}
	}

}
