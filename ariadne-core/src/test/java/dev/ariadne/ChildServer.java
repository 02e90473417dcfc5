package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import dev.ariadne.http.ParserLimits;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.AcceptError;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.ServerStats;

/**
 * A server in a process of its own, for the tests that exhaust what a process has (descriptors,
 * memory) and stop it with a signal, as an operator would: starts a server on loopback and a
 * management listener beside it (its own port and threads, as {@code management.server.port}
 * gives a Spring application), prints {@code PORT <port> <management port>}, serves until the
 * process is told to stop (SIGTERM), then shuts both down gracefully in a shutdown hook and
 * prints {@code STOPPED <milliseconds> <drained>}.
 *
 * <p>Usage: {@code java dev.ariadne.ChildServer key=value...}, with {@code model} (an
 * {@code io-model} value), {@code grace} (the grace period in milliseconds), and optionally
 * {@code header-timeout} and {@code keep-alive-timeout} (in milliseconds), {@code backlog},
 * {@code queue-capacity}, {@code threads}, {@code budget} (the buffer budget),
 * {@code max-body-size} (in bytes) and {@code http2} ({@code true} to serve h2c as well).
 *
 * <p>Routes: {@code GET /hello}; {@code GET /overflow} recurses until a
 * {@link StackOverflowError}; {@code GET /oom} fills the heap until an {@link OutOfMemoryError};
 * {@code POST /count} streams the body and answers its length and CRC32; {@code POST /whole}
 * reads it whole ({@code bodyBytes()}) and answers its length; {@code GET /big?size=N} answers
 * N bytes. On the management listener, {@code GET /stats} answers the server's figures as
 * {@code name=value} lines, the heap in use measured after a full collection, with the bytes
 * the server holds in buffers ({@code buffers}), their budget, and the peaks of both
 * ({@code peakBuffers}, {@code peakHeap}), sampled every 10 ms.
 */
public final class ChildServer {

	private static final AtomicLong peakBuffers = new AtomicLong();

	private static final AtomicLong peakHeap = new AtomicLong();

	private ChildServer() {
	}

