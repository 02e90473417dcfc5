import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The load of the fleet verification ({@code deploy/fleet/verify.sh}): plain HTTP/1.1 over
 * keep-alive sockets, on loopback, bounded in time. Two modes:
 *
 * <pre>
 * light --target NAME=HOST:PORT [--target ...] --rate R --connections C --duration S --out DIR
 *     C connections per target, each sending GET / and GET /api/user in turn, paced so that the
 *     target gets R requests a second in all. Every 250 ms bucket of send time is appended to
 *     DIR/NAME.buckets once complete, one line per answering server:
 *         BUCKET_START_EPOCH_MS SERVER OK FAILED LATENCY_SUM_MS LATENCY_MAX_MS
 *     SERVER is the balancer's X-Served-By header, "-" when no answer came. A failure is any
 *     status but 200, a time-out (5 s) or a broken connection; the first 50 are described in
 *     DIR/NAME.failures.
 * flood --url HOST:PORT/PATH [--url ...] --connections C --duration S
 *     C connections per URL, each sending GET PATH back to back; prints, at the end,
 *         start_ms START_EPOCH_MS end_ms END_EPOCH_MS requests N errors E
 *     with the answers counted over every URL.
 * </pre>
 *
 * Both modes stop by themselves after their duration. Run with {@code java FleetLoad.java ...}
 * or compiled; Java 17 or later, no dependencies.
 */
public final class FleetLoad {

	private static final int BUCKET_MS = 250;

	private static final int TIMEOUT_MS = 5000;

	private static final String[] LIGHT_PATHS = { "/", "/api/user" };

