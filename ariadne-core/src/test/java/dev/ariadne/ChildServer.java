package dev.ariadne;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.zip.CRC32;

import dev.ariadne.http.ParserLimits;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.ServerStats;

/**
 * A server in a JVM of its own, for tests that bound the server's heap ({@code -Xmx}) and must
 * not share it with the test: started by {@link ChildProcess}, it prints {@code READY <port>}
 * and serves until its standard input ends or it gets SIGTERM.
 *
 * <p>Routes: {@code GET /} ("hello"), {@code POST /count} (streams the body: its length and
 * CRC32), {@code POST /whole} ({@code bodyBytes()}: its length), {@code GET /big?size=N} (N
 * bytes), {@code GET /stats} (the bytes held and their peak, the budget, the heap in use and
 * its peak; with {@code ?gc} after a collection). A sampler records the peaks every 10 ms.
 *
 * <p>Arguments: the I/O model's value, then {@code key=value} words: {@code budget} and
 * {@code max-body-size} in bytes, {@code threads}.
 */
public final class ChildServer {

	private static final AtomicLong peakBuffers = new AtomicLong();

	private static final AtomicLong peakHeap = new AtomicLong();

	private ChildServer() {
	}

	/**
	 * Starts the server.
	 * @param args the model, then {@code key=value} words
	 * @throws Exception if the server cannot start
	 */
	public static void main(String[] args) throws Exception {
		ServerConfig.Builder config = ServerConfig.builder()
			.address(RawClient.LOOPBACK)
			.port(0)
			.ioModel(IoModel.fromValue(args[0]));
		long maxBody = ParserLimits.DEFAULT_MAX_BODY_SIZE;
		for (int i = 1; i < args.length; i++) {
			String[] pair = args[i].split("=", 2);
			switch (pair[0]) {
				case "budget" -> config.bufferBudget(Long.parseLong(pair[1]));
				case "max-body-size" -> maxBody = Long.parseLong(pair[1]);
				case "threads" -> config.maxThreads(Integer.parseInt(pair[1]));
				default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
			}
		}
		config.limits(new ParserLimits(ParserLimits.DEFAULT_MAX_LINE_LENGTH, ParserLimits.DEFAULT_MAX_HEADER_SIZE,
				ParserLimits.DEFAULT_MAX_HEADER_COUNT, maxBody));
		ServerStats[] stats = new ServerStats[1];
		AriadneServer server = AriadneServer.builder(config.build()).routes(routes(() -> stats[0])).build();
		stats[0] = server.stats();
		server.start();
		startSampler(server.stats());
		Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
		System.out.println("READY " + server.port());
		System.out.flush();
		InputStream in = System.in;
		while (in.read() >= 0) {
			// serve until the parent closes our input
		}
		server.stop();
	}

	private static List<Route> routes(Supplier<ServerStats> stats) {
		return List.of(Route.get("/", (request, response) -> response.send("hello")),
				Route.post("/count", (request, response) -> {
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
				}), Route.post("/whole", (request, response) -> {
					byte[] body = request.bodyBytes();
					response.send(Integer.toString(body.length));
				}), Route.get("/big", (request, response) -> {
					long size = Long.parseLong(request.queryParam("size"));
					response.header("Content-Length", Long.toString(size));
					byte[] chunk = new byte[64 * 1024];
					try (OutputStream out = response.outputStream()) {
						for (long sent = 0; sent < size; sent += chunk.length) {
							out.write(chunk, 0, (int) Math.min(chunk.length, size - sent));
						}
					}
				}), Route.get("/stats", (request, response) -> {
					if (request.queryParam("gc") != null) {
						System.gc();
					}
					response.send("buffers=" + stats.get().buffersUsed() + " peakBuffers=" + peakBuffers.get()
							+ " budget=" + stats.get().buffersBudget() + " heap=" + heapUsed() + " peakHeap="
							+ peakHeap.get());
				}));
	}

	private static long heapUsed() {
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

	private static void startSampler(ServerStats stats) {
		Thread sampler = new Thread(() -> {
			while (true) {
				peakBuffers.accumulateAndGet(stats.buffersUsed(), Math::max);
				peakHeap.accumulateAndGet(heapUsed(), Math::max);
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

}
