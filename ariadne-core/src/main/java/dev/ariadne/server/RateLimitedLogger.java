package dev.ariadne.server;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Writes a warning that a client can trigger again and again (a failed accept, a failed
 * connection, a bad request, a failed handler) so that no load floods the log. Every
 * occurrence reaches {@link #log}; what is written:
 * <ul>
 * <li>the first occurrence of each type of failure, with its stack trace, when it happens;</li>
 * <li>besides those, at most one line per interval (10 s by default): an occurrence after a
 * quiet interval as one line, without its stack trace; occurrences within an interval after a
 * written line are only counted, and once the interval is over one line sums them up ("Accept
 * failed 41,234 more times in the last 10 s; the last: ...").</li>
 * </ul>
 * So one warning writes a stack trace per type of failure (for at most
 * {@value #MAX_TRACED_TYPES} types), and otherwise at most one line per interval, however
 * often it occurs.
 *
 * <p>Thread-safe, and {@link #log} never blocks: while the warning is being counted, an
 * occurrence costs a clock read and a counter increment, and its message is never built. The
 * summaries are written by one daemon thread shared by every such warning of the JVM
 * ({@code ariadne-log-summaries}), started when a summary is first due and gone after a minute
 * without one. Make one per place that writes such a warning, held in a static field as a logger
 * is: it is shared by every server of the JVM.
 */
public final class RateLimitedLogger {

	/** How often, at most, a line is written after the first one, unless given otherwise. */
	public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);

	/** The most failure types whose stack trace is written; beyond them, none is. */
	static final int MAX_TRACED_TYPES = 16;

	private final Logger logger;

	private final Level level;

	private final String what;

	private final long intervalNanos;

	private final LongSupplier clock;

	private final Scheduler scheduler;

	/** Until when ({@link System#nanoTime()}) occurrences are counted rather than written. */
	private final AtomicLong quietUntil;

	/** When the last line was written. */
	private volatile long lastWritten;

	private final AtomicLong suppressed = new AtomicLong();

	private final AtomicBoolean summaryScheduled = new AtomicBoolean();

	/** The failure of the last counted occurrence, named in the summary. */
	private volatile Throwable lastFailure;

	private final Set<Class<?>> traced = ConcurrentHashMap.newKeySet();

	private RateLimitedLogger(Logger logger, Level level, String what, Duration interval, LongSupplier clock,
			Scheduler scheduler) {
		this.logger = Objects.requireNonNull(logger, "logger");
		this.level = Objects.requireNonNull(level, "level");
		this.what = Objects.requireNonNull(what, "what");
		if (interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("The interval must be positive, not " + interval);
		}
		this.intervalNanos = interval.toNanos();
		this.clock = clock;
		this.scheduler = scheduler;
		long now = clock.getAsLong();
		this.quietUntil = new AtomicLong(now);
		this.lastWritten = now;
	}

	/**
	 * Returns a warning written at {@link Level#WARNING} at most once per
	 * {@link #DEFAULT_INTERVAL} after the first.
	 * @param logger where the lines go
	 * @param what what happened, in a few words, for the summary lines (for example
	 * {@code "Accept failed"})
	 * @return the warning
	 */
	public static RateLimitedLogger of(Logger logger, String what) {
		return of(logger, Level.WARNING, what, DEFAULT_INTERVAL);
	}

	/**
	 * Returns a warning written at most once per interval after the first.
	 * @param logger where the lines go
	 * @param level the level of every line
	 * @param what what happened, in a few words, for the summary lines
	 * @param interval the shortest time between two lines after the first
	 * @return the warning
	 */
	public static RateLimitedLogger of(Logger logger, Level level, String what, Duration interval) {
		return new RateLimitedLogger(logger, level, what, interval, System::nanoTime, SummaryThread::schedule);
	}

	/**
	 * Returns a warning with its own clock and scheduler, for tests.
	 */
	static RateLimitedLogger of(Logger logger, String what, Duration interval, LongSupplier clock,
			Scheduler scheduler) {
		return new RateLimitedLogger(logger, Level.WARNING, what, interval, clock, scheduler);
	}

	/**
	 * Reports one occurrence: writes it, or counts it for the next summary.
	 * @param message describes this occurrence; called only when it is written
	 * @param failure what failed, or {@code null}
	 */
	public void log(Supplier<String> message, Throwable failure) {
		if (!this.logger.isLoggable(this.level)) {
			return;
		}
		long now = this.clock.getAsLong();
		long until = this.quietUntil.get();
		if (failure != null && !this.traced.contains(failure.getClass()) && this.traced.size() < MAX_TRACED_TYPES
				&& this.traced.add(failure.getClass())) {
			// a failure of a new type: its stack trace is written whatever the interval, and
			// starts one if none is running
			if (now - until >= 0 && this.quietUntil.compareAndSet(until, now + this.intervalNanos)) {
				this.lastWritten = now;
			}
			this.logger.log(this.level, message.get(), failure);
			return;
		}
		if (now - until >= 0 && this.suppressed.get() == 0
				&& this.quietUntil.compareAndSet(until, now + this.intervalNanos)) {
			this.lastWritten = now;
			write(message.get(), failure);
			return;
		}
		this.lastFailure = failure;
		this.suppressed.incrementAndGet();
		if (now - until >= 0) {
			// the summary is overdue (its thread is late, or could not be had): write it here
			summarize();
		}
		else if (this.summaryScheduled.compareAndSet(false, true)) {
			try {
				this.scheduler.schedule(this::scheduledSummary, until - now);
			}
			catch (Throwable ex) {
				// out of memory or threads: the next occurrence after the interval writes it
				this.summaryScheduled.set(false);
			}
		}
	}

	/**
	 * Reports one occurrence with a fixed message.
	 * @param message describes the occurrence
	 * @param failure what failed, or {@code null}
	 */
	public void log(String message, Throwable failure) {
		log(() -> message, failure);
	}

	private void write(String message, Throwable failure) {
		if (failure == null) {
			this.logger.log(this.level, message);
		}
		else {
			this.logger.log(this.level, message + ": " + failure);
		}
	}

	private void scheduledSummary() {
		this.summaryScheduled.set(false);
		summarize();
	}

	/** Writes the count of the occurrences since the last line, if any, and starts a new interval. */
	private void summarize() {
		long now = this.clock.getAsLong();
		long count = this.suppressed.getAndSet(0);
		if (count == 0) {
			return;
		}
		long seconds = Math.max(1, Math.round((now - this.lastWritten) / 1e9));
		this.quietUntil.set(now + this.intervalNanos);
		this.lastWritten = now;
		Throwable last = this.lastFailure;
		this.logger.log(this.level, String.format(Locale.ROOT, "%s %,d more %s in the last %d s%s", this.what, count,
				(count == 1) ? "time" : "times", seconds, (last != null) ? "; the last: " + last : ""));
	}

	/** Runs a summary after a delay. */
	@FunctionalInterface
	interface Scheduler {

		/**
		 * Runs the task once, after the delay.
		 * @param task the task
		 * @param delayNanos the delay
		 */
		void schedule(Runnable task, long delayNanos);

	}

	/** The one thread that writes the summaries of every warning of the JVM. */
	private static final class SummaryThread {

		private static final ScheduledThreadPoolExecutor executor = create();

		private static ScheduledThreadPoolExecutor create() {
			ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (task) -> {
				Thread thread = new Thread(task, "ariadne-log-summaries");
				thread.setDaemon(true);
				return thread;
			});
			executor.setKeepAliveTime(1, TimeUnit.MINUTES);
			executor.allowCoreThreadTimeOut(true);
			executor.setRemoveOnCancelPolicy(true);
			return executor;
		}

		static void schedule(Runnable task, long delayNanos) {
			executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
		}

	}

}
