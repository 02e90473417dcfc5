package dev.ariadne.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.Locale;

/**
 * WebSocket load on one selector thread, light enough to leave the cores to the server: opens
 * {@code n} sessions to a text echo endpoint of 127.0.0.1 (at most {@value #IN_FLIGHT}
 * handshakes at a time), each sending one message and reading its echo, then either
 *
 * <ul>
 * <li>{@code idle}: holds them, printing {@code HELD <open> <failed>} once all are set up and
 * {@code OPEN <n>} every second until {@code seconds} have passed, so that the server's heap can
 * be read with every session idle;</li>
 * <li>{@code echo}: runs each session as a closed loop (a message, its echo, the next message)
 * for {@code warmup} then {@code seconds} seconds and prints
 * {@code ECHO <messages/s> <p50 µs> <p99 µs> <sessions>} for the measured part.</li>
 * </ul>
 * Client frames are masked (with a fixed key: the server must unmask, not guess); the server's
 * are read unmasked, text, one frame per message. Sockets linger 0.
 */
final class WebSocketLoad {

	private static final int IN_FLIGHT = 128;

	private static final long SECOND = 1_000_000_000L;

	private static final byte[] MASK = { 0x1f, 0x2e, 0x3d, 0x4c };

	private final Selector selector = Selector.open();

	private final InetSocketAddress address;

	private final String path;

	private final byte[] frame;