	private FleetLoad() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, List<String>> options = options(args);
		String mode = (args.length > 0) ? args[0] : "";
		long duration = (long) (Double.parseDouble(single(options, "duration")) * 1000);
		int connections = Integer.parseInt(single(options, "connections"));
		if (mode.equals("light")) {
			double rate = Double.parseDouble(single(options, "rate"));
			Path out = Path.of(single(options, "out"));
			List<Light> lights = new ArrayList<>();
			for (String target : options.getOrDefault("target", List.of())) {
				String[] parts = target.split("=", 2);
				lights.add(new Light(parts[0], address(parts[1]), rate, connections, duration, out));
			}
			// Stopped early (SIGTERM): write what was counted.
			Runtime.getRuntime()
				.addShutdownHook(new Thread(() -> lights.forEach((light) -> light.flush(Long.MAX_VALUE))));
			List<Thread> threads = new ArrayList<>();
			for (Light light : lights) {
				threads.add(light.start());
			}
			for (Thread thread : threads) {
				thread.join();
			}
		}
		else if (mode.equals("flood")) {
			flood(options.getOrDefault("url", List.of()), connections, duration);
		}
		else {
			throw new IllegalArgumentException("usage: FleetLoad light|flood --option value ... (see the class comment)");
		}
	}

	private static Map<String, List<String>> options(String[] args) {
		Map<String, List<String>> options = new TreeMap<>();
		for (int i = 1; i + 1 < args.length; i += 2) {
			if (!args[i].startsWith("--")) {
				throw new IllegalArgumentException("expected an option, got " + args[i]);
			}
			options.computeIfAbsent(args[i].substring(2), (key) -> new ArrayList<>()).add(args[i + 1]);
		}
		return options;
	}

	private static String single(Map<String, List<String>> options, String name) {
		List<String> values = options.get(name);
		if (values == null || values.size() != 1) {
			throw new IllegalArgumentException("--" + name + " must be given once");
		}
		return values.get(0);
	}

	private static InetSocketAddress address(String hostPort) {
		int colon = hostPort.lastIndexOf(':');
		return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
	}

	private static void flood(List<String> urls, int connections, long duration) throws InterruptedException {
		long start = System.currentTimeMillis();
		long deadline = start + duration;
		AtomicLong requests = new AtomicLong();
		AtomicLong errors = new AtomicLong();
		List<Thread> threads = new ArrayList<>();
		for (String url : urls) {
			int slash = url.indexOf('/');
			InetSocketAddress address = address(url.substring(0, slash));
			String path = url.substring(slash);
			for (int i = 0; i < connections; i++) {
				Thread thread = new Thread(() -> {
					Connection connection = new Connection(address, 30_000);
					while (System.currentTimeMillis() < deadline) {
						try {
							Response response = connection.get(path);
							(response.status() == 200 ? requests : errors).incrementAndGet();
						}
						catch (IOException ex) {
							errors.incrementAndGet();
							connection.close();
							LockSupport.parkNanos(50_000_000);
						}
					}
					connection.close();
				}, "flood-" + threads.size());
				thread.start();
				threads.add(thread);
			}
		}
		for (Thread thread : threads) {
			thread.join();
		}
		System.out.println("start_ms " + start + " end_ms " + System.currentTimeMillis() + " requests " + requests.get()
				+ " errors " + errors.get());
	}

	/**
	 * Paced light requests to one target, and the buckets they are counted in.
	 */
	private static final class Light {

		private final String name;

		private final InetSocketAddress address;

		private final long intervalNanos;

		private final int connections;

		private final long deadline;

		private final Path buckets;

		private final Path failures;

		private final TreeMap<Long, Map<String, long[]>> counts = new TreeMap<>();

		private int failuresWritten;

		Light(String name, InetSocketAddress address, double rate, int connections, long duration, Path out) {
			this.name = name;
			this.address = address;
			this.intervalNanos = (long) (connections * 1e9 / rate);
			this.connections = connections;
			this.deadline = System.currentTimeMillis() + duration;
			this.buckets = out.resolve(name + ".buckets");
			this.failures = out.resolve(name + ".failures");
		}

		Thread start() throws IOException {
			Files.writeString(this.buckets, "");
			Files.writeString(this.failures, "");
			List<Thread> threads = new ArrayList<>();
			for (int i = 0; i < this.connections; i++) {
				Thread thread = new Thread(this::run, this.name + "-" + i);
				thread.start();
				threads.add(thread);
			}
			Thread flusher = new Thread(() -> {
				while (threads.stream().anyMatch(Thread::isAlive)) {
					LockSupport.parkNanos(500_000_000);
					flush(System.currentTimeMillis() - TIMEOUT_MS - BUCKET_MS);
				}
				flush(Long.MAX_VALUE);
			}, this.name + "-flush");
			flusher.start();
			return flusher;
		}

		private void run() {
			Connection connection = new Connection(this.address, TIMEOUT_MS);
			long next = System.nanoTime() + ThreadLocalRandom.current().nextLong(this.intervalNanos);
			int turn = ThreadLocalRandom.current().nextInt(LIGHT_PATHS.length);
			while (System.currentTimeMillis() < this.deadline) {
				long wait = next - System.nanoTime();
				if (wait > 0) {
					LockSupport.parkNanos(wait);
				}
				// Behind by more than a second (a slow answer): start the pace again, no burst.
				next = Math.max(next + this.intervalNanos, System.nanoTime() - 1_000_000_000L);
				String path = LIGHT_PATHS[turn++ % LIGHT_PATHS.length];
				long sent = System.currentTimeMillis();
				long start = System.nanoTime();
				try {
					Response response = connection.get(path);
					long latency = (System.nanoTime() - start) / 1_000_000;
					String server = (response.servedBy() != null) ? response.servedBy() : "-";
					if (response.status() == 200) {
						record(sent, server, true, latency);
					}
					else {
						record(sent, server, false, latency);
						describe(sent, path, "status " + response.status() + " from " + server);
					}
				}
				catch (IOException ex) {
					connection.close();
					record(sent, "-", false, (System.nanoTime() - start) / 1_000_000);
					describe(sent, path, (ex instanceof SocketTimeoutException) ? "no answer within " + TIMEOUT_MS
							+ " ms" : ex.getClass().getSimpleName() + ": " + ex.getMessage());
				}
			}
			connection.close();
		}

		private synchronized void record(long sent, String server, boolean ok, long latency) {
			long[] count = this.counts.computeIfAbsent(sent - sent % BUCKET_MS, (bucket) -> new TreeMap<>())
				.computeIfAbsent(server, (key) -> new long[4]);
			count[ok ? 0 : 1]++;
			count[2] += latency;
			count[3] = Math.max(count[3], latency);
		}

		private synchronized void describe(long sent, String path, String reason) {
			if (this.failuresWritten++ < 50) {
				append(this.failures, sent + " GET " + path + ": " + reason + "\n");
			}
		}

		/** Appends the buckets that started before the given time: no request can still land in them. */
		private synchronized void flush(long before) {
			StringBuilder lines = new StringBuilder();
			while (!this.counts.isEmpty() && this.counts.firstKey() < before) {
				Map.Entry<Long, Map<String, long[]>> bucket = this.counts.pollFirstEntry();
				bucket.getValue()
					.forEach((server, count) -> lines.append(String.format(Locale.ROOT, "%d %s %d %d %d %d%n",
							bucket.getKey(), server, count[0], count[1], count[2], count[3])));
			}
			append(this.buckets, lines.toString());
		}

		private static void append(Path file, String text) {
			try (BufferedWriter writer = Files.newBufferedWriter(file, StandardOpenOption.APPEND)) {
				writer.write(text);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

	/**
	 * One keep-alive connection, opened when needed.
	 */
	private static final class Connection {

		private final InetSocketAddress address;

		private final int timeout;

		private Socket socket;

		Connection(InetSocketAddress address, int timeout) {
			this.address = address;
			this.timeout = timeout;
		}

		Response get(String path) throws IOException {
			if (this.socket == null) {
				Socket socket = new Socket();
				socket.setTcpNoDelay(true);
				socket.connect(this.address, 2000);
				socket.setSoTimeout(this.timeout);
				this.socket = socket;
			}
			OutputStream out = this.socket.getOutputStream();
			out.write(("GET " + path + " HTTP/1.1\r\nHost: fleet\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			out.flush();
			Response response = Response.read(this.socket.getInputStream());
			if (response.close()) {
				close();
			}
			return response;
		}

		void close() {
			if (this.socket != null) {
				try {
					this.socket.close();
				}
				catch (IOException ex) {
					// Closing a broken connection only.
				}
				this.socket = null;
			}
		}

	}

	/**
	 * A response's status, the balancer's X-Served-By header, and whether the connection closes.
	 */
	private record Response(int status, String servedBy, boolean close) {

		static Response read(InputStream in) throws IOException {
			String[] head = readHead(in).split("\r\n");
			if (head.length == 0 || !head[0].startsWith("HTTP/1.")) {
				throw new IOException("not an HTTP response: " + head[0]);
			}
			int status = Integer.parseInt(head[0].substring(9, 12));
			String servedBy = null;
			long length = -1;
			boolean chunked = false;
			boolean close = head[0].startsWith("HTTP/1.0");
			for (int i = 1; i < head.length; i++) {
				int colon = head[i].indexOf(':');
				String name = head[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
				String value = head[i].substring(colon + 1).trim();
				switch (name) {
					case "x-served-by" -> servedBy = value;
					case "content-length" -> length = Long.parseLong(value);
					case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
					case "connection" -> close = value.equalsIgnoreCase("close");
					default -> {
					}
				}
			}
			if (chunked) {
				skipChunked(in);
			}
			else if (length >= 0) {
				skip(in, length);
			}
			else {
				in.readAllBytes();
				close = true;
			}
			return new Response(status, servedBy, close);
		}

		private static String readHead(InputStream in) throws IOException {
			ByteArrayOutputStream head = new ByteArrayOutputStream(256);
			int matched = 0;
			while (matched < 4) {
				int b = in.read();
				if (b < 0) {
					throw new IOException("connection closed " + ((head.size() == 0) ? "before an answer"
							: "within the response head"));
				}
				head.write(b);
				matched = (b == ((matched % 2 == 0) ? '\r' : '\n')) ? matched + 1 : ((b == '\r') ? 1 : 0);
			}
			return head.toString(StandardCharsets.ISO_8859_1);
		}

		private static void skipChunked(InputStream in) throws IOException {
			while (true) {
				String line = readLine(in);
				int semicolon = line.indexOf(';');
				long size = Long.parseLong((semicolon >= 0) ? line.substring(0, semicolon).trim() : line.trim(), 16);
				if (size == 0) {
					while (!readLine(in).isEmpty()) {
						// Trailer fields.
					}
					return;
				}
				skip(in, size);
				readLine(in);
			}
		}

		private static String readLine(InputStream in) throws IOException {
			StringBuilder line = new StringBuilder();
			int b;
			while ((b = in.read()) != '\n') {
				if (b < 0) {
					throw new IOException("connection closed within a chunked body");
				}
				if (b != '\r') {
					line.append((char) b);
				}
			}
			return line.toString();
		}

		private static void skip(InputStream in, long length) throws IOException {
			long left = length;
			while (left > 0) {
				long skipped = in.skip(left);
				if (skipped <= 0) {
					if (in.read() < 0) {
						throw new IOException("connection closed within the body");
					}
					skipped = 1;
				}
				left -= skipped;
			}
		}

	}

}
