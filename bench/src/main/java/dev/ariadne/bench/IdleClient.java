package dev.ariadne.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * W3's idle load: opens {@code n} keep-alive connections to 127.0.0.1 (at most
 * {@value #IN_FLIGHT} at a time), sends {@code GET /} on each, and once answered leaves them
 * idle until {@code seconds} have passed. Prints one {@code HELD ...} line when every
 * connection is answered or failed (or after {@value #OPEN_LIMIT_SECONDS} s, or once
 * {@value #STALL_SECONDS} s pass without progress: a server at its connection limit), then
 * {@code OPEN <n>} every second: connections still open, so a server that closes idle
 * connections shows it. Sockets linger 0, so ending the client leaves no TIME_WAIT behind.
 */
final class IdleClient {

	private static final int IN_FLIGHT = 128;

	private static final int OPEN_LIMIT_SECONDS = 12;

	private static final int STALL_SECONDS = 3;

	private static final ByteBuffer REQUEST = ByteBuffer
		.wrap("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));

	private final Selector selector = Selector.open();

	private final ByteBuffer buffer = ByteBuffer.allocateDirect(4096);

	private final InetSocketAddress address;

	private int inFlight;

	private int answered;

	private int failed;

	private int closed;

	private IdleClient(InetSocketAddress address) throws IOException {
		this.address = address;
	}

	public static void main(String[] args) throws IOException {
		int port = Integer.parseInt(args[0]);
		int n = Integer.parseInt(args[1]);
		long end = System.nanoTime() + Long.parseLong(args[2]) * 1_000_000_000L;
		new IdleClient(new InetSocketAddress("127.0.0.1", port)).run(n, end);
	}

	private void run(int n, long end) throws IOException {
		long start = System.nanoTime();
		long openEnd = Math.min(end, start + OPEN_LIMIT_SECONDS * 1_000_000_000L);
		int opened = 0;
		int done = 0;
		long progress = start;
		while (done < n && System.nanoTime() < openEnd && System.nanoTime() - progress < STALL_SECONDS * 1_000_000_000L) {
			while (this.inFlight < IN_FLIGHT && opened < n) {
				open();
				opened++;
			}
			poll(100);
			if (this.answered + this.failed > done) {
				done = this.answered + this.failed;
				progress = System.nanoTime();
			}
		}
		// One write per line: bench/run reads this file while it grows.
		System.out.println(String.format(Locale.ROOT, "HELD answered=%d failed=%d pending=%d open=%d seconds=%.1f",
				this.answered, this.failed, this.inFlight, this.answered - this.closed, (System.nanoTime() - start) / 1e9));
		while (System.nanoTime() < end) {
			poll(1000);
			System.out.println("OPEN " + (this.answered - this.closed));
		}
	}

	private void open() {
		this.inFlight++;
		try {
			SocketChannel channel = SocketChannel.open();
			channel.configureBlocking(false);
			channel.setOption(StandardSocketOptions.SO_LINGER, 0);
			if (channel.connect(this.address)) {
				channel.write(REQUEST.duplicate());
				channel.register(this.selector, SelectionKey.OP_READ);
			}
			else {
				channel.register(this.selector, SelectionKey.OP_CONNECT);
			}
		}
		catch (IOException ex) {
			this.inFlight--;
			this.failed++;
		}
	}

	private void poll(long timeoutMillis) throws IOException {
		this.selector.select(timeoutMillis);
		for (SelectionKey key : this.selector.selectedKeys()) {
			SocketChannel channel = (SocketChannel) key.channel();
			try {
				if (key.isConnectable()) {
					channel.finishConnect();
					channel.write(REQUEST.duplicate());
					key.interestOps(SelectionKey.OP_READ);
				}
				else if (key.isReadable()) {
					read(key, channel);
				}
			}
			catch (IOException ex) {
				lost(key);
			}
		}
		this.selector.selectedKeys().clear();
	}

	private void read(SelectionKey key, SocketChannel channel) throws IOException {
		this.buffer.clear();
		int read = channel.read(this.buffer);
		if (read < 0) {
			lost(key);
		}
		else if (read > 0 && key.attachment() == null) {
			key.attach(Boolean.TRUE);
			this.inFlight--;
			this.answered++;
		}
	}

	private void lost(SelectionKey key) {
		if (key.attachment() == null) {
			this.inFlight--;
			this.failed++;
		}
		else {
			this.closed++;
		}
		key.cancel();
		try {
			key.channel().close();
		}
		catch (IOException ignored) {
			// already gone
		}
	}

}
