package dev.ariadne.http2;

/**
 * One flow-control window (RFC 9113 §5.2, §6.9): a stream's or the connection's, for sending or
 * for receiving.
 *
 * <p>The window is at most 2<sup>31</sup>-1. It may be negative: a decrease of
 * {@code SETTINGS_INITIAL_WINDOW_SIZE} applies to windows already partly used (§6.9.2). It is
 * never below -(2<sup>31</sup>-1), since a window is only used up to 0 and the initial size is
 * never negative, so it always fits an {@code int}.
 *
 * <p>The window does not decide what an overflow means: {@link #increase} answers {@code false}
 * and the caller sends the {@code FLOW_CONTROL_ERROR} (a connection error for the connection's
 * window, a stream error for a stream's). Not thread-safe.
 */
public final class FlowWindow {

	/** A long, so that the result of an increase can be checked before it is applied. */
	private long window;

	private long highest;

	/**
	 * Creates a window.
	 * @param initial its initial size, 0 to 2<sup>31</sup>-1
	 */
	public FlowWindow(int initial) {
		if (initial < 0) {
			throw new IllegalArgumentException("An initial window must be 0 to 2^31-1, not " + initial);
		}
		this.window = initial;
		this.highest = initial;
	}

	/**
	 * Returns the bytes of {@code DATA} that may be sent or received now.
	 * @return the window, negative after a decrease of the initial size, at most 2<sup>31</sup>-1
	 */
	public int available() {
		return (int) this.window;
	}

	/**
	 * Returns whether an increase would give credit beyond the largest window this one has had:
	 * credit the other side never used, rather than credit for what it received.
	 * @param delta the increase
	 * @return whether the window would reach a new high
	 */
	public boolean raisesHigh(long delta) {
		return this.window + delta > this.highest;
	}

	/**
	 * Uses part of the window for a {@code DATA} frame's flow length (padding included).
	 * Checking that it fits, and answering a peer that overran a receive window, is the caller's.
	 * @param n the bytes, 0 to {@link #available()} (0 is allowed even when the window is not
	 * positive: an empty frame does not count, §6.9.1)
	 */
	public void consume(int n) {
		if (n < 0 || (n > 0 && n > this.window)) {
			throw new IllegalArgumentException("Cannot use " + n + " bytes of a window of " + this.window);
		}
		this.window -= n;
	}

	/**
	 * Changes the window by a {@code WINDOW_UPDATE} increment, or by the difference between a new
	 * and the old {@code SETTINGS_INITIAL_WINDOW_SIZE} (negative for a decrease).
	 * @param delta the change, -(2<sup>31</sup>-1) to 2<sup>31</sup>-1
	 * @return {@code false}, with the window unchanged, when the result would exceed
	 * 2<sup>31</sup>-1: a {@code FLOW_CONTROL_ERROR}
	 */
	public boolean increase(long delta) {
		if (delta < -Settings.MAX_WINDOW || delta > Settings.MAX_WINDOW) {
			throw new IllegalArgumentException("A window change must be within 2^31-1, not " + delta);
		}
		long result = this.window + delta;
		if (result > Settings.MAX_WINDOW) {
			return false;
		}
		if (result < -Settings.MAX_WINDOW) {
			// unreachable with valid settings: the caller applied a decrease it never increased from
			throw new IllegalArgumentException("A window cannot go below -(2^31-1), as " + this.window + " + "
					+ delta + " would");
		}
		this.window = result;
		this.highest = Math.max(this.highest, result);
		return true;
	}

	@Override
	public String toString() {
		return "FlowWindow{" + this.window + "}";
	}

}
