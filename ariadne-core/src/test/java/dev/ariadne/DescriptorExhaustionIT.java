package dev.ariadne;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server that runs out of file descriptors, in every model, as an operator meets it: the
 * server runs in a process of its own started with an open-file limit of
 * {@value #OPEN_FILES} ({@code ulimit -n}), and twice that many clients connect and hold their
 * connections. For a minute from the first failed accept the server must use under a tenth of
 * a core and write under 20 log lines (it spun at a full core and wrote 586 MB of stack traces
 * in 20 s before); once the clients let go, a new client must be answered within 2 s; and
 * SIGTERM must then stop it within its grace period. The three models run side by side, so the
 * minute is spent once.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class DescriptorExhaustionIT {

	private static final int OPEN_FILES = 256;

	private static final int CLIENTS = 2 * OPEN_FILES;

	private static final Duration WINDOW = Duration.ofSeconds(60);

	private static final Duration GRACE = Duration.ofSeconds(5);

	/** The JVM's own exit after the server has stopped: its shutdown hooks and teardown. */
	private static final Duration EXIT_SLACK = Duration.ofSeconds(1);

	private static final byte[] REQUEST = "GET /hello HTTP/1.1\r\nHost: exhaust\r\n\r\n"
		.getBytes(StandardCharsets.US_ASCII);

	/** What one model did while it had no descriptor left, and after. */
	record Figures(IoModel model, double cores, int lines, long openFiles, long acceptErrors, long recoveryMillis,
			long stopMillis, List<String> logged) {

		@Override
		public String toString() {
			return String.format("%s: %.1f %% of a core and %d log lines in the %d s after the first failed accept "
					+ "(%d descriptors open, %d accept failures counted), a new client answered %d ms after the "
					+ "clients let go, stopped %d ms after SIGTERM", this.model.value(), this.cores * 100, this.lines,
					WINDOW.toSeconds(), this.openFiles, this.acceptErrors, this.recoveryMillis, this.stopMillis);
		}

	}

	@Test
	void everyModelSurvivesRunningOutOfDescriptorsAndRecoversOnItsOwn() throws Exception {
		List<IoModel> models = new ArrayList<>(List.of(IoModel.BLOCKING, IoModel.EVENT_LOOP));
		if (Runtime.version().feature() >= 21) {
			models.add(IoModel.VIRTUAL_THREADS);
		}
		ExecutorService runs = Executors.newFixedThreadPool(models.size());
		List<Figures> results = new ArrayList<>();
		try {
			List<Future<Figures>> futures = new ArrayList<>();
			for (IoModel model : models) {
				futures.add(runs.submit(() -> exhaust(model)));
			}
			for (Future<Figures> future : futures) {
				results.add(future.get());
			}
		}
		finally {
			runs.shutdownNow();
		}
		for (Figures figures : results) {
			System.out.println("descriptor exhaustion, " + figures + "; what it logged:");
			figures.logged().forEach((line) -> System.out.println("    " + line));
		}
		for (Figures figures : results) {
			String model = figures.model().value();
			assertThat(figures.openFiles()).as("%s: descriptors open while exhausted", model)
				.isGreaterThan(OPEN_FILES - 8);
			assertThat(figures.cores()).as("%s: cores used while exhausted", model).isLessThan(0.10);
			assertThat(figures.lines()).as("%s: log lines in a minute while exhausted: %s", model, figures.logged())
				.isLessThan(20);
			assertThat(figures.acceptErrors()).as("%s: accept failures counted", model).isPositive();
			assertThat(figures.recoveryMillis()).as("%s: a new client answered after the clients let go", model)
				.isLessThan(2000);
			assertThat(figures.stopMillis()).as("%s: exit after SIGTERM", model)
				.isLessThan(GRACE.plus(EXIT_SLACK).toMillis());
		}
	}

	private static Figures exhaust(IoModel model) throws Exception {
		// timeouts far beyond the window: only the clients decide when descriptors come free
		try (ChildProcess child = ChildProcess.start(model, OPEN_FILES, "64m", "grace=" + GRACE.toMillis(),
				"header-timeout=600000", "keep-alive-timeout=600000", "backlog=64")) {
			List<SocketChannel> clients = connect(child.port(), CLIENTS);
			ChildProcess.Line onset;
			double cpuStart;
			long openFiles;
			try {
				onset = child.awaitLine((line) -> line.contains("Accept failed"), Duration.ofSeconds(60));
				assertThat(onset).as("%s logged a failed accept; its output:%n%s", child, child.output()).isNotNull();
				cpuStart = child.cpuSeconds();
				long start = System.nanoTime();
				long end = onset.nanos() + WINDOW.toNanos();
				// the measuring window, not an assertion
				Thread.sleep(Math.max(0, (end - System.nanoTime()) / 1_000_000));
				double cores = (child.cpuSeconds() - cpuStart) / ((System.nanoTime() - start) / 1e9);
				openFiles = child.openFiles();
				List<String> logged = child.linesBetween(onset.nanos(), end)
					.stream()
					.map(ChildProcess.Line::text)
					.toList();
				long freed = System.nanoTime();
				closeAll(clients);
				try (RawClient client = RawClient.connect(child.port(), Duration.ofSeconds(10))) {
					AbstractProtocolIT.assertOk(client.exchange(new String(REQUEST, StandardCharsets.US_ASCII)), "hello");
				}
				long recovery = (System.nanoTime() - freed) / 1_000_000;
				Map<String, Long> stats = child.stats();
				Duration stopped = child.terminate(GRACE.plus(EXIT_SLACK).plusSeconds(10));
				assertThat(stopped).as("%s exited after SIGTERM; its output:%n%s", child, child.output()).isNotNull();
				return new Figures(model, cores, logged.size(), openFiles, stats.get("acceptErrors.descriptors"),
						recovery, stopped.toMillis(), logged);
			}
			finally {
				closeAll(clients);
			}
		}
	}

	/**
	 * Starts {@code count} connections without waiting for each (most are never accepted, and
	 * the kernel retries their handshakes), then sends a request on each one that connected.
	 */
	private static List<SocketChannel> connect(int port, int count) throws IOException, InterruptedException {
		InetSocketAddress server = new InetSocketAddress(RawClient.LOOPBACK, port);
		List<SocketChannel> clients = new ArrayList<>(count);
		try {
			for (int i = 0; i < count; i++) {
				SocketChannel channel = SocketChannel.open();
				clients.add(channel);
				channel.configureBlocking(false);
				channel.connect(server);
			}
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
			List<SocketChannel> waiting = new ArrayList<>(clients);
			while (!waiting.isEmpty() && System.nanoTime() - deadline < 0) {
				waiting.removeIf(DescriptorExhaustionIT::sendIfConnected);
				Thread.sleep(20);
			}
			return clients;
		}
		catch (IOException | RuntimeException ex) {
			closeAll(clients);
			throw ex;
		}
	}

	private static boolean sendIfConnected(SocketChannel channel) {
		try {
			if (!channel.finishConnect()) {
				return false;
			}
			channel.write(ByteBuffer.wrap(REQUEST));
		}
		catch (IOException ex) {
			// refused or reset: it holds no descriptor of the server
		}
		return true;
	}

	private static void closeAll(List<SocketChannel> clients) {
		for (SocketChannel client : clients) {
			try {
				client.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}
	}

}
