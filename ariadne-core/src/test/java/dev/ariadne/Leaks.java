package dev.ariadne;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.ServerStats;

/**
 * Leak checks for socket-level tests: what a server holds while running (connections, busy
 * workers, queued work, pooled buffers) must return to zero once its clients are gone, and what
 * it held in the JVM (platform threads, file descriptors) must be gone once it stops.
 *
 * <p>Counts of the whole JVM are compared with a baseline taken before the server started, with
 * some slack for threads and descriptors the JDK itself opens lazily; a server's own threads are
 * found by name ({@code ariadne-<listener>-...}) and must all end.
 */
final class Leaks {

	/** Platform threads the JDK may start on its own meanwhile (carriers, cleaners, reapers). */
	static final int THREAD_SLACK = 12;

	/** Descriptors the JDK may open on its own meanwhile (jars, the selector provider). */
	static final int FD_SLACK = 8;

	private Leaks() {
	}

	/**
	 * What the JVM holds before a server starts.
	 * @param platformThreads live platform threads
	 * @param fileDescriptors open file descriptors, or -1 off Linux
	 */
	record Baseline(int platformThreads, long fileDescriptors) {

		@Override
		public String toString() {
			return this.platformThreads + " platform threads, " + this.fileDescriptors + " file descriptors";
		}

	}

	/**
	 * Takes the baseline.
	 * @return the counts now
	 */
	static Baseline baseline() {
		return new Baseline(platformThreads(), openFileDescriptors());
	}

	/**
	 * Waits until the running server holds nothing for clients that are gone: no open or idle
	 * connection, no busy worker, nothing queued, no borrowed buffer.
	 * @param server the server
	 */
	static void assertServerHoldsNothing(AriadneServer server) {
		Await.until(() -> holdsNothing(server), () -> describe(server));
	}

	private static boolean holdsNothing(AriadneServer server) {
		ServerStats stats = server.stats();
		if (stats.openConnections() != 0 || stats.idleConnections() != 0 || server.borrowedBuffers() != 0) {
			return false;
		}
		for (PoolStats pool : stats.pools()) {
			if (pool.busyWorkers() != 0 || pool.queued() != 0) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Describes what the server holds, for failure messages.
	 * @param server the server
	 * @return the counts
	 */
	static String describe(AriadneServer server) {
		ServerStats stats = server.stats();
		StringBuilder text = new StringBuilder("open ").append(stats.openConnections())
			.append(", idle ")
			.append(stats.idleConnections())
			.append(", borrowed buffers ")
			.append(server.borrowedBuffers());
		for (PoolStats pool : stats.pools()) {
			text.append(", pool ")
				.append(pool.name())
				.append(" busy ")
				.append(pool.busyWorkers())
				.append(" queued ")
				.append(pool.queued());
		}
		return text.toString();
	}

	/**
	 * Waits until none of the stopped server's platform threads is alive and the JVM's platform
	 * threads and file descriptors are back near the baseline.
	 * @param server the stopped server
	 * @param before the baseline taken before it started
	 */
	static void assertReleasedAfterStop(AriadneServer server, Baseline before) {
		String prefix = "ariadne-" + server.config().name() + "-";
		Await.until(() -> serverThreads(prefix).isEmpty(), () -> "threads of the stopped server still alive: "
				+ serverThreads(prefix));
		Await.until(() -> platformThreads() <= before.platformThreads() + THREAD_SLACK,
				() -> "platform threads " + platformThreads() + ", before the server " + before.platformThreads());
		if (before.fileDescriptors() >= 0) {
			Await.until(() -> openFileDescriptors() <= before.fileDescriptors() + FD_SLACK,
					() -> "file descriptors " + openFileDescriptors() + ", before the server " + before.fileDescriptors());
		}
	}

	/**
	 * Returns the names of the live platform threads whose name starts with the prefix.
	 * @param prefix the prefix
	 * @return the names
	 */
	static List<String> serverThreads(String prefix) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith(prefix))
			.sorted()
			.toList();
	}

	/**
	 * Returns the live platform threads of this JVM.
	 * @return the count
	 */
	static int platformThreads() {
		return ManagementFactory.getThreadMXBean().getThreadCount();
	}

	/**
	 * Returns the file descriptors this process has open (Linux: {@code /proc/self/fd}).
	 * @return the count, or -1 where it cannot be read
	 */
	static long openFileDescriptors() {
		Path fds = Path.of("/proc/self/fd");
		if (!Files.isDirectory(fds)) {
			return -1;
		}
		try (Stream<Path> entries = Files.list(fds)) {
			// the listing itself holds one descriptor while it runs
			return entries.count() - 1;
		}
		catch (IOException ex) {
			return -1;
		}
	}

	/**
	 * Returns the heap in use after a full collection, for memory bounds with generous margins.
	 * @return the bytes in use
	 */
	static long usedHeapAfterGc() {
		for (int i = 0; i < 2; i++) {
			System.gc();
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

}
