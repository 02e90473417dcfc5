package dev.ariadne.http2;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import dev.ariadne.http.Headers;
import dev.ariadne.http.RequestHead;

/**
 * A test client of a {@link Http2Session}: it frames what a client sends, feeds it to the session
 * whole or in pieces, and reads the session's output back into one line per frame, with the
 * listener's events as lines too.
 */
final class SessionClient implements SessionListener {

	/** How the client's bytes reach the session. */
	enum Feed {

		/** In one call. */
		WHOLE,

		/** One byte per call. */
		BYTES,

		/** Split in two at the middle. */
		HALVES

	}

	final Http2Session session;

	final List<String> events = new ArrayList<>();

	final List<RequestHead> heads = new ArrayList<>();

	private final HpackEncoder encoder = new HpackEncoder(Settings.DEFAULT_HEADER_TABLE_SIZE);

	private final HpackDecoder decoder = new HpackDecoder(Settings.DEFAULT_HEADER_TABLE_SIZE, 1 << 20);

	private final FrameReader outputReader = new FrameReader(FrameType.MAX_MAX_FRAME_SIZE);

	private final ByteBuffer pending = ByteBuffer.allocate(4 << 20);

	private final Feed feed;

	private boolean open = true;

	SessionClient(Http2Limits limits, Feed feed) {
		this.session = new Http2Session(limits, this);
		this.feed = feed;
		this.session.start();
	}

	SessionClient(Feed feed) {
		this(Http2Limits.DEFAULTS, feed);
	}

	/** Sends the preface and an empty SETTINGS, and reads the server's preface and its ACK. */
	SessionClient connect() {
		preface();
		settings(new Settings());
		send();
		return this;
	}

	SessionClient preface() {
		for (int i = 0; i < Preface.LENGTH; i++) {
			this.pending.put(Preface.bytes().get(i));
		}
		return this;
	}

	SessionClient settings(Settings settings) {
		FrameWriter.settings(this.pending, settings);
		return this;
	}

	SessionClient raw(int length, int type, int flags, int streamId, byte... payload) {
		FrameWriter.header(this.pending, length, type, flags, streamId);
		this.pending.put(payload);
		return this;
	}

	SessionClient request(int streamId, boolean endStream, String... fields) {
		FrameWriter.headers(this.pending, streamId, block(fields), endStream, FrameType.MIN_MAX_FRAME_SIZE);
		return this;
	}

	SessionClient get(int streamId, String path) {
		return request(streamId, true, ":method", "GET", ":scheme", "https", ":authority", "example.com", ":path", path);
	}

	SessionClient post(int streamId, String... more) {
		String[] fields = new String[8 + more.length];
		System.arraycopy(new String[] { ":method", "POST", ":scheme", "https", ":authority", "example.com", ":path",
				"/upload" }, 0, fields, 0, 8);
		System.arraycopy(more, 0, fields, 8, more.length);
		return request(streamId, false, fields);
	}

	ByteBuffer block(String... fields) {
		this.encoder.startBlock();
		for (int i = 0; i < fields.length; i += 2) {
			this.encoder.add(fields[i], fields[i + 1]);
		}
		ByteBuffer block = this.encoder.endBlock();
		ByteBuffer copy = ByteBuffer.allocate(block.remaining());
		copy.put(block).flip();
		return copy;
	}

