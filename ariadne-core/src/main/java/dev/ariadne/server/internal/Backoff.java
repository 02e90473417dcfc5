package dev.ariadne.server.internal;

/**
 * A pause that doubles each time it is taken, from a first to a longest value, until it is
 * reset: how long a loop waits before it tries again what keeps failing for want of a
 * resource. Used by one thread at a time.
 */
public final class Backoff {

	private final long firstNanos;

	private final long longestNanos;

	private long nextNanos;

	/**
	 * Creates a back-off.
	 * @param firstMillis the first pause
	 * @param longestMillis the longest pause
	 */
	public Backoff(long firstMillis, long longestMillis) {
		this.firstNanos = firstMillis * 1_000_000;
		this.longestNanos = longestMillis * 1_000_000;
		this.nextNanos = this.firstNanos;
	}

	/**
	 * Returns the pause to take now, and doubles the next one up to the longest.
	 * @return the pause in nanoseconds
	 */
	public long next() {
		long pause = this.nextNanos;
		this.nextNanos = Math.min(this.longestNanos, pause * 2);
		return pause;
	}

	/**
	 * Starts again from the first pause: what failed has worked.
	 */
	public void reset() {
		this.nextNanos = this.firstNanos;
	}

}
