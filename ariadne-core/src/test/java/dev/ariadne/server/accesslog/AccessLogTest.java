package dev.ariadne.server.accesslog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.ariadne.http.Headers;
import dev.ariadne.http.Method;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The writer: every line recorded from many threads is written, in each thread's order; a full
 * ring drops and counts rather than waiting, while the output is stuck; {@code close()} writes
 * every line recorded before it; the file rolls over when the date changes (an injected clock)
 * and files older than {@code max-days} are deleted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AccessLogTest {

	private static final InetSocketAddress CLIENT = new InetSocketAddress("192.0.2.1", 40000);

	@Test
	void writesEveryLineRecordedFromManyThreadsInEachThreadsOrder() throws Exception {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		AccessLog log = new AccessLog(AccessLogFormat.pattern("%U"), LogOutput.of(out), "app", "event-loop", 8192,
				Clock.systemUTC());
		log.start();
		int threads = 4;
		int perThread = 2000;
		List<Thread> producers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int id = t;
			producers.add(new Thread(() -> {
				for (int i = 0; i < perThread; i++) {
					record(log, "/t" + id + "/" + i);
				}
			}));
		}
		producers.forEach(Thread::start);
		for (Thread producer : producers) {
			producer.join();
		}
		log.close();
		List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
		assertThat(lines).hasSize(threads * perThread);
		assertThat(log.dropped()).isZero();
		for (int t = 0; t < threads; t++) {
			String prefix = "/t" + t + "/";
			List<String> own = lines.stream().filter((line) -> line.startsWith(prefix)).toList();
			assertThat(own).hasSize(perThread);
			for (int i = 0; i < perThread; i++) {
				assertThat(own.get(i)).isEqualTo(prefix + i);
			}
		}
	}

	@Test
	void dropsAndCountsTheLinesThatFindTheRingFullWithoutWaitingForAStuckOutput() throws Exception {
		CountDownLatch writing = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		LogOutput stuck = new LogOutput() {

			@Override
			public void open(long nowMillis) {
			}

			@Override
			public void write(byte[] bytes, int offset, int length) throws IOException {
				writing.countDown();
				try {
					release.await();
				}
				catch (InterruptedException ex) {
					throw new IOException(ex);
				}
				out.write(bytes, offset, length);
			}

			@Override
			public void close() {
			}

		};
		AccessLog log = new AccessLog(AccessLogFormat.pattern("%U"), stuck, "app", "event-loop", 4, Clock.systemUTC());
		log.start();
		record(log, "/0");
		assertThat(writing.await(10, TimeUnit.SECONDS)).isTrue();
		// the writer holds line 0 and is stuck writing it: the ring's 4 slots take lines 1-4
		long start = System.nanoTime();
		for (int i = 1; i <= 7; i++) {
			record(log, "/" + i);
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
		assertThat(log.dropped()).isEqualTo(3);
		release.countDown();
		log.close();
		assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("/0\n/1\n/2\n/3\n/4\n");
		assertThat(log.dropped()).isEqualTo(3);
	}

	@Test
	void countsTheLinesAFailedWriteLosesAndGoesOnWriting() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		AtomicLong failures = new AtomicLong(2);
		LogOutput flaky = new LogOutput() {

			@Override
			public void open(long nowMillis) {
			}

			@Override
			public void write(byte[] bytes, int offset, int length) throws IOException {
				if (failures.getAndDecrement() > 0) {
					throw new IOException("No space left on device");
				}
				out.write(bytes, offset, length);
			}

			@Override
			public void close() {
			}

		};
		AccessLog log = new AccessLog(AccessLogFormat.pattern("%U"), flaky, "app", "event-loop", 16, Clock.systemUTC());
		log.start();
		record(log, "/lost-1");
		awaitTrue(() -> log.dropped() == 1);
		record(log, "/lost-2");
		awaitTrue(() -> log.dropped() == 2);
		record(log, "/kept");
		log.close();
		assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("/kept\n");
		assertThat(log.dropped()).isEqualTo(2);
	}

	@Test
	void closeWritesEveryLineRecordedBeforeItToTheFileAndCountsLaterOnesAsDropped(@TempDir Path directory) {
		RollingFile file = new RollingFile(directory, "access_log", ".log", ".yyyy-MM-dd", -1, ZoneOffset.UTC);
		AccessLog log = new AccessLog(AccessLogFormat.pattern("%U"), file, "app", "event-loop", 1024, Clock.systemUTC());
		log.start();
		for (int i = 0; i < 500; i++) {
			record(log, "/" + i);
		}
		log.close();
		assertThat(lines(file.file())).hasSize(500).startsWith("/0", "/1").endsWith("/499");
		record(log, "/late");
		assertThat(log.dropped()).isEqualTo(1);
		log.close();
		assertThat(lines(file.file())).hasSize(500);
	}

	@Test
	void rollsToANewFileWhenTheDateChangesAndDeletesTheFilesOlderThanMaxDays(@TempDir Path directory)
			throws IOException {
		for (String name : List.of("access_log.2026-11-27.log", "access_log.2026-11-28.log", "access_log.old.log",
				"access_log.2026-11-20.txt", "other.2026-11-01.log")) {
			Files.writeString(directory.resolve(name), "kept?\n");
		}
		MutableClock clock = new MutableClock(Instant.parse("2026-12-01T23:59:59.500Z"));
		AtomicLong nanos = new AtomicLong(1_000_000_000L);
		RollingFile file = new RollingFile(directory, "access_log", ".log", ".yyyy-MM-dd", 3, ZoneOffset.UTC);
		AccessLog log = new AccessLog(AccessLogFormat.pattern("%t %U"), file, "app", "event-loop", 64, clock,
				nanos::get);
		log.start();
		// opened on 1 December: kept are the files of 28 November on
		assertThat(directory.resolve("access_log.2026-11-27.log")).doesNotExist();
		assertThat(directory.resolve("access_log.2026-11-28.log")).exists();
		record(log, "/before-midnight", nanos.get());
		Path first = directory.resolve("access_log.2026-12-01.log");
		awaitTrue(() -> lines(first).contains("[01/Dec/2026:23:59:59 +0000] /before-midnight"));
		clock.set(Instant.parse("2026-12-02T00:00:00.250Z"));
		nanos.addAndGet(750_000_000L);
		record(log, "/after-midnight", nanos.get());
		Path second = directory.resolve("access_log.2026-12-02.log");
		awaitTrue(() -> lines(second).contains("[02/Dec/2026:00:00:00 +0000] /after-midnight"));
		log.close();
		assertThat(lines(first)).containsExactly("[01/Dec/2026:23:59:59 +0000] /before-midnight");
		assertThat(lines(second)).containsExactly("[02/Dec/2026:00:00:00 +0000] /after-midnight");
		// the second file began on 2 December: 28 November is now too old; what is not this log's stays
		assertThat(directory.resolve("access_log.2026-11-28.log")).doesNotExist();
		assertThat(directory.resolve("access_log.old.log")).exists();
		assertThat(directory.resolve("access_log.2026-11-20.txt")).exists();
		assertThat(directory.resolve("other.2026-11-01.log")).exists();
	}

	@Test
	void stampsALineWithTheTimeItsRequestArrivedOnTheWallClock() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:15:30.900Z"));
		long now = 5_000_000_000L;
		AccessLog log = new AccessLog(AccessLogFormat.json(), LogOutput.of(out), "app", "blocking", 16, clock,
				() -> now);
		log.start();
		// arrived 1.5 s before the writer took it, and took 1.25 s
		record(log, "/slow", now - 1_500_000_000L, now - 250_000_000L);
		log.close();
		assertThat(out.toString(StandardCharsets.UTF_8))
			.startsWith("{\"time\":\"2026-12-01T10:15:29.400Z\",\"listener\":\"app\",\"io_model\":\"blocking\"")
			.contains("\"duration_ms\":1250.000");
	}

	@Test
	void writesOneFileWhenItDoesNotRotate(@TempDir Path directory) {
		RollingFile file = new RollingFile(directory.resolve("nested"), "requests", ".txt", null, -1, ZoneOffset.UTC);
		AccessLog log = new AccessLog(AccessLogFormat.pattern("%U"), file, "app", "event-loop", 16, Clock.systemUTC());
		log.start();
		record(log, "/one");
		log.close();
		assertThat(file.file()).isEqualTo(directory.resolve("nested").resolve("requests.txt"));
		assertThat(lines(file.file())).containsExactly("/one");
	}

	@Test
	void failsToStartNamingAFileThatCannotBeOpened(@TempDir Path directory) throws IOException {
		Path notADirectory = Files.writeString(directory.resolve("taken"), "");
		RollingFile file = new RollingFile(notADirectory, "access_log", ".log", ".yyyy-MM-dd", -1, ZoneOffset.UTC);
		AccessLog log = new AccessLog(AccessLogFormat.common(), file, "app", "event-loop", 16, Clock.systemUTC());
		assertThatExceptionOfType(java.io.UncheckedIOException.class).isThrownBy(log::start)
			.withMessageContaining("Could not open the access log " + notADirectory.resolve("access_log<date>.log"));
	}

	private static void record(AccessLog log, String path) {
		long now = System.nanoTime();
		record(log, path, now, now);
	}

	private static void record(AccessLog log, String path, long startNanos) {
		record(log, path, startNanos, startNanos);
	}

	private static void record(AccessLog log, String path, long startNanos, long endNanos) {
		RequestHead head;
		try {
			head = RequestHead.of(Method.GET, path, RequestHead.TargetForm.ORIGIN, Version.HTTP_1_1, new Headers(), -1,
					false);
		}
		catch (dev.ariadne.http.HttpParseException ex) {
			throw new AssertionError(ex);
		}
		log.record(head, CLIENT, null, 200, 0, null, startNanos, endNanos, 0, "default", path);
	}

	private static List<String> lines(Path file) {
		try {
			return Files.exists(file) ? Files.readAllLines(file) : List.of();
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	private static void awaitTrue(BooleanSupplier condition) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime() - deadline).as("waited 10 s").isNegative();
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new AssertionError(ex);
			}
		}
	}

	/** A wall clock the test moves. */
	private static final class MutableClock extends Clock {

		private volatile Instant now;

		MutableClock(Instant now) {
			this.now = now;
		}

		void set(Instant now) {
			this.now = now;
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
