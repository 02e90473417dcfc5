package dev.ariadne;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import dev.ariadne.server.IoModel;

/**
 * A {@link ChildServer} in a process of its own, started as an operator would start a server:
 * with a JVM heap limit and, if asked, an open-file limit set by the shell that starts it
 * ({@code ulimit -n}). Keeps every line the process writes (standard output and error, one line
 * per log record) with the time it arrived, reads the process's CPU time from
 * {@code /proc/<pid>/stat}, and stops it with SIGTERM. Stops only the process it started.
 */
final class ChildProcess implements AutoCloseable {

	/** One line per log record, as a production format writes it; a stack trace adds its frames. */
	private static final String LOG_FORMAT = "%1$tT.%1$tL %4$s %3$s %5$s%6$s%n";

	private final Process process;

	private final String name;

	private final List<Line> lines = new ArrayList<>();

	private final int port;

	private final int managementPort;

	private final Thread reader;

	/** A line the process wrote, and when it arrived ({@link System#nanoTime()}). */
	record Line(long nanos, String text) {
	}

	private ChildProcess(Process process, String name) throws IOException {
		this.process = process;
		this.name = name;
		this.reader = new Thread(this::readLines, "child-output-" + process.pid());
		this.reader.setDaemon(true);
		this.reader.start();
		Line port = awaitLine((line) -> line.startsWith("PORT "), Duration.ofSeconds(30));
		if (port == null) {
			close();
			throw new IOException(name + " did not start; its output:\n" + output());
		}
		String[] ports = port.text().substring(5).trim().split(" ");
		this.port = Integer.parseInt(ports[0]);
		this.managementPort = Integer.parseInt(ports[1]);
	}

	/**
	 * Starts a child server.
	 * @param model the I/O model
	 * @param openFiles the open-file limit, or 0 for the inherited one
	 * @param maxHeap the {@code -Xmx} value, for example {@code 64m}
	 * @param options more {@link ChildServer} options ({@code key=value})
	 * @return the running child, once it listens
	 * @throws IOException if it cannot be started or does not listen
	 */
	static ChildProcess start(IoModel model, int openFiles, String maxHeap, String... options) throws IOException {
		String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<String> command = new ArrayList<>();
		if (openFiles > 0) {
			// the shell sets the limit, then becomes the JVM: the process's pid is the JVM's
			command.addAll(List.of("sh", "-c", "ulimit -n " + openFiles + " && exec \"$0\" \"$@\""));
		}
		command.addAll(List.of(java, "-Xmx" + maxHeap, "-XX:+UseSerialGC", "-XX:-UsePerfData",
				"-Djava.util.logging.SimpleFormatter.format=" + LOG_FORMAT, "-cp", classpath,
				ChildServer.class.getName(), "model=" + model.value()));
		command.addAll(List.of(options));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		return new ChildProcess(process, model.value() + " server (pid " + process.pid() + ")");
	}

