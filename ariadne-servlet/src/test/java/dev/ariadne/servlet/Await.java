package dev.ariadne.servlet;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Polls a condition until it holds or a deadline passes; the polling interval is no timing claim.
 */
final class Await {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private Await() {
	}

	static void until(BooleanSupplier condition, Supplier<String> state) {
		long end = System.nanoTime() + DEADLINE.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - end > 0) {
				throw new AssertionError("Condition not met within " + DEADLINE.toMillis() + " ms; " + state.get());
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new AssertionError("Interrupted while waiting; " + state.get(), ex);
			}
		}
	}

}
