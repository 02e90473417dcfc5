package dev.ariadne;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.AcceptError;
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
 * {@code header-timeout} and {@code keep-alive-timeout} (in milliseconds), {@code backlog} and
 * {@code queue-capacity}.
 *
 * <p>Routes: {@code GET /hello}; {@code GET /overflow} recurses until a
 * {@link StackOverflowError}; {@code GET /oom} fills the heap until an {@link OutOfMemoryError}.
 * On the management listener, {@code GET /stats} answers the server's figures as
 * {@code name=value} lines, the heap in use measured after a full collection.
 */
public final class ChildServer {

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
		Duration grace = Duration.ofMillis(Long.parseLong(options.get("grace")));
		ServerConfig.Builder config = ServerConfig.builder()
			.address(RawClient.LOOPBACK)
			.port(0)
			.ioModel(IoModel.fromValue(options.get("model")))
			.shutdownGracePeriod(grace)
			.acceptBacklog(Integer.parseInt(options.getOrDefault("backlog", "100")));
		if (options.containsKey("queue-capacity")) {
			config.queueCapacity(Integer.parseInt(options.get("queue-capacity")));
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
		text.append("open=").append(stats.openConnections()).append('\n');
		text.append("accepted=").append(stats.acceptedConnections()).append('\n');
		System.gc();
		MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
		text.append("heapUsed=").append(heap.getUsed()).append('\n');
		text.append("heapMax=").append(heap.getMax()).append('\n');
		return text.toString();
	}

}
