package dev.ariadne.autoconfigure.actuate;

import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import dev.ariadne.AriadneServer;
import dev.ariadne.http.ParserLimits;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.stats.AcceptError;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.stats.ServerStats;

/**
 * Snapshot of one listener, as the {@code ariadne} endpoint shows it. Figures are read one by
 * one from {@link ServerStats}: each is current, together they are not an atomic snapshot.
 *
 * @param ioModel the I/O model, for example {@code blocking}
 * @param running whether the listener is serving
 * @param port the port it listens on, or {@code null} when not running
 * @param pool the default worker pool
 * @param routePools the named route pools, or {@code null} when there are none
 * @param connections the connections
 * @param acceptQueue the kernel's accept queue of the listening socket, or {@code null} where
 * it cannot be read (not Linux, not running)
 * @param errors what failed on the listener's own threads: accepts, and errors survived
 * @param config the configuration the listener runs with
 */
public record ListenerDescriptor(String ioModel, boolean running, Integer port, PoolDescriptor pool,
		Map<String, PoolDescriptor> routePools, ConnectionsDescriptor connections, AcceptQueueDescriptor acceptQueue,
		ErrorsDescriptor errors, ConfigDescriptor config) {

	/**
	 * Reads a server's snapshot.
	 * @param server the server
	 * @return the snapshot
	 */
	static ListenerDescriptor of(AriadneServer server) {
		ServerStats stats = server.stats();
		boolean running = server.isRunning();
		Map<String, PoolDescriptor> routePools = new LinkedHashMap<>();
		List<PoolStats> pools = stats.pools();
		for (PoolStats pool : pools.subList(Math.min(1, pools.size()), pools.size())) {
			routePools.put(pool.name(), PoolDescriptor.of(pool));
		}
		return new ListenerDescriptor(stats.ioModel(), running, running ? server.port() : null,
				PoolDescriptor.of(stats.pool()), routePools.isEmpty() ? null : routePools,
				ConnectionsDescriptor.of(stats), AcceptQueueDescriptor.of(stats), ErrorsDescriptor.of(stats),
				ConfigDescriptor.of(server.config()));
	}

	/**
	 * A worker pool.
	 *
	 * @param busy the busy workers (per model, see {@link PoolStats})
	 * @param max the most workers
	 * @param saturation busy / max, from 0 to 1
	 * @param queued the connections or requests waiting for a worker
	 * @param queueCapacity the most that may wait
	 */
	public record PoolDescriptor(int busy, int max, double saturation, int queued, int queueCapacity) {

		static PoolDescriptor of(PoolStats pool) {
			int busy = pool.busyWorkers();
			int max = pool.maxWorkers();
			return new PoolDescriptor(busy, max, PoolStats.saturation(busy, max), pool.queued(),
					pool.queueCapacity());
		}

	}

	/**
	 * The connections.
	 *
	 * @param open the connections open now
	 * @param idle the open connections between two requests
	 * @param max the connection limit
	 * @param accepted the connections accepted since start
	 * @param rejected the connections or requests refused since start, by reason
	 */
	public record ConnectionsDescriptor(int open, int idle, int max, long accepted, Map<String, Long> rejected) {

		static ConnectionsDescriptor of(ServerStats stats) {
			Map<String, Long> rejected = new LinkedHashMap<>();
			for (RejectReason reason : RejectReason.values()) {
				rejected.put(reason.tag(), stats.rejected(reason));
			}
			return new ConnectionsDescriptor(stats.openConnections(), stats.idleConnections(), stats.maxConnections(),
					stats.acceptedConnections(), rejected);
		}

	}

	/**
	 * The kernel's accept queue of the listening socket.
	 *
	 * @param depth the connections waiting to be accepted now, or {@code null} if unknown
	 * @param capacity the effective backlog, or {@code null} if unknown
	 * @param overflows the connections dropped since boot because an accept queue was full,
	 * for the whole network namespace, or {@code null} if unknown
	 */
	public record AcceptQueueDescriptor(Long depth, Long capacity, Long overflows) {

		static AcceptQueueDescriptor of(ServerStats stats) {
			Long depth = value(stats.acceptQueueDepth());
			Long capacity = value(stats.acceptQueueCapacity());
			Long overflows = value(stats.acceptQueueOverflows());
			return (depth == null && capacity == null && overflows == null) ? null
					: new AcceptQueueDescriptor(depth, capacity, overflows);
		}

		private static Long value(OptionalLong value) {
			return value.isPresent() ? value.getAsLong() : null;
		}

	}

	/**
	 * What failed on the listener's own threads since it started.
	 *
	 * @param accept the failed {@code accept()} calls, by what ran out ({@code descriptors},
	 * {@code buffers}, {@code memory}, {@code other}); after each the listener paused before
	 * accepting again
	 * @param fatal the {@link Error}s (out of memory, stack overflow) its threads caught, from
	 * handlers or its own code: each closed the connection concerned, and the thread carried on
	 */
	public record ErrorsDescriptor(Map<String, Long> accept, long fatal) {

		static ErrorsDescriptor of(ServerStats stats) {
			Map<String, Long> accept = new LinkedHashMap<>();
			for (AcceptError error : AcceptError.values()) {
				accept.put(error.tag(), stats.acceptErrors(error));
			}
			return new ErrorsDescriptor(accept, stats.fatalErrors());
		}

	}

	/**
	 * The effective configuration, named as the {@code ariadne.server.*} properties;
	 * durations in ISO-8601 ({@code PT20S}) and sizes in bytes.
	 *
	 * @param name the listener name
	 * @param address the bound address, or {@code null} for every local address
	 * @param port the configured port, 0 for a free one
	 * @param ioModel the I/O model
	 * @param threads the worker threads
	 * @param selectors the selector threads of the event-loop model
	 * @param acceptBacklog the requested accept backlog
	 * @param maxConnections the connection limit
	 * @param keepAlive the keep-alive settings
	 * @param request the request limits
	 * @param shutdownGracePeriod the graceful shutdown's grace period
	 */
	public record ConfigDescriptor(String name, String address, int port, String ioModel, Map<String, Integer> threads,
			int selectors, int acceptBacklog, int maxConnections, Map<String, Object> keepAlive,
			Map<String, Object> request, String shutdownGracePeriod) {

		static ConfigDescriptor of(ServerConfig config) {
			InetAddress address = config.address();
			Map<String, Integer> threads = new LinkedHashMap<>();
			threads.put("max", config.maxThreads());
			threads.put("min", config.minThreads());
			threads.put("queueCapacity", config.queueCapacity());
			Map<String, Object> keepAlive = new LinkedHashMap<>();
			keepAlive.put("enabled", config.keepAliveEnabled());
			keepAlive.put("timeout", config.keepAliveTimeout().toString());
			keepAlive.put("maxRequests", config.keepAliveMaxRequests());
			keepAlive.put("releaseThreshold", config.keepAliveReleaseThreshold());
			ParserLimits limits = config.limits();
			Map<String, Object> request = new LinkedHashMap<>();
			request.put("headerTimeout", config.headerTimeout().toString());
			request.put("maxLineLength", limits.maxLineLength());
			request.put("maxHeaderSize", limits.maxHeaderSize());
			request.put("maxHeaderCount", limits.maxHeaderCount());
			request.put("maxBodySize", limits.maxBodySize());
			return new ConfigDescriptor(config.name(), (address != null) ? address.getHostAddress() : null,
					config.port(), config.ioModel().value(), threads, config.selectors(), config.acceptBacklog(),
					config.maxConnections(), keepAlive, request, config.shutdownGracePeriod().toString());
		}

	}

}