	SessionClient data(int streamId, String content, boolean endStream) {
		FrameWriter.dataHeader(this.pending, streamId, content.length(), endStream);
		this.pending.put(content.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
		return this;
	}

	SessionClient windowUpdate(int streamId, int increment) {
		FrameWriter.windowUpdate(this.pending, streamId, increment);
		return this;
	}

	SessionClient rst(int streamId, ErrorCode error) {
		FrameWriter.rstStream(this.pending, streamId, error);
		return this;
	}

	SessionClient ping(long payload) {
		FrameWriter.ping(this.pending, false, payload);
		return this;
	}

	/** Feeds everything framed so far to the session, then reads its output. */
	SessionClient send() {
		this.pending.flip();
		byte[] bytes = new byte[this.pending.remaining()];
		this.pending.get(bytes);
		this.pending.clear();
		switch (this.feed) {
			case WHOLE -> receive(ByteBuffer.wrap(bytes));
			case BYTES -> {
				for (int i = 0; i < bytes.length && this.open; i++) {
					receive(ByteBuffer.wrap(bytes, i, 1));
				}
			}
			case HALVES -> {
				receive(ByteBuffer.wrap(bytes, 0, bytes.length / 2));
				receive(ByteBuffer.wrap(bytes, bytes.length / 2, bytes.length - bytes.length / 2));
			}
		}
		return read();
	}

	private void receive(ByteBuffer bytes) {
		this.open = this.session.receive(bytes) && this.open;
	}

	/** The bytes framed and not yet sent, for frames this class has no method for. */
	ByteBuffer pending() {
		return this.pending;
	}

	boolean open() {
		return this.open;
	}

	/** Reads the session's output into events. */
	SessionClient read() {
		if (this.session.hasOutput()) {
			ByteBuffer out = this.session.output();
			try {
				this.outputReader.read(out, new OutputFrames());
			}
			catch (Http2Exception ex) {
				throw new AssertionError("The server sent an invalid frame: " + ex.getMessage(), ex);
			}
			this.session.written();
		}
		return this;
	}

	/** Returns the events since the last call, and forgets them. */
	List<String> take() {
		List<String> taken = new ArrayList<>(this.events);
		this.events.clear();
		return taken;
	}

	// What the session tells its listener

	@Override
	public void request(int streamId, RequestHead head, boolean endStream) {
		this.heads.add(head);
		this.events.add("request " + streamId + " " + head.method() + " " + head.target() + (endStream ? " end" : ""));
	}

	@Override
	public void headersTooLarge(int streamId, boolean endStream) {
		this.events.add("too large " + streamId);
	}

	@Override
	public void data(int streamId, ByteBuffer content, boolean endStream) {
		byte[] bytes = new byte[content.remaining()];
		content.get(bytes);
		String text = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
		// Pieces of one stream's content in a row make one event, however the input was split.
		String prefix = "data " + streamId + " ";
		int last = this.events.size() - 1;
		if (last >= 0 && this.events.get(last).startsWith(prefix) && !this.events.get(last).endsWith(" end")) {
			this.events.set(last, this.events.get(last) + text + (endStream ? " end" : ""));
		}
		else {
			this.events.add(prefix + text + (endStream ? " end" : ""));
		}
	}

	@Override
	public void trailers(int streamId, Headers trailers) {
		StringBuilder text = new StringBuilder("trailers " + streamId);
		for (int i = 0; i < trailers.size(); i++) {
			text.append(' ').append(trailers.name(i)).append('=').append(trailers.value(i));
		}
		this.events.add(text.toString());
	}

	@Override
	public void reset(int streamId, ErrorCode error, boolean byPeer) {
		this.events.add("reset " + streamId + " " + error + (byPeer ? " by peer" : ""));
	}

	@Override
	public void writable(int streamId) {
		this.events.add("writable " + streamId);
	}

	@Override
	public void goAway(int lastStreamId, ErrorCode error) {
		this.events.add("goaway from peer " + lastStreamId + " " + error);
	}

	/** The server's frames, as events. */
	private final class OutputFrames implements FrameListener {

		private final StringBuilder data = new StringBuilder();

		@Override
		public void dataFrame(int streamId, int flowLength, boolean endStream) {
			this.data.setLength(0);
			this.data.append("DATA ").append(streamId).append(' ').append(flowLength).append(endStream ? " end" : "");
		}

		@Override
		public void data(int streamId, ByteBuffer content, boolean endOfFrame) {
			if (endOfFrame) {
				SessionClient.this.events.add(this.data.toString());
			}
		}

		@Override
		public void headers(int streamId, ByteBuffer fragment, int dependency, boolean endHeaders, boolean endStream)
				throws Http2Exception {
			StringBuilder text = new StringBuilder("HEADERS " + streamId + (endStream ? " end" : ""));
			SessionClient.this.decoder.decode(fragment, (name, value) -> text.append(' ').append(name).append('=').append(value));
			SessionClient.this.events.add(text.toString());
		}

		@Override
		public void continuation(int streamId, ByteBuffer fragment, boolean endHeaders) {
			SessionClient.this.events.add("CONTINUATION " + streamId);
		}

		@Override
		public void priority(int streamId, int dependency) {
			SessionClient.this.events.add("PRIORITY " + streamId);
		}

		@Override
		public void rstStream(int streamId, int errorCode) {
			SessionClient.this.events.add("RST_STREAM " + streamId + " " + ErrorCode.of(errorCode));
		}

		@Override
		public void settings(Settings settings) {
			SessionClient.this.events.add("SETTINGS " + settings);
		}

		@Override
		public void settingsAck() {
			SessionClient.this.events.add("SETTINGS ACK");
		}

		@Override
		public void pushPromise(int streamId) {
			SessionClient.this.events.add("PUSH_PROMISE " + streamId);
		}

		@Override
		public void ping(boolean ack, long payload) {
			SessionClient.this.events.add("PING" + (ack ? " ACK " : " ") + payload);
		}

		@Override
		public void goAway(int lastStreamId, int errorCode, ByteBuffer debug) {
			SessionClient.this.events.add("GOAWAY " + lastStreamId + " " + ErrorCode.of(errorCode));
		}

		@Override
		public void windowUpdate(int streamId, int increment) {
			SessionClient.this.events.add("WINDOW_UPDATE " + streamId + " " + increment);
		}

		@Override
		public void unknownFrame(int type, int streamId) {
			SessionClient.this.events.add("UNKNOWN " + type);
		}

		@Override
		public void streamError(int streamId, ErrorCode error, String reason) {
			SessionClient.this.events.add("bad frame " + streamId);
		}

	}

}
