package dev.ariadne.server;

import java.io.IOException;
import java.lang.System.Logger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A warning that repeats: its first occurrence of each failure type is written with the stack
 * trace, later ones at most once per interval, and the counted ones are summed up once the
 * interval is over; on a clock the test moves, with the summaries run when the test says.
 */
class RateLimitedLoggerTest {

	private static final Duration INTERVAL = Duration.ofSeconds(10);

	private static final long SECOND = 1_000_000_000L;

	private final Lines lines = new Lines();

	private final AtomicLong now = new AtomicLong(123 * SECOND);

	private final List<Runnable> summaries = new ArrayList<>();

	private final List<Long> delays = new ArrayList<>();

	private final RateLimitedLogger warning = RateLimitedLogger.of(this.lines, "Accept failed", INTERVAL,
			this.now::get, (task, delay) -> {
				this.summaries.add(task);
				this.delays.add(delay);
			});

	@Test
	void writesTheFirstOccurrenceWithItsStackTrace() {
		IOException failure = new IOException("Too many open files");
		this.warning.log("Accept failed", failure);
		assertThat(this.lines.messages).containsExactly("Accept failed");
		assertThat(this.lines.failures).containsExactly(failure);
	}

	@Test
	void countsOccurrencesWithinTheIntervalAndSumsThemUpOnceItIsOver() {
		this.warning.log("Accept failed", new IOException("Too many open files"));
		AtomicInteger built = new AtomicInteger();
		for (int i = 0; i < 41_234; i++) {
			this.now.addAndGet(200_000);
			this.warning.log(() -> "Accept failed " + built.incrementAndGet(), new IOException("Too many open files"));
		}
		assertThat(this.lines.messages).hasSize(1);
		assertThat(built).as("messages built for counted occurrences").hasValue(0);
		assertThat(this.summaries).as("one summary scheduled for the whole interval").hasSize(1);
		assertThat(this.delays.get(0)).isEqualTo(INTERVAL.toNanos() - 200_000);
		this.now.set(133 * SECOND);
		runSummaries();
		assertThat(this.lines.messages).containsExactly("Accept failed", "Accept failed 41,234 more times in the "
				+ "last 10 s; the last: java.io.IOException: Too many open files");
		assertThat(this.lines.failures.get(1)).as("a summary carries no stack trace").isNull();
	}

	@Test
	void writesAtMostOneLinePerIntervalUnderAContinuousStorm() {
		for (int second = 0; second < 60; second++) {
			for (int i = 0; i < 1000; i++) {
				this.warning.log("Accept failed", new IOException("Too many open files"));
				this.now.addAndGet(SECOND / 1000);
			}
			if (!this.summaries.isEmpty() && second % 10 == 9) {
				runSummaries();
			}
		}
		assertThat(this.lines.messages).as("the first line and one summary per 10 s").hasSize(7);
		assertThat(this.lines.failures.stream().filter((failure) -> failure != null)).hasSize(1);
		assertThat(this.lines.messages.get(6)).startsWith("Accept failed 10,000 more times in the last 10 s");
	}

	@Test
	void writesAnOccurrenceAfterAQuietIntervalWithoutItsStackTraceAgain() {
		this.warning.log("Accept failed", new IOException("Too many open files"));
		this.now.addAndGet(11 * SECOND);
		this.warning.log("Accept failed again", new IOException("Too many open files"));
		assertThat(this.lines.messages).containsExactly("Accept failed",
				"Accept failed again: java.io.IOException: Too many open files");
		assertThat(this.lines.failures.get(1)).isNull();
		assertThat(this.summaries).isEmpty();
	}

