package dev.ariadne.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The seeded cases the codecs' fuzz tests run under plain JUnit ({@code RequestParserFuzzTest}
 * says why not jqwik): each case of a property gets its own {@link Random}, derived from the
 * seed, the property and its index, so that a failure names the one case to rerun.
 *
 * <p>System properties: {@code -Dfuzz.tries=<n>} cases per property (the test's default
 * otherwise), {@code -Dfuzz.seed=<number>} or {@code random} (the test's fixed default
 * otherwise, so the normal build is reproducible), {@code -Dfuzz.case=<index>} to run one case.
 */
public final class SeededCases {

	/** CPU seconds one case may take before it counts as a loop. */
	public static final long CASE_LIMIT_SECONDS = 10;

	private static final int ONLY_CASE = Integer.getInteger("fuzz.case", -1);

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private final long seed;

	private final String subject;

	/**
	 * Creates the cases of one test class.
	 * @param defaultSeed the seed when {@code fuzz.seed} is not set
	 * @param subject what is fuzzed, named when a case loops ("the parser")
	 */
	public SeededCases(long defaultSeed, String subject) {
		String seed = System.getProperty("fuzz.seed", Long.toString(defaultSeed));
		this.seed = seed.equals("random") ? new Random().nextLong() : Long.parseLong(seed);
		this.subject = subject;
	}

	/**
	 * Returns how many cases a property runs.
	 * @param defaultTries the count when {@code fuzz.tries} is not set
	 * @return the count
	 */
	public static int tries(int defaultTries) {
		return Integer.getInteger("fuzz.tries", defaultTries);
	}

	/** One case of a property, given its own seeded random source. */
	@FunctionalInterface
	public interface Case {

		/**
		 * Runs the case, throwing when a property does not hold.
		 * @param random the case's own random source
		 */
		void check(Random random);

	}

	/**
	 * Runs the cases of a property on a daemon thread and fails when one fails, or when one uses
	 * more than {@value #CASE_LIMIT_SECONDS} s of CPU, or twelve times that of wall time (a loop:
	 * the thread is abandoned, and the JVM still exits since it is a daemon). CPU time first, so
	 * that a busy machine slows the cases down without failing them.
	 * @param property the property's name, part of each case's seed
	 * @param tries how many cases
	 * @param check one case
	 */
	public void run(String property, int tries, Case check) {
		AtomicInteger current = new AtomicInteger(-1);
		AtomicLong caseStart = new AtomicLong(System.nanoTime());
		AtomicLong caseCpuStart = new AtomicLong();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		long started = System.nanoTime();
		Thread runner = new Thread(() -> {
			for (int i = 0; i < tries && failure.get() == null; i++) {
				if (ONLY_CASE >= 0 && i != ONLY_CASE) {
					continue;
				}
				caseStart.set(System.nanoTime());
				caseCpuStart.set(cpuNanos());
				current.set(i);
				try {
					check.check(new Random(caseSeed(property, i)));
				}
				catch (Throwable ex) {
					failure.set(ex);
				}
			}
		}, "fuzz " + property);
		runner.setDaemon(true);
		runner.start();
		try {
			while (runner.isAlive()) {
				runner.join(50);
				long cpu = cpuNanos(runner) - caseCpuStart.get();
				long wall = System.nanoTime() - caseStart.get();
				if (runner.isAlive() && current.get() >= 0 && (cpu > TimeUnit.SECONDS.toNanos(CASE_LIMIT_SECONDS)
						|| wall > TimeUnit.SECONDS.toNanos(CASE_LIMIT_SECONDS * 12))) {
					throw new AssertionError(where(property, current.get(), tries) + " did not finish within "
							+ CASE_LIMIT_SECONDS + " s of CPU: " + this.subject + " loops or does super-linear work");
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError("interrupted", ex);
		}
		Throwable failed = failure.get();
		if (failed != null) {
			throw new AssertionError(where(property, current.get(), tries) + ": " + failed.getMessage(), failed);
		}
		if (System.getProperty("fuzz.tries") != null) {
			System.out.printf("fuzz: %s: %d cases in %.1f s, seed %d%n", property, (ONLY_CASE >= 0) ? 1 : tries,
					(System.nanoTime() - started) / 1e9, this.seed);
		}
		assertThat(current.get()).as("cases run").isGreaterThanOrEqualTo(0);
	}

	private String where(String property, int index, int tries) {
		return "Property '" + property + "', case " + index + " of " + tries + " (rerun alone with -Dfuzz.seed="
				+ this.seed + " -Dfuzz.case=" + index + ")";
	}

	/**
	 * Returns the calling thread's CPU time, or the wall clock where the JVM cannot measure it:
	 * what a case's work bound is measured in.
	 * @return nanoseconds
	 */
	public static long cpuNanos() {
		return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
	}

	/** Another thread's CPU time, measured as {@link #cpuNanos()} measures it on that thread. */
	@SuppressWarnings("deprecation")
	private static long cpuNanos(Thread thread) {
		long cpu = THREADS.isThreadCpuTimeSupported() ? THREADS.getThreadCpuTime(thread.getId()) : -1;
		return (cpu >= 0) ? cpu : System.nanoTime();
	}

	private long caseSeed(String property, int index) {
		long z = this.seed + property.hashCode() * 0x9E3779B97F4A7C15L + index * 0xBF58476D1CE4E5B9L;
		z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
		z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
		return z ^ (z >>> 31);
	}

}
