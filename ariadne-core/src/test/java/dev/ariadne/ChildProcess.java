package dev.ariadne;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ChildServer} in a JVM of its own, with a heap of its own: started with its
 * arguments, found by the port it prints, and stopped by its PID (SIGTERM) or by closing its
 * input. What it writes to standard error is kept, to look for an {@link OutOfMemoryError}.
 */
final class ChildProcess implements AutoCloseable {

	private final Process process;

	private final int port;

	private final StringBuffer errors = new StringBuffer();

	private ChildProcess(Process process) throws IOException {
		this.process = process;
		Thread drain = new Thread(() -> {
			try (BufferedReader err = new BufferedReader(
					new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = err.readLine()) != null) {
					this.errors.append(line).append('\n');
				}
			}
			catch (IOException ex) {
				// the process ended
			}
		}, "child-stderr");
		drain.setDaemon(true);
		drain.start();
		BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		String line = out.readLine();
		if (line == null || !line.startsWith("READY ")) {
			process.destroyForcibly();
			throw new IllegalStateException("Child server did not start: " + line + "\n" + this.errors);
		}
		this.port = Integer.parseInt(line.substring("READY ".length()).trim());
	}

	/**
	 * Starts a child server.
	 * @param maxHeap the {@code -Xmx} value, for example {@code 256m}
	 * @param args the child's arguments: the model, then {@code key=value} words
	 * @return the running child
	 * @throws IOException if it cannot be started
	 */
	static ChildProcess start(String maxHeap, String... args) throws IOException {
		String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<String> command = new ArrayList<>(List.of(java, "-Xmx" + maxHeap, "-XX:+ExitOnOutOfMemoryError", "-cp",
				classpath, ChildServer.class.getName()));
		command.addAll(List.of(args));
		return new ChildProcess(new ProcessBuilder(command).start());
	}

	int port() {
		return this.port;
	}

	long pid() {
		return this.process.pid();
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	String errors() {
		return this.errors.toString();
	}

	/**
	 * Reads the child's figures from {@code GET /stats}.
	 * @return the figures by name
	 * @throws IOException if the request fails
	 */
	Map<String, Long> stats() throws IOException {
		return stats("");
	}

	/**
	 * Reads the child's figures from {@code GET /stats} with a query.
	 * @param query the query, {@code ?gc} to collect garbage first
	 * @return the figures by name
	 * @throws IOException if the request fails
	 */
	Map<String, Long> stats(String query) throws IOException {
		try (RawClient client = RawClient.connect(this.port)) {
			String text = client.exchange("GET /stats" + query + " HTTP/1.1\r\nHost: child\r\n\r\n").bodyText();
			Map<String, Long> figures = new HashMap<>();
			for (String pair : text.trim().split(" ")) {
				String[] parts = pair.split("=", 2);
				figures.put(parts[0], Long.parseLong(parts[1]));
			}
			return figures;
		}
	}

	/**
	 * Sends SIGTERM to the child's PID and waits for it to exit.
	 * @param seconds the most time to wait
	 * @return whether it exited in time
	 * @throws InterruptedException if interrupted while waiting
	 */
	boolean terminate(long seconds) throws InterruptedException {
		ProcessHandle.of(this.process.pid()).ifPresent(ProcessHandle::destroy);
		return this.process.waitFor(seconds, TimeUnit.SECONDS);
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			this.process.destroyForcibly();
		}
	}

}
