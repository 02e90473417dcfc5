package dev.ariadne;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Polls a condition until it holds or a deadline passes. The polling interval is not a timing
 * claim: a test fails only when the condition never holds within the deadline.
 */
public final class Await {

	/** Default deadline: long enough for a loaded CI machine, short enough to fail fast. */
	public static final Duration DEADLINE = Duration.ofSeconds(10);

	private Await() {
	}

	/**
	 * Waits until the condition holds, for at most {@link #DEADLINE}.
	 * @param condition the condition
	 * @param state describes the current state, for the failure message
	 */
	public static void until(BooleanSupplier condition, Supplier<String> state) {
		until(DEADLINE, condition, state);
	}

	/**
	 * Waits until the condition holds.
	 * @param deadline the most time to wait
	 * @param condition the condition
	 * @param state describes the current state, for the failure message
	 */
	public static void until(Duration deadline, BooleanSupplier condition, Supplier<String> state) {
		long end = System.nanoTime() + deadline.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - end > 0) {
				throw new AssertionError("Condition not met within " + deadline.toMillis() + " ms; " + state.get());
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
