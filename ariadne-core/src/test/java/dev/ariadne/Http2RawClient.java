package dev.ariadne;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.ariadne.http2.ErrorCode;
import dev.ariadne.http2.FrameType;
import dev.ariadne.http2.FrameWriter;
import dev.ariadne.http2.HpackDecoder;
import dev.ariadne.http2.HpackEncoder;
import dev.ariadne.http2.Preface;
import dev.ariadne.http2.Settings;

/**
 * A hostile HTTP/2 client for tests: it writes frames as it is told (requests, resets), with
 * no flow control or rules of its own, and a thread reads what the server sends into a queue of
 * frames, so that a test can look for a {@code GOAWAY} or a {@code RST_STREAM}.
 */
final class Http2RawClient implements AutoCloseable {

	/** A frame the server sent. */
	record Frame(int type, int flags, int streamId, byte[] payload) {

		/** The error code of a {@code GOAWAY} or a {@code RST_STREAM}. */
		int errorCode() {
			ByteBuffer bytes = ByteBuffer.wrap(this.payload);
			return (this.type == FrameType.GOAWAY) ? bytes.getInt(4) : bytes.getInt(0);
		}

	}

	/** What the reader puts last: the server closed the connection. */
	static final Frame CLOSED = new Frame(-1, 0, 0, new byte[0]);

	private final Socket socket;

	private final OutputStream out;

	private final HpackEncoder encoder = new HpackEncoder(Settings.DEFAULT_HEADER_TABLE_SIZE);

	private final HpackDecoder decoder = new HpackDecoder(Settings.DEFAULT_HEADER_TABLE_SIZE, 1 << 20);

	private final ByteBuffer buffer = ByteBuffer.allocate(1 << 20);

	private final LinkedBlockingQueue<Frame> frames = new LinkedBlockingQueue<>();

	private final Thread reader;

	private Http2RawClient(Socket socket) throws IOException {
		this.socket = socket;
		this.out = socket.getOutputStream();
		this.reader = new Thread(this::read, "h2-raw-reader");
		this.reader.setDaemon(true);
		this.reader.start();
	}

	/**
	 * Connects, and sends the preface and an empty {@code SETTINGS}.
	 * @param port the server's port
	 * @return the client
	 * @throws IOException if the connection failed
	 */
	static Http2RawClient connect(int port) throws IOException {
		Socket socket = new Socket();
		socket.connect(new InetSocketAddress(RawClient.LOOPBACK, port), 5000);
		socket.setTcpNoDelay(true);
		Http2RawClient client = new Http2RawClient(socket);
		ByteBuffer preface = Preface.bytes();
		byte[] bytes = new byte[preface.remaining()];
		preface.get(bytes);
		client.out.write(bytes);
		client.buffer.clear();
		FrameWriter.settings(client.buffer, new Settings());
		client.send();
		return client;
	}

	/**
	 * Queues a {@code GET} without content on a stream; {@link #flush} sends what is queued.
	 * @param streamId the stream, odd
	 * @param path the path
	 * @return this client
	 */
	Http2RawClient get(int streamId, String path) {
		return request(streamId, "GET", path, true);
	}

	/**
	 * Queues a {@code POST} whose content follows in {@link #data} frames.
	 * @param streamId the stream, odd
	 * @param path the path
	 * @return this client
	 */
	Http2RawClient post(int streamId, String path) {
		return request(streamId, "POST", path, false);
	}

	private Http2RawClient request(int streamId, String method, String path, boolean endStream) {
		this.encoder.startBlock();
		this.encoder.add(":method", method);
		this.encoder.add(":scheme", "http");
		this.encoder.add(":authority", "localhost");
		this.encoder.add(":path", path);
		FrameWriter.headers(this.buffer, streamId, this.encoder.endBlock(), endStream, 16384);
		return this;
	}

	/**
	 * Queues a {@code GET} the server must reset (a field name in upper case, RFC 9113 §8.2.1)
	 * without ending the connection: a stream error the client provokes.
	 * @param streamId the stream, odd
	 * @return this client
	 */
	Http2RawClient malformed(int streamId) {
		this.encoder.startBlock();
		this.encoder.add(":method", "GET");
		this.encoder.add(":scheme", "http");
		this.encoder.add(":authority", "localhost");
		this.encoder.add(":path", "/");
		this.encoder.add("Upper", "x");
		FrameWriter.headers(this.buffer, streamId, this.encoder.endBlock(), true, 16384);
		return this;
	}

	/**
	 * Queues a {@code DATA} frame of zeros.
	 * @param streamId the stream
	 * @param length the content's length, at most 16,384
	 * @param endStream whether the request ends with it
	 * @return this client
	 */
	Http2RawClient data(int streamId, int length, boolean endStream) {
		FrameWriter.dataHeader(this.buffer, streamId, length, endStream);
		this.buffer.put(new byte[length]);
		return this;
	}

