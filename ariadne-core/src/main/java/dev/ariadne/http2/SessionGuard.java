package dev.ariadne.http2;

/**
 * The limits a {@link Http2Session} holds its client to beyond the protocol's rules, from the
 * first frame: frames that cost work and carry no request ({@link Abuse#CONTROL_FRAMES}), streams
 * the server had to reset for the client's frames ({@link Abuse#PROVOKED_RESETS}), each over a
 * rate window, and header blocks too large to decode ({@link Abuse#HEADER_BLOCK}). Each ends the
 * connection. Not thread-safe, as the session.
 */
final class SessionGuard {

	/** Credit below which a {@code WINDOW_UPDATE} above the window's high counts as a control frame. */
	static final int SMALL_CREDIT = 1024;

	private final Http2Limits limits;

	private final EventRate controlFrames;

	private final EventRate provokedResets;

	SessionGuard(Http2Limits limits) {
		this.limits = limits;
		this.controlFrames = new EventRate(limits.maxControlFrames(), limits.rateWindowNanos());
		this.provokedResets = new EventRate(limits.maxResets(), limits.rateWindowNanos());
	}

	/**
	 * Counts a frame that costs work and carries no request.
	 * @param frames what it was, for the {@code GOAWAY}'s debug data
	 * @throws Http2Exception once more than the limit came within the window
	 */
	void control(String frames) throws Http2Exception {
		if (this.controlFrames.exceeded(System.nanoTime())) {
			throw Http2Exception.abuse(Abuse.CONTROL_FRAMES, "More than " + this.controlFrames.max()
					+ " SETTINGS, PING, PRIORITY, WINDOW_UPDATE, empty DATA or unknown frames in the rate window ("
					+ frames + ")");
		}
	}

	/**
	 * Counts a {@code WINDOW_UPDATE} as a control frame when it gives less than
	 * {@value #SMALL_CREDIT} bytes of credit the server never used: a client credits what it
	 * received, so only a flood gives small credit above the window's high.
	 * @param window the window it raises
	 * @param increment its credit
	 * @throws Http2Exception once more control frames than the limit came within the window
	 */
	void credit(FlowWindow window, int increment) throws Http2Exception {
		if (increment < SMALL_CREDIT && window.raisesHigh(increment)) {
			control("WINDOW_UPDATE");
		}
	}

	/**
	 * Checks the size of a header block before any of it is decoded: decoding a block in part
	 * would leave HPACK out of step, so a larger one ends the connection.
	 * @param length the block's bytes so far
	 * @throws Http2Exception when larger than {@link Http2Limits#maxHeaderBlockSize()}
	 */
	void blockSize(int length) throws Http2Exception {
		if (length > this.limits.maxHeaderBlockSize()) {
			throw Http2Exception.abuse(Abuse.HEADER_BLOCK,
					"Header block larger than " + this.limits.maxHeaderBlockSize() + " bytes");
		}
	}

	/**
	 * Checks the count of a header block's {@code CONTINUATION} frames: empty ones cost nothing in
	 * bytes, so bytes alone do not bound the work.
	 * @param count the block's frames after its {@code HEADERS}
	 * @throws Http2Exception when more than {@link Http2Limits#maxContinuations()}
	 */
	void continuations(int count) throws Http2Exception {
		if (count > this.limits.maxContinuations()) {
			throw Http2Exception.abuse(Abuse.HEADER_BLOCK,
					"More than " + this.limits.maxContinuations() + " CONTINUATION frames in a header block");
		}
	}

	/**
	 * Counts a stream the server reset for what the client sent on it (MadeYouReset).
	 * @throws Http2Exception once more than the limit came within the window
	 */
	void provokedReset() throws Http2Exception {
		if (this.provokedResets.exceeded(System.nanoTime())) {
			throw Http2Exception.abuse(Abuse.PROVOKED_RESETS,
					"More than " + this.provokedResets.max() + " streams reset for the client's frames in the rate window");
		}
	}

}
