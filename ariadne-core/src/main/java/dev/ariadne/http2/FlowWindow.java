package dev.ariadne.http2;

/**
 * One flow-control window (RFC 9113 §5.2, §6.9): what a sender may still send. It shrinks as
 * {@code DATA} is sent, grows with {@code WINDOW_UPDATE}, and moves by the difference when
 * {@code SETTINGS_INITIAL_WINDOW_SIZE} changes, which may leave it negative (§6.9.2).
 */
public final class FlowWindow {

	private long available;

	/**
	 * Creates a window.
	 * @param initial its size
	 */
	public FlowWindow(int initial) {
		this.available = initial;
	}

	/**
	 * Returns what may be sent now.
	 * @return the window, negative after the initial size shrank below what was in flight
	 */
	public long available() {
		return this.available;
	}

	/**
	 * Takes bytes that are being sent.
	 * @param bytes at most {@link #available()}
	 */
	public void consume(int bytes) {
		if (bytes < 0 || bytes > this.available) {
			throw new IllegalArgumentException("Cannot send " + bytes + " bytes in a window of " + this.available);
		}
		this.available -= bytes;
	}

	/**
	 * Moves the window by a {@code WINDOW_UPDATE}'s increment or an initial-size change.
	 * @param delta the change, negative only for a smaller initial size
	 * @return {@code false}, changing nothing, when the window would exceed 2<sup>31</sup>-1
	 */
	public boolean increase(long delta) {
		long next = this.available + delta;
		if (next > Settings.MAX_WINDOW) {
			return false;
		}
		this.available = next;
		return true;
	}

}