	/**
	 * Starts the server and serves until the process stops.
	 * @param args {@code key=value} options
	 */
	public static void main(String[] args) {
		Map<String, String> options = new HashMap<>();
		for (String arg : args) {
			int eq = arg.indexOf('=');
			options.put(arg.substring(0, eq), arg.substring(eq + 1));
		}
		Duration grace = Duration.ofMillis(Long.parseLong(options.getOrDefault("grace", "5000")));
		ServerConfig.Builder config = ServerConfig.builder()
			.address(RawClient.LOOPBACK)
			.port(0)
			.ioModel(IoModel.fromValue(options.get("model")))
			.shutdownGracePeriod(grace)
			.acceptBacklog(Integer.parseInt(options.getOrDefault("backlog", "100")));
		if (options.containsKey("queue-capacity")) {
			config.queueCapacity(Integer.parseInt(options.get("queue-capacity")));
		}
		if (options.containsKey("threads")) {
			config.maxThreads(Integer.parseInt(options.get("threads")));
		}
		if (Boolean.parseBoolean(options.get("http2"))) {
			config.http2Enabled(true);
		}
		if (options.containsKey("budget")) {
			config.bufferBudget(Long.parseLong(options.get("budget")));
		}
		if (options.containsKey("max-body-size")) {
			config.limits(new ParserLimits(ParserLimits.DEFAULT_MAX_LINE_LENGTH, ParserLimits.DEFAULT_MAX_HEADER_SIZE,
					ParserLimits.DEFAULT_MAX_HEADER_COUNT, Long.parseLong(options.get("max-body-size"))));
		}
		if (options.containsKey("header-timeout")) {
			config.headerTimeout(Duration.ofMillis(Long.parseLong(options.get("header-timeout"))));
		}
		if (options.containsKey("keep-alive-timeout")) {
			config.keepAliveTimeout(Duration.ofMillis(Long.parseLong(options.get("keep-alive-timeout"))));
		}
		AriadneServer server = AriadneServer.builder(config.build())
			.route(Route.get("/hello", (request, response) -> response.send("hello")))
			.route(Route.get("/overflow", (request, response) -> response.send("depth " + recurse(0))))
			.route(Route.get("/oom", (request, response) -> response.send("held " + fillHeap() + " MB")))
			.route(Route.post("/count", ChildServer::count))
			.route(Route.post("/whole", (request, response) -> response.send(Integer.toString(request.bodyBytes().length))))
			.route(Route.get("/big", ChildServer::big))
			.build();
		AriadneServer management = AriadneServer.builder(ServerConfig.builder()
			.name("management")
			.address(RawClient.LOOPBACK)
			.port(0)
			.maxThreads(2)
			.shutdownGracePeriod(grace)
			.build()).route(Route.get("/stats", (request, response) -> response.send(stats(server)))).build();
		server.start();
		management.start();
		startSampler(server.stats());
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			long start = System.nanoTime();
			boolean drained = server.shutdownGracefully();
			management.shutdownGracefully();
			System.out.println("STOPPED " + (System.nanoTime() - start) / 1_000_000 + " " + drained);
			System.out.flush();
		}, "child-server-shutdown"));
		System.out.println("PORT " + server.port() + " " + management.port());
		System.out.flush();
	}

	private static void count(Request request, Response response) throws IOException {
		CRC32 crc = new CRC32();
		byte[] buffer = new byte[64 * 1024];
		long total = 0;
		InputStream body = request.body();
		int n;
		while ((n = body.read(buffer)) >= 0) {
			crc.update(buffer, 0, n);
			total += n;
		}
		response.send(total + " " + Long.toHexString(crc.getValue()));
	}

	private static void big(Request request, Response response) throws IOException {
		long size = Long.parseLong(request.queryParam("size"));
		response.header("Content-Length", Long.toString(size));
		byte[] chunk = new byte[64 * 1024];
		try (OutputStream out = response.outputStream()) {
			for (long sent = 0; sent < size; sent += chunk.length) {
				out.write(chunk, 0, (int) Math.min(chunk.length, size - sent));
			}
		}
	}

	private static void startSampler(ServerStats stats) {
		Thread sampler = new Thread(() -> {
			while (true) {
				peakBuffers.accumulateAndGet(stats.buffersUsed(), Math::max);
				peakHeap.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
				try {
					Thread.sleep(10);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}, "child-sampler");
		sampler.setDaemon(true);
		sampler.start();
	}

	private static int recurse(int depth) {
		return recurse(depth + 1) + 1;
	}

	private static int fillHeap() {
		List<byte[]> held = new ArrayList<>();
		while (true) {
			held.add(new byte[1024 * 1024]);
			if (held.size() == Integer.MAX_VALUE) {
				return held.size();
			}
		}
	}

	private static String stats(AriadneServer server) {
		ServerStats stats = server.stats();
		StringBuilder text = new StringBuilder();
		for (AcceptError error : AcceptError.values()) {
			text.append("acceptErrors.").append(error.tag()).append('=').append(stats.acceptErrors(error)).append('\n');
		}
		text.append("fatalErrors=").append(stats.fatalErrors()).append('\n');
		for (Defence defence : Defence.values()) {
			text.append("defences.").append(defence.tag()).append('=').append(stats.defences(defence, false)).append('\n');
			text.append("defences.").append(defence.tag()).append(".low-resources=")
				.append(stats.defences(defence, true)).append('\n');
		}
		text.append("open=").append(stats.openConnections()).append('\n');
		text.append("h2c=").append(stats.connections("h2c")).append('\n');
		text.append("busy=").append(stats.pool().busyWorkers()).append('\n');
		text.append("queued=").append(stats.pool().queued()).append('\n');
		text.append("streams=").append(stats.http2ActiveStreams()).append('\n');
		text.append("accepted=").append(stats.acceptedConnections()).append('\n');
		text.append("buffers=").append(stats.buffersUsed()).append('\n');
		text.append("peakBuffers=").append(peakBuffers.get()).append('\n');
		text.append("budget=").append(stats.buffersBudget()).append('\n');
		text.append("peakHeap=").append(peakHeap.get()).append('\n');
		System.gc();
		MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
		text.append("heapUsed=").append(heap.getUsed()).append('\n');
		text.append("heapMax=").append(heap.getMax()).append('\n');
		return text.toString();
	}

}
