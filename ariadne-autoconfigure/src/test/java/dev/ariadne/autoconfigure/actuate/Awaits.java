package dev.ariadne.autoconfigure.actuate;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Polls a condition until it holds or 10 s pass; the polling interval is no timing claim.
 */
final class Awaits {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private Awaits() {
	}

	static void until(Callable<Boolean> condition) throws Exception {
		long end = System.nanoTime() + DEADLINE.toNanos();
		while (!condition.call()) {
			if (System.nanoTime() - end > 0) {
				throw new AssertionError("Condition not met within " + DEADLINE.toSeconds() + " s");
			}
			Thread.sleep(50);
		}
	}

}
