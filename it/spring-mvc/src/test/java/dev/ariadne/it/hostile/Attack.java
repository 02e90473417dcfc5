package dev.ariadne.it.hostile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * Raw attack connections, all driven by one thread: non-blocking sockets and a selector loop,
 * so that hundreds of clients cost the test a thread, not hundreds. What each connection does is
 * its {@link Script}, called on the loop's thread. An attack is bounded: it opens the
 * connections it is asked for, and at its deadline it closes every one and its thread ends;
 * {@link #close()} ends it sooner.
 */
final class Attack implements AutoCloseable {

	private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

	/** Connections opened per turn of the loop, so that the accept queue is not flooded at once. */
	private static final int CONNECTS_PER_TURN = 50;

	private final String name;

	private final long deadline;

	private final Selector selector;

	private final Queue<Connection> connecting = new ConcurrentLinkedQueue<>();

	private final List<Connection> connections = new ArrayList<>();

	private final Thread thread;

	private volatile boolean closed;

	private volatile Throwable failure;

	/** What one connection does; every method runs on the attack's thread. */
	interface Script {

		/**
		 * The connection is established.
		 * @param connection the connection
		 */
		default void connected(Connection connection) {
		}

		/**
		 * Everything sent so far has left for the kernel.
		 * @param connection the connection
		 */
		default void drained(Connection connection) {
		}

		/**
		 * A response arrived, whole.
		 * @param connection the connection
		 * @param response the response
		 */
		default void response(Connection connection, Response response) {
		}

		/**
		 * The time {@link Connection#at} asked for has come.
		 * @param connection the connection
		 */
		default void timer(Connection connection) {
		}

		/**
		 * The server closed the connection, reset it, or it could not be opened; not called when
		 * the attack closes it.
		 * @param connection the connection
		 * @param how {@code eof}, {@code reset: ...} or {@code connect: ...}
		 */
		default void closed(Connection connection, String how) {
		}

	}

	/**
	 * A whole response.
	 *
	 * @param status its status code
	 * @param headers its header fields, by lower-case name
	 * @param body its body
	 */
	record Response(int status, Map<String, String> headers, byte[] body) {

		String bodyText() {
			return new String(this.body, StandardCharsets.ISO_8859_1);
		}

		boolean closes() {
			return "close".equalsIgnoreCase(this.headers.get("connection"));
		}

		@Override
		public String toString() {
			String text = bodyText();
			return this.status + " " + ((text.length() > 200) ? text.substring(0, 200) + "..." : text);
		}

	}

	private Attack(String name, Duration limit) {
		this.name = name;
		this.deadline = System.nanoTime() + limit.toNanos();
		try {
			this.selector = Selector.open();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.thread = new Thread(this::run, "attack-" + name);
		this.thread.setDaemon(true);
	}

	/**
	 * Starts an attack's thread.
	 * @param name what the attack is, for its thread's name
	 * @param limit the longest it lasts: then it closes every connection
	 * @return the attack, with no connection yet
	 */
	static Attack start(String name, Duration limit) {
		Attack attack = new Attack(name, limit);
		attack.thread.start();
		return attack;
	}

	/**
	 * Opens a connection to the application; any thread.
	 * @param port the application's port
	 * @param receiveBuffer the socket's receive buffer in bytes, or 0 for the system's
	 * @param reads whether the connection reads what the server sends
	 * @param script what it does
	 * @return the connection, opened soon by the attack's thread
	 */
	Connection connect(int port, int receiveBuffer, boolean reads, Script script) {
		Connection connection = new Connection(port, receiveBuffer, reads, script);
		this.connecting.add(connection);
		this.selector.wakeup();
		return connection;
	}

	/** Whether the attack's thread still runs. */
	boolean running() {
		return this.thread.isAlive();
	}

	/**
	 * Waits for the attack to end by itself (at its deadline) or by {@link #close()}.
	 * @param timeout the most time to wait
	 * @return whether it ended
	 */
	boolean await(Duration timeout) throws InterruptedException {
		this.thread.join(timeout.toMillis());
		return !this.thread.isAlive();
	}

	private void run() {
		try {
			while (!this.closed && System.nanoTime() - this.deadline < 0) {
				openSome();
				long now = System.nanoTime();
				long wait = TimeUnit.NANOSECONDS.toMillis(this.deadline - now);
				for (Connection connection : this.connections) {
					if (connection.timerAt != 0) {
						wait = Math.min(wait, TimeUnit.NANOSECONDS.toMillis(connection.timerAt - now));
					}
				}
				this.selector.select(Math.max(1, Math.min(wait, this.connecting.isEmpty() ? 100 : 10)));
				for (SelectionKey key : this.selector.selectedKeys()) {
					((Connection) key.attachment()).onSelected(key);
				}
				this.selector.selectedKeys().clear();
				now = System.nanoTime();
				for (Connection connection : List.copyOf(this.connections)) {
					if (connection.timerAt != 0 && now - connection.timerAt >= 0) {
						connection.timerAt = 0;
						connection.script.timer(connection);
					}
				}
				this.connections.removeIf((connection) -> !connection.channel.isOpen());
			}
		}
		catch (ClosedSelectorException ex) {
			// closed from outside
		}
		catch (IOException | RuntimeException | Error ex) {
			this.failure = ex;
		}
		finally {
			for (Connection connection : this.connections) {
				connection.close();
			}
			for (Connection connection; (connection = this.connecting.poll()) != null;) {
				connection.close();
			}
			try {
				this.selector.close();
			}
			catch (IOException ex) {
				// nothing held any more
			}
		}
	}

	private void openSome() {
		for (int i = 0; i < CONNECTS_PER_TURN; i++) {
			Connection connection = this.connecting.poll();
			if (connection == null) {
				return;
			}
			connection.openNow();
		}
	}

	/**
	 * Throws what failed on the attack's thread, if anything did.
	 */
	void rethrow() {
		Throwable failure = this.failure;
		if (failure != null) {
			throw new AssertionError("The attack " + this.name + " failed", failure);
		}
	}

	/** Closes every connection and ends the attack's thread. */
	@Override
	public void close() {
		this.closed = true;
		this.selector.wakeup();
		try {
			if (!await(Duration.ofSeconds(10))) {
				this.thread.interrupt();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** One attack connection; used on the attack's thread only, but for its figures. */
	final class Connection {

		private final int port;

		private final int receiveBuffer;

		private final boolean reads;

		private final Script script;

		private final Deque<ByteBuffer> out = new ArrayDeque<>();

		private final ResponseParser parser = new ResponseParser();

		private SocketChannel channel;

		private SelectionKey key;

		private long timerAt;

		private volatile long connectedNanos;

		private Connection(int port, int receiveBuffer, boolean reads, Script script) {
			this.port = port;
			this.receiveBuffer = receiveBuffer;
			this.reads = reads;
			this.script = script;
		}

		private void openNow() {
			try {
				this.channel = SocketChannel.open();
				this.channel.configureBlocking(false);
				if (this.receiveBuffer > 0) {
					// before the connection, so that the window it advertises is this small
					this.channel.setOption(StandardSocketOptions.SO_RCVBUF, this.receiveBuffer);
				}
				this.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
				Attack.this.connections.add(this);
				if (this.channel.connect(new InetSocketAddress(LOOPBACK, this.port))) {
					this.key = this.channel.register(Attack.this.selector, 0, this);
					established();
				}
				else {
					this.key = this.channel.register(Attack.this.selector, SelectionKey.OP_CONNECT, this);
				}
			}
			catch (IOException ex) {
				failed("connect: " + ex.getMessage());
			}
		}

		private void established() {
			this.connectedNanos = System.nanoTime();
			interest();
			this.script.connected(this);
		}

		private void onSelected(SelectionKey key) {
			if (!key.isValid()) {
				return;
			}
			try {
				if (key.isConnectable()) {
					this.channel.finishConnect();
					established();
					return;
				}
				if (key.isWritable()) {
					flush();
				}
				if (key.isValid() && key.isReadable()) {
					read();
				}
			}
			catch (IOException ex) {
				failed(((this.connectedNanos == 0) ? "connect: " : "reset: ") + ex.getMessage());
			}
		}

		private void read() throws IOException {
			ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
			int n = this.channel.read(buffer);
			if (n < 0) {
				Response last = this.parser.end();
				if (last != null) {
					this.script.response(this, last);
				}
				failed("eof");
				return;
			}
			this.parser.add(buffer.array(), n);
			for (Response response; this.channel.isOpen() && (response = this.parser.next()) != null;) {
				this.script.response(this, response);
			}
		}

		private void flush() throws IOException {
			while (!this.out.isEmpty()) {
				ByteBuffer first = this.out.peek();
				this.channel.write(first);
				if (first.hasRemaining()) {
					// the socket's buffer is full: the rest when it is writable again
					interest();
					return;
				}
				this.out.poll();
			}
			interest();
			this.script.drained(this);
		}

		private void failed(String how) {
			boolean wasOpen = this.channel != null && this.channel.isOpen();
			close();
			if (wasOpen || this.channel == null || how.startsWith("connect")) {
				this.script.closed(this, how);
			}
		}

		private void interest() {
			if (this.key != null && this.key.isValid()) {
				this.key.interestOps((this.reads ? SelectionKey.OP_READ : 0)
						| (this.out.isEmpty() ? 0 : SelectionKey.OP_WRITE));
			}
		}

		/**
		 * Sends bytes after what is still to be sent; they are not copied.
		 * @param bytes the bytes, from their position to their limit
		 */
		void send(ByteBuffer bytes) {
			if (!this.channel.isOpen()) {
				return;
			}
			this.out.add(bytes);
			try {
				flush();
			}
			catch (IOException ex) {
				failed("reset: " + ex.getMessage());
			}
		}

		/**
		 * Sends text as ISO-8859-1.
		 * @param text the text
		 */
		void send(String text) {
			send(ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1)));
		}

		/**
		 * Asks for {@link Script#timer} at a time.
		 * @param nanos the time, {@link System#nanoTime()}
		 */
		void at(long nanos) {
			this.timerAt = (nanos == 0) ? 1 : nanos;
		}

		/** Whether the connection is open. */
		boolean open() {
			return this.channel != null && this.channel.isOpen();
		}

		/** Bytes still to be sent. */
		long unsent() {
			return this.out.stream().mapToLong(ByteBuffer::remaining).sum();
		}

		/** When the connection was established, {@link System#nanoTime()}; 0 before. */
		long connectedNanos() {
			return this.connectedNanos;
		}

		/** Closes the connection; the script hears nothing of it. */
		void close() {
			this.timerAt = 0;
			if (this.channel != null) {
				try {
					this.channel.close();
				}
				catch (IOException ex) {
					// closed all the same
				}
			}
		}

	}

	/** Splits what a connection reads into responses: Content-Length, chunked, or until the close. */
	static final class ResponseParser {

		private byte[] bytes = new byte[16 * 1024];

		private int length;

		void add(byte[] more, int count) {
			if (this.length + count > this.bytes.length) {
				this.bytes = Arrays.copyOf(this.bytes, Math.max(this.bytes.length * 2, this.length + count));
			}
			System.arraycopy(more, 0, this.bytes, this.length, count);
			this.length += count;
		}

		/** The next whole response, or {@code null} while it is incomplete. */
		Response next() {
			return parse(false);
		}

		/** At the end of the stream: a response delimited by the close, if one was begun. */
		Response end() {
			return (this.length > 0) ? parse(true) : null;
		}

		private Response parse(boolean atEnd) {
			int headEnd = indexOf("\r\n\r\n", 0);
			if (headEnd < 0) {
				return null;
			}
			String[] lines = new String(this.bytes, 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n");
			int status = Integer.parseInt(lines[0].split(" ")[1]);
			Map<String, String> headers = new LinkedHashMap<>();
			for (int i = 1; i < lines.length; i++) {
				int colon = lines[i].indexOf(':');
				headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
			}
			int start = headEnd + 4;
			if (status / 100 == 1) {
				consume(start);
				return parse(atEnd);
			}
			String contentLength = headers.get("content-length");
			if (status == 204 || status == 304) {
				return take(status, headers, start, start);
			}
			if (contentLength != null) {
				int end = start + Integer.parseInt(contentLength);
				return (this.length >= end) ? take(status, headers, start, end) : null;
			}
			if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
				return chunked(status, headers, start);
			}
			return atEnd ? take(status, headers, start, this.length) : null;
		}

		private Response chunked(int status, Map<String, String> headers, int start) {
			java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
			int at = start;
			while (true) {
				int lineEnd = indexOf("\r\n", at);
				if (lineEnd < 0) {
					return null;
				}
				String size = new String(this.bytes, at, lineEnd - at, StandardCharsets.ISO_8859_1);
				int semicolon = size.indexOf(';');
				int chunk = Integer.parseInt(((semicolon >= 0) ? size.substring(0, semicolon) : size).trim(), 16);
				at = lineEnd + 2;
				if (chunk == 0) {
					int trailerEnd = indexOf("\r\n", at);
					while (trailerEnd > at) {
						at = trailerEnd + 2;
						trailerEnd = indexOf("\r\n", at);
					}
					if (trailerEnd < 0) {
						return null;
					}
					consume(trailerEnd + 2);
					return new Response(status, headers, body.toByteArray());
				}
				if (this.length < at + chunk + 2) {
					return null;
				}
				body.write(this.bytes, at, chunk);
				at += chunk + 2;
			}
		}

		private Response take(int status, Map<String, String> headers, int start, int end) {
			byte[] body = Arrays.copyOfRange(this.bytes, start, end);
			consume(end);
			return new Response(status, headers, body);
		}

		private void consume(int count) {
			System.arraycopy(this.bytes, count, this.bytes, 0, this.length - count);
			this.length -= count;
		}

		private int indexOf(String text, int from) {
			byte[] pattern = text.getBytes(StandardCharsets.ISO_8859_1);
			outer: for (int i = from; i <= this.length - pattern.length; i++) {
				for (int j = 0; j < pattern.length; j++) {
					if (this.bytes[i + j] != pattern[j]) {
						continue outer;
					}
				}
				return i;
			}
			return -1;
		}

	}

}