	@Test
	void writesTheStackTraceOfEachTypeOfFailureOnce() {
		this.warning.log("Handler failed", new IllegalStateException("one"));
		this.now.addAndGet(11 * SECOND);
		this.warning.log("Handler failed", new StackOverflowError());
		this.now.addAndGet(11 * SECOND);
		this.warning.log("Handler failed", new IllegalStateException("two"));
		assertThat(this.lines.failures.get(0)).isInstanceOf(IllegalStateException.class);
		assertThat(this.lines.failures.get(1)).isInstanceOf(StackOverflowError.class);
		assertThat(this.lines.failures.get(2)).isNull();
		assertThat(this.lines.messages.get(2)).isEqualTo("Handler failed: java.lang.IllegalStateException: two");
	}

	@Test
	void writesANewTypeOfFailureWithItsStackTraceAtOnceEvenWhileCounting() {
		this.warning.log("Handler failed", new IllegalStateException("one"));
		this.now.addAndGet(SECOND);
		this.warning.log("Handler failed", new IllegalStateException("two"));
		this.warning.log("Handler failed", new OutOfMemoryError("Java heap space"));
		this.warning.log("Handler failed", new OutOfMemoryError("Java heap space"));
		assertThat(this.lines.failures).hasSize(2);
		assertThat(this.lines.failures.get(1)).isInstanceOf(OutOfMemoryError.class);
		this.now.addAndGet(10 * SECOND);
		runSummaries();
		assertThat(this.lines.messages.get(2)).isEqualTo(
				"Accept failed 2 more times in the last 11 s; the last: java.lang.OutOfMemoryError: Java heap space");
	}

	@Test
	void writesAnOverdueSummaryItselfWhenItsThreadIsLate() {
		this.warning.log("Accept failed", new IOException("Too many open files"));
		this.now.addAndGet(SECOND);
		this.warning.log("Accept failed", new IOException("Too many open files"));
		this.now.addAndGet(10 * SECOND);
		this.warning.log("Accept failed", new IOException("Too many open files"));
		assertThat(this.lines.messages).hasSize(2);
		assertThat(this.lines.messages.get(1)).startsWith("Accept failed 2 more times in the last 11 s");
		runSummaries();
		assertThat(this.lines.messages).as("the late summary has nothing left to say").hasSize(2);
	}

	@Test
	void writesNothingAndCountsNothingWhenTheLevelIsOff() {
		this.lines.enabled = false;
		this.warning.log(() -> {
			throw new AssertionError("the message must not be built");
		}, new IOException());
		assertThat(this.lines.messages).isEmpty();
		assertThat(this.summaries).isEmpty();
	}

	@Test
	void sharedSummaryThreadWritesTheSummaryOnItsOwn() throws InterruptedException {
		CountDownLatch summarized = new CountDownLatch(1);
		Lines lines = new Lines() {
			@Override
			synchronized void record(String message, Throwable thrown) {
				super.record(message, thrown);
				if (message.contains("more time")) {
					summarized.countDown();
				}
			}
		};
		RateLimitedLogger warning = RateLimitedLogger.of(lines, Logger.Level.WARNING, "Handler failed",
				Duration.ofMillis(50));
		warning.log("Handler failed", new IllegalStateException());
		warning.log("Handler failed", new IllegalStateException());
		assertThat(summarized.await(10, TimeUnit.SECONDS)).as("summary written").isTrue();
		assertThat(lines.messages).hasSize(2);
		assertThat(lines.messages.get(1)).startsWith("Handler failed 1 more time in the last");
	}

	private void runSummaries() {
		List<Runnable> due = new ArrayList<>(this.summaries);
		this.summaries.clear();
		due.forEach(Runnable::run);
	}

	/** A logger that keeps what is written. */
	private static class Lines implements Logger {

		final List<String> messages = new ArrayList<>();

		final List<Throwable> failures = new ArrayList<>();

		volatile boolean enabled = true;

		@Override
		public String getName() {
			return "test";
		}

		@Override
		public boolean isLoggable(Level level) {
			return this.enabled;
		}

		@Override
		public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
			record(message, thrown);
		}

		@Override
		public void log(Level level, ResourceBundle bundle, String format, Object... params) {
			record(format, null);
		}

		synchronized void record(String message, Throwable thrown) {
			this.messages.add(message);
			this.failures.add(thrown);
		}

	}

}