	/**
	 * Queues a trailer block, which ends the stream.
	 * @param streamId the stream
	 * @param name a field name, lower case
	 * @param value its value
	 * @return this client
	 */
	Http2RawClient trailers(int streamId, String name, String value) {
		this.encoder.startBlock();
		this.encoder.add(name, value);
		FrameWriter.headers(this.buffer, streamId, this.encoder.endBlock(), true, 16384);
		return this;
	}

	/**
	 * Queues a {@code RST_STREAM}.
	 * @param streamId the stream
	 * @param error the code
	 * @return this client
	 */
	Http2RawClient reset(int streamId, ErrorCode error) {
		FrameWriter.rstStream(this.buffer, streamId, error);
		return this;
	}

	/**
	 * Queues a {@code PING}.
	 * @param payload its 8 bytes
	 * @return this client
	 */
	Http2RawClient ping(long payload) {
		FrameWriter.ping(this.buffer, false, payload);
		return this;
	}

	/**
	 * Queues a {@code WINDOW_UPDATE}.
	 * @param streamId the stream, 0 for the connection
	 * @param increment the credit, 0 to make it invalid
	 * @return this client
	 */
	Http2RawClient windowUpdate(int streamId, int increment) {
		this.buffer.put((byte) 0).putShort((short) 4).put((byte) FrameType.WINDOW_UPDATE).put((byte) 0)
			.putInt(streamId).putInt(increment);
		return this;
	}

	/**
	 * Returns how many bytes are queued and not sent.
	 * @return the byte count
	 */
	int queued() {
		return this.buffer.position();
	}

	/**
	 * Sends what is queued.
	 * @throws IOException if the connection failed
	 */
	void flush() throws IOException {
		send();
	}

	private void send() throws IOException {
		this.buffer.flip();
		this.out.write(this.buffer.array(), 0, this.buffer.limit());
		this.out.flush();
		this.buffer.clear();
	}

	/**
	 * Waits for the next frame of a type, skipping others.
	 * @param type the frame type
	 * @param timeout the longest wait
	 * @return the frame, or {@link #CLOSED} if the connection closed first, or {@code null} on
	 * time-out
	 * @throws InterruptedException if interrupted
	 */
	Frame await(int type, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			long left = deadline - System.nanoTime();
			Frame frame = this.frames.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
			if (frame == null || frame == CLOSED || frame.type() == type) {
				if (frame == CLOSED) {
					this.frames.add(CLOSED);
				}
				return frame;
			}
		}
	}

	/**
	 * Returns the next frame the server sent, whatever its type.
	 * @param timeout the longest wait
	 * @return the frame, {@link #CLOSED} once the connection closed, or {@code null} on time-out
	 * @throws InterruptedException if interrupted
	 */
	Frame next(Duration timeout) throws InterruptedException {
		Frame frame = this.frames.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
		if (frame == CLOSED) {
			this.frames.add(CLOSED);
		}
		return frame;
	}

	/**
	 * Reads the server's frames until this many responses began, decoding their heads in the
	 * order they came (HPACK's table is the connection's).
	 * @param count how many response heads
	 * @param timeout the longest wait in all
	 * @return the {@code :status} of each, by stream
	 * @throws Exception if a head does not decode, or the time ran out
	 */
	Map<Integer, Integer> statuses(int count, Duration timeout) throws Exception {
		Map<Integer, Integer> statuses = new LinkedHashMap<>();
		long deadline = System.nanoTime() + timeout.toNanos();
		while (statuses.size() < count) {
			Frame frame = await(FrameType.HEADERS, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
			if (frame == null || frame == CLOSED) {
				throw new AssertionError(statuses.size() + " of " + count + " responses before "
						+ ((frame == null) ? "the time ran out" : "the connection closed"));
			}
			int[] status = { -1 };
			this.decoder.decode(ByteBuffer.wrap(frame.payload()), (name, value) -> {
				if (name.equals(":status")) {
					status[0] = Integer.parseInt(value);
				}
			});
			statuses.put(frame.streamId(), status[0]);
		}
		return statuses;
	}

	/**
	 * Waits until the server closed the connection.
	 * @param timeout the longest wait
	 * @return whether it closed in time
	 * @throws InterruptedException if interrupted
	 */
	boolean awaitClosed(Duration timeout) throws InterruptedException {
		return await(Integer.MIN_VALUE, timeout) == CLOSED;
	}

	private void read() {
		try {
			DataInputStream in = new DataInputStream(this.socket.getInputStream());
			while (true) {
				int length = (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
				int type = in.readUnsignedByte();
				int flags = in.readUnsignedByte();
				int streamId = in.readInt() & 0x7fffffff;
				byte[] payload = new byte[length];
				in.readFully(payload);
				this.frames.add(new Frame(type, flags, streamId, payload));
			}
		}
		catch (EOFException ex) {
			// the server closed
		}
		catch (IOException ex) {
			// reset, or closed by the test
		}
		this.frames.add(CLOSED);
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
