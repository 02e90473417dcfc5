package dev.ariadne.http2;

/**
 * Counts events of one kind within a window of time, to tell a peer that does something costly
 * too often: the first event opens a window, and the count starts again with the first event
 * after the window is over. Not thread-safe.
 */
public final class EventRate {

	private final int max;

	private final long windowNanos;

	private long windowStart;

	private int count;

	/**
	 * Creates a rate.
	 * @param max most events a window may hold
	 * @param windowNanos how long a window lasts
	 */
	public EventRate(int max, long windowNanos) {
		if (max < 1 || windowNanos < 1) {
			throw new IllegalArgumentException("A rate needs at least 1 event in a window of at least 1 ns, not "
					+ max + " in " + windowNanos + " ns");
		}
		this.max = max;
		this.windowNanos = windowNanos;
	}

	/**
	 * Counts one event.
	 * @param now the {@link System#nanoTime()} of the event
	 * @return whether the window now holds more than the most it may
	 */
	public boolean exceeded(long now) {
		if (this.count == 0 || now - this.windowStart > this.windowNanos) {
			this.windowStart = now;
			this.count = 0;
		}
		return ++this.count > this.max;
	}

	/**
	 * Returns the most events a window may hold.
	 * @return the limit
	 */
	public int max() {
		return this.max;
	}

}