	private final ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);

	private int inFlight;

	private int open;

	private int failed;

	private boolean measuring;

	private long messages;

	private long[] latencies = new long[1 << 20];

	private int latencyCount;

	private WebSocketLoad(InetSocketAddress address, String path, int messageSize) throws IOException {
		this.address = address;
		this.path = path;
		this.frame = frame(messageSize);
	}

	/**
	 * {@code idle <port> <path> <n> <seconds>} or
	 * {@code echo <port> <path> <n> <warmup> <seconds> <message bytes>}.
	 */
	public static void main(String[] args) throws IOException {
		String mode = args[0];
		int port = Integer.parseInt(args[1]);
		String path = args[2];
		int n = Integer.parseInt(args[3]);
		InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
		if (mode.equals("idle")) {
			new WebSocketLoad(address, path, 16).idle(n, Long.parseLong(args[4]));
		}
		else {
			new WebSocketLoad(address, path, Integer.parseInt(args[6])).echo(n, Long.parseLong(args[4]),
					Long.parseLong(args[5]));
		}
	}

	private static byte[] frame(int size) {
		byte[] payload = new byte[size];
		Arrays.fill(payload, (byte) 'x');
		int header = (size < 126) ? 2 : 4;
		byte[] frame = new byte[header + 4 + size];
		frame[0] = (byte) 0x81;
		if (size < 126) {
			frame[1] = (byte) (0x80 | size);
		}
		else {
			frame[1] = (byte) (0x80 | 126);
			frame[2] = (byte) (size >>> 8);
			frame[3] = (byte) size;
		}
		System.arraycopy(MASK, 0, frame, header, 4);
		for (int i = 0; i < size; i++) {
			frame[header + 4 + i] = (byte) (payload[i] ^ MASK[i & 3]);
		}
		return frame;
	}

	/** One session's state: its handshake, then its frames. */
	private static final class Session {

		final SocketChannel channel;

		ByteBuffer out;

		boolean upgraded;

		final StringBuilder head = new StringBuilder();

		long payloadLeft = -1;

		final byte[] header = new byte[4];

		int headerRead;

		long sentAt;

		boolean looping;

		Session(SocketChannel channel) {
			this.channel = channel;
		}

	}

	private void connectUpTo(int n, int[] started) throws IOException {
		while (started[0] < n && this.inFlight < IN_FLIGHT) {
			SocketChannel channel = SocketChannel.open();
			channel.configureBlocking(false);
			channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
			channel.setOption(StandardSocketOptions.SO_LINGER, 0);
			channel.connect(this.address);
			Session session = new Session(channel);
			byte[] key = new byte[16];
			Arrays.fill(key, (byte) started[0]);
			session.out = ByteBuffer.wrap(("GET " + this.path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
					+ "Connection: Upgrade\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key)
					+ "\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			channel.register(this.selector, SelectionKey.OP_CONNECT, session);
			this.inFlight++;
			started[0]++;
		}
	}

	private void idle(int n, long seconds) throws IOException {
		long start = System.nanoTime();
		long end = start + seconds * SECOND;
		int[] started = { 0 };
		boolean held = false;
		long nextReport = start + SECOND;
		while (System.nanoTime() < end) {
			connectUpTo(n, started);
			this.selector.select(100);
			handle(false);
			if (!held && started[0] == n && this.inFlight == 0) {
				held = true;
				System.out.println("HELD " + this.open + " " + this.failed);
			}
			if (held && System.nanoTime() > nextReport) {
				nextReport += SECOND;
				System.out.println("OPEN " + this.open);
			}
		}
		this.selector.close();
	}

	private void echo(int n, long warmup, long seconds) throws IOException {
		int[] started = { 0 };
		while (started[0] < n || this.inFlight > 0) {
			connectUpTo(n, started);
			this.selector.select(100);
			handle(true);
		}
		long measureStart = System.nanoTime() + warmup * SECOND;
		long end = measureStart + seconds * SECOND;
		while (true) {
			long now = System.nanoTime();
			if (!this.measuring && now >= measureStart) {
				this.measuring = true;
				this.messages = 0;
				this.latencyCount = 0;
			}
			if (now >= end) {
				break;
			}
			this.selector.select(100);
			handle(true);
		}
		long[] sorted = Arrays.copyOf(this.latencies, Math.min(this.latencyCount, this.latencies.length));
		Arrays.sort(sorted);
		long p50 = sorted.length == 0 ? -1 : sorted[sorted.length / 2] / 1000;
		long p99 = sorted.length == 0 ? -1 : sorted[(int) (sorted.length * 0.99)] / 1000;
		System.out.println(String.format(Locale.ROOT, "ECHO %d %d %d %d", this.messages / seconds, p50, p99, this.open));
		this.selector.close();
	}

	private void handle(boolean loop) throws IOException {
		Iterator<SelectionKey> keys = this.selector.selectedKeys().iterator();
		while (keys.hasNext()) {
			SelectionKey key = keys.next();
			keys.remove();
			Session session = (Session) key.attachment();
			try {
				if (key.isConnectable()) {
					session.channel.finishConnect();
					key.interestOps(SelectionKey.OP_WRITE);
				}
				if (key.isValid() && key.isWritable()) {
					session.channel.write(session.out);
					if (!session.out.hasRemaining()) {
						key.interestOps(SelectionKey.OP_READ);
					}
				}
				if (key.isValid() && key.isReadable()) {
					read(key, session, loop);
				}
			}
			catch (IOException ex) {
				fail(key, session);
			}
		}
	}

	private void read(SelectionKey key, Session session, boolean loop) throws IOException {
		ByteBuffer in = this.in;
		in.clear();
		int count = session.channel.read(in);
		if (count < 0) {
			fail(key, session);
			return;
		}
		in.flip();
		if (!session.upgraded) {
			while (in.hasRemaining()) {
				session.head.append((char) (in.get() & 0xFF));
				if (session.head.length() >= 4 && session.head.lastIndexOf("\r\n\r\n") == session.head.length() - 4) {
					if (session.head.indexOf("HTTP/1.1 101") != 0) {
						fail(key, session);
						return;
					}
					session.upgraded = true;
					this.inFlight--;
					this.open++;
					send(key, session);
					break;
				}
			}
		}
		while (in.hasRemaining()) {
			if (session.payloadLeft < 0) {
				session.header[session.headerRead++] = in.get();
				int length = session.header[1] & 0x7F;
				int needed = (session.headerRead < 2) ? 2 : (length == 126) ? 4 : 2;
				if (session.headerRead < needed) {
					continue;
				}
				session.payloadLeft = (length == 126)
						? (((session.header[2] & 0xFF) << 8) | (session.header[3] & 0xFF)) : length;
				session.headerRead = 0;
			}
			int skip = (int) Math.min(session.payloadLeft, in.remaining());
			in.position(in.position() + skip);
			session.payloadLeft -= skip;
			if (session.payloadLeft == 0) {
				session.payloadLeft = -1;
				echoed(key, session, loop);
			}
		}
	}

	private void echoed(SelectionKey key, Session session, boolean loop) throws IOException {
		if (this.measuring && session.looping) {
			this.messages++;
			if (this.latencyCount < this.latencies.length) {
				this.latencies[this.latencyCount++] = System.nanoTime() - session.sentAt;
			}
		}
		if (loop) {
			session.looping = true;
			send(key, session);
		}
	}

	private void send(SelectionKey key, Session session) throws IOException {
		session.out = ByteBuffer.wrap(this.frame);
		session.sentAt = System.nanoTime();
		session.channel.write(session.out);
		if (session.out.hasRemaining()) {
			key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
		}
	}

	private void fail(SelectionKey key, Session session) {
		if (session.upgraded) {
			this.open--;
		}
		else {
			this.inFlight--;
		}
		this.failed++;
		key.cancel();
		try {
			session.channel.close();
		}
		catch (IOException ex) {
			// gone already
		}
	}

}