	private void readLines() {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
			String text;
			while ((text = reader.readLine()) != null) {
				synchronized (this.lines) {
					this.lines.add(new Line(System.nanoTime(), text));
					this.lines.notifyAll();
				}
			}
		}
		catch (IOException ex) {
			// the process is gone
		}
	}

	/**
	 * Waits for a line.
	 * @param condition what the line says
	 * @param timeout the most time to wait
	 * @return the first such line, or {@code null} if none arrived in time
	 */
	Line awaitLine(Predicate<String> condition, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		synchronized (this.lines) {
			while (true) {
				for (Line line : this.lines) {
					if (condition.test(line.text())) {
						return line;
					}
				}
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					return null;
				}
				try {
					this.lines.wait(Math.max(1, left / 1_000_000));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return null;
				}
			}
		}
	}

	/**
	 * Returns the lines that arrived in a time window.
	 * @param fromNanos the start, included
	 * @param toNanos the end, excluded
	 * @return the lines
	 */
	List<Line> linesBetween(long fromNanos, long toNanos) {
		synchronized (this.lines) {
			return this.lines.stream().filter((line) -> line.nanos() - fromNanos >= 0 && line.nanos() - toNanos < 0).toList();
		}
	}

	/**
	 * Returns the lines the process wrote so far that match a condition.
	 * @param condition the condition
	 * @return the lines
	 */
	List<String> lines(Predicate<String> condition) {
		synchronized (this.lines) {
			return this.lines.stream().map(Line::text).filter(condition).toList();
		}
	}

	/**
	 * Returns what the process wrote last, for failure messages: the last 60 lines.
	 * @return the output
	 */
	String output() {
		synchronized (this.lines) {
			List<Line> last = this.lines.subList(Math.max(0, this.lines.size() - 60), this.lines.size());
			StringBuilder text = new StringBuilder();
			for (Line line : last) {
				text.append(line.text()).append('\n');
			}
			return text.toString();
		}
	}

	/**
	 * Returns the port the server listens on.
	 * @return the port
	 */
	int port() {
		return this.port;
	}

	/**
	 * Reads the server's figures from {@code GET /stats} on the management listener, which
	 * has threads of its own: the heap in use after a full collection ({@code heapUsed}), the
	 * accept failures by cause ({@code acceptErrors.descriptors}, ...), {@code fatalErrors},
	 * {@code open} and {@code accepted} connections.
	 * @return the figures by name
	 * @throws IOException if the request fails
	 */
	Map<String, Long> stats() throws IOException {
		try (RawClient client = RawClient.connect(this.managementPort, Duration.ofSeconds(30))) {
			RawResponse response = client.exchange("GET /stats HTTP/1.1\r\nHost: stats\r\n\r\n");
			if (response.status() != 200) {
				throw new IOException("GET /stats answered " + response.statusLine());
			}
			Map<String, Long> figures = new HashMap<>();
			for (String line : response.bodyText().split("\n")) {
				int eq = line.indexOf('=');
				figures.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1)));
			}
			return figures;
		}
	}

	/**
	 * Returns the process id.
	 * @return the pid
	 */
	long pid() {
		return this.process.pid();
	}

	/**
	 * Returns the CPU time the process has used (user and system), from
	 * {@code /proc/<pid>/stat}.
	 * @return the CPU time in seconds
	 * @throws IOException if it cannot be read
	 */
	double cpuSeconds() throws IOException {
		String stat = Files.readString(Path.of("/proc/" + pid() + "/stat"));
		// the fields after the command name, which is in parentheses and may hold spaces
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		// utime and stime are the 14th and 15th fields; fields[0] here is the 3rd
		long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
		return ticks / (double) clockTicksPerSecond();
	}

	/**
	 * Returns the open descriptors of the process, from {@code /proc/<pid>/fd}.
	 * @return the count
	 * @throws IOException if they cannot be listed
	 */
	long openFiles() throws IOException {
		try (var entries = Files.list(Path.of("/proc/" + pid() + "/fd"))) {
			return entries.count();
		}
	}

	private static long clockTicksPerSecond() {
		try {
			Process getconf = new ProcessBuilder("getconf", "CLK_TCK").start();
			String value = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
			getconf.waitFor(5, TimeUnit.SECONDS);
			return Long.parseLong(value);
		}
		catch (IOException | RuntimeException ex) {
			return 100;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return 100;
		}
	}

	/**
	 * Sends SIGTERM and waits for the process to exit, then for its last lines.
	 * @param timeout the most time to wait
	 * @return the time it took to exit, or {@code null} if it did not exit in time
	 * @throws InterruptedException if interrupted while waiting
	 */
	Duration terminate(Duration timeout) throws InterruptedException {
		long start = System.nanoTime();
		// SIGTERM through the handle: Process.destroy() would also close the pipe the process
		// writes its last lines to
		this.process.toHandle().destroy();
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			return null;
		}
		Duration exited = Duration.ofNanos(System.nanoTime() - start);
		this.reader.join(5000);
		return exited;
	}

	/**
	 * Returns how long the server's own shutdown took, as its shutdown hook reported it.
	 * @return the milliseconds, or -1 if it reported none
	 */
	long stoppedMillis() {
		List<String> stopped = lines((line) -> line.startsWith("STOPPED "));
		return stopped.isEmpty() ? -1 : Long.parseLong(stopped.get(0).split(" ")[1]);
	}

	/**
	 * Returns whether the process still runs.
	 * @return whether alive
	 */
	boolean isAlive() {
		return this.process.isAlive();
	}

	@Override
	public String toString() {
		return this.name;
	}

	/** Kills the process if it still runs. */
	@Override
	public void close() {
		if (this.process.isAlive()) {
			this.process.destroyForcibly();
		}
	}

}
