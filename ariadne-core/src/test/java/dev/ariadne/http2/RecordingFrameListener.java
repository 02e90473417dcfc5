package dev.ariadne.http2;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A listener that writes what the reader reports as one line per event, so that tests compare
 * plain lists of strings:
 * <ul>
 * <li>{@code data 1 flow=7 'abc' endStream}: a {@code DATA} frame, its pieces joined, so that the
 * event does not depend on how the input was split;</li>
 * <li>{@code headers 1 'abc' dep=3 endHeaders endStream}, {@code continuation 1 'abc' endHeaders};</li>
 * <li>{@code priority 3 dep=1}, {@code rstStream 1 code=8}, {@code windowUpdate 0 +100};</li>
 * <li>{@code settings Settings{...}}, {@code settingsAck}, {@code ping 0x1122334455667788 ack};</li>
 * <li>{@code goAway last=5 code=2 'debug'}, {@code pushPromise 1}, {@code unknown 0xa on 1},
 * {@code streamError 3 FRAME_SIZE_ERROR}.</li>
 * </ul>
 * It also checks the reader's side of the contract: buffers are read-only, {@code data} pieces
 * come between {@code dataFrame} and the piece marked last, only the last may be empty, and no
 * more content than the flow length arrives.
 */
class RecordingFrameListener implements FrameListener {

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private final List<String> events = new ArrayList<>();

	private final ByteArrayOutputStream content = new ByteArrayOutputStream();

	/** The {@code DATA} frame being collected: its event's start, or null between frames. */
	private String dataStart;

	private int dataStream;

	private int dataFlow;

	private boolean dataEndStream;

	/** Called after every event, for tests that look at the reader during a call. */
	private Runnable probe = () -> {
	};

	List<String> events() {
		return this.events;
	}

	/** Whether a {@code DATA} frame's pieces are still expected. */
	boolean inData() {
		return this.dataStart != null;
	}

	RecordingFrameListener probe(Runnable probe) {
		this.probe = probe;
		return this;
	}

	@Override
	public void dataFrame(int streamId, int flowLength, boolean endStream) {
		check(this.dataStart == null, "dataFrame inside a DATA frame");
		check(streamId != 0, "DATA on stream 0");
		this.dataStart = "data " + streamId + " flow=" + flowLength;
		this.dataStream = streamId;
		this.dataFlow = flowLength;
		this.dataEndStream = endStream;
		this.content.reset();
		this.probe.run();
	}

	@Override
	public void data(int streamId, ByteBuffer content, boolean endOfFrame) {
		check(this.dataStart != null, "data outside a DATA frame");
		check(streamId == this.dataStream, "data on stream " + streamId + " inside a DATA frame on " + this.dataStream);
		check(content.isReadOnly(), "a writable data buffer");
		check(content.hasRemaining() || endOfFrame, "an empty data piece that is not the last");
		this.content.writeBytes(bytes(content));
		check(this.content.size() <= this.dataFlow, "more content than the flow length");
		if (endOfFrame) {
			this.events.add(this.dataStart + " " + quote(this.content.toByteArray())
					+ (this.dataEndStream ? " endStream" : ""));
			this.dataStart = null;
		}
		this.probe.run();
	}

	@Override
	public void headers(int streamId, ByteBuffer fragment, int dependency, boolean endHeaders, boolean endStream) {
		add("headers " + streamId + " " + quote(fragment) + ((dependency >= 0) ? " dep=" + dependency : "")
				+ (endHeaders ? " endHeaders" : "") + (endStream ? " endStream" : ""));
	}

	@Override
	public void continuation(int streamId, ByteBuffer fragment, boolean endHeaders) {
		add("continuation " + streamId + " " + quote(fragment) + (endHeaders ? " endHeaders" : ""));
	}

	@Override
	public void priority(int streamId, int dependency) {
		add("priority " + streamId + " dep=" + dependency);
	}

	@Override
	public void rstStream(int streamId, int errorCode) {
		add("rstStream " + streamId + " code=" + errorCode);
	}

	@Override
	public void settings(Settings settings) {
		add("settings " + settings);
	}

	@Override
	public void settingsAck() {
		add("settingsAck");
	}

	@Override
	public void pushPromise(int streamId) {
		add("pushPromise " + streamId);
	}

	@Override
	public void ping(boolean ack, long payload) throws Http2Exception {
		add(String.format("ping 0x%016x", payload) + (ack ? " ack" : ""));
	}

	@Override
	public void goAway(int lastStreamId, int errorCode, ByteBuffer debug) {
		add("goAway last=" + lastStreamId + " code=" + errorCode + " " + quote(debug));
	}

	@Override
	public void windowUpdate(int streamId, int increment) {
		add("windowUpdate " + streamId + " +" + increment);
	}

	@Override
	public void unknownFrame(int type, int streamId) {
		add("unknown 0x" + Integer.toHexString(type) + " on " + streamId);
	}

	@Override
	public void streamError(int streamId, ErrorCode error, String reason) {
		check(reason != null && !reason.isEmpty(), "a stream error without a reason");
		add("streamError " + streamId + " " + error);
	}

	private void add(String event) {
		check(this.dataStart == null, "'" + event + "' inside a DATA frame");
		this.events.add(event);
		this.probe.run();
	}

	private String quote(ByteBuffer buffer) {
		check(buffer.isReadOnly(), "a writable buffer");
		return quote(bytes(buffer));
	}

	private static byte[] bytes(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.remaining()];
		buffer.duplicate().get(bytes);
		return bytes;
	}

	/** Printable ASCII as is, other bytes as {@code \xNN}. */
	static String quote(byte[] bytes) {
		StringBuilder text = new StringBuilder("'");
		for (byte b : bytes) {
			int c = b & 0xff;
			if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
				text.append((char) c);
			}
			else {
				text.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xf]);
			}
		}
		return text.append('\'').toString();
	}

	private static void check(boolean condition, String what) {
		if (!condition) {
			throw new AssertionError("Listener contract broken: " + what);
		}
	}

}
