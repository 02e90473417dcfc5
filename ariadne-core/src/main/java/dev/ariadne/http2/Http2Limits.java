package dev.ariadne.http2;

import dev.ariadne.http.ParserLimits;

/**
 * What one side of a connection allows its peer: the settings it advertises and the limits it
 * enforces beyond them. Every limit applies from the peer's first frame, not only once the peer
 * has acknowledged the {@code SETTINGS} that announce it (Tomcat's CVE-2025-53506 was the
 * opposite).
 *
 * @param maxConcurrentStreams {@code SETTINGS_MAX_CONCURRENT_STREAMS}: streams the client may have
 * open at once; one more is refused with {@code REFUSED_STREAM}
 * @param initialWindowSize {@code SETTINGS_INITIAL_WINDOW_SIZE}: what a client may send on a
 * stream before the server reads it, at least 65,535 (a smaller one could not be enforced before
 * the client applies it)
 * @param connectionWindowSize what a client may send on all streams together before the server
 * reads it, at least 65,535 (the initial connection window; raised by a {@code WINDOW_UPDATE})
 * @param maxFrameSize {@code SETTINGS_MAX_FRAME_SIZE}: the largest frame payload accepted
 * @param maxHeaderListSize {@code SETTINGS_MAX_HEADER_LIST_SIZE}: the largest decoded header
 * list (RFC 9113 §6.5.2: octets of names and values plus 32 per field); a larger one is answered
 * 431
 * @param maxHeaderBlockSize the largest encoded header block (a {@code HEADERS} frame and its
 * {@code CONTINUATION}s), checked before any of it is decoded; a larger one ends the connection
 * @param maxContinuations the most {@code CONTINUATION} frames one header block may have: empty
 * ones cost nothing in bytes, so bytes alone do not bound the work
 * @param maxControlFrames the most frames that cost work and carry no request a client may send
 * within {@code rateWindowNanos} ({@link Abuse#CONTROL_FRAMES}); one more ends the connection
 * @param maxResets the most streams a client may reset before their response ended, and
 * separately the most the server may have to reset for the client's frames, within
 * {@code rateWindowNanos} (Rapid Reset, MadeYouReset); one more ends the connection
 * @param rateWindowNanos the window of those two rates
 * @param parserLimits the HTTP limits shared with HTTP/1.1 (header count)
 */
public record Http2Limits(int maxConcurrentStreams, int initialWindowSize, int connectionWindowSize,
		int maxFrameSize, int maxHeaderListSize, int maxHeaderBlockSize, int maxContinuations,
		int maxControlFrames, int maxResets, long rateWindowNanos, ParserLimits parserLimits) {

	/** Streams open at once by default: 100, as Tomcat (Jetty 128). */
	public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 100;

	/** Control frames a client may send in a rate window by default: 1,000 in 30 s. */
	public static final int DEFAULT_MAX_CONTROL_FRAMES = 1000;

	/** Resets a client may make, or provoke, in a rate window by default: 200 in 30 s, as Netty. */
	public static final int DEFAULT_MAX_RESETS = 200;

	/** The window of the rates by default: 30 s. */
	public static final long DEFAULT_RATE_WINDOW_NANOS = 30_000_000_000L;

	/**
	 * The defaults: 100 streams, windows of 64 KiB and 1 MiB, frames of 16 KiB, 16 KiB of headers,
	 * 1,000 control frames and 200 resets in 30 s.
	 */
	public static final Http2Limits DEFAULTS = new Http2Limits(DEFAULT_MAX_CONCURRENT_STREAMS, Settings.DEFAULT_WINDOW,
			1024 * 1024, FrameType.MIN_MAX_FRAME_SIZE, ParserLimits.DEFAULT_MAX_HEADER_SIZE,
			ParserLimits.DEFAULT_MAX_HEADER_SIZE, 32, DEFAULT_MAX_CONTROL_FRAMES, DEFAULT_MAX_RESETS,
			DEFAULT_RATE_WINDOW_NANOS, ParserLimits.DEFAULTS);

	/**
	 * Creates limits, checking each against what RFC 9113 allows.
	 */
	public Http2Limits {
		require(maxConcurrentStreams >= 1, "maxConcurrentStreams", maxConcurrentStreams, "at least 1");
		require(initialWindowSize >= Settings.DEFAULT_WINDOW, "initialWindowSize", initialWindowSize,
				"between 65535 and 2147483647");
		require(connectionWindowSize >= Settings.DEFAULT_WINDOW, "connectionWindowSize", connectionWindowSize,
				"between 65535 and 2147483647");
		require(maxFrameSize >= FrameType.MIN_MAX_FRAME_SIZE && maxFrameSize <= FrameType.MAX_MAX_FRAME_SIZE,
				"maxFrameSize", maxFrameSize, "between 16384 and 16777215");
		require(maxHeaderListSize >= 1, "maxHeaderListSize", maxHeaderListSize, "positive");
		require(maxHeaderBlockSize >= 1, "maxHeaderBlockSize", maxHeaderBlockSize, "positive");
		require(maxContinuations >= 0, "maxContinuations", maxContinuations, "0 or more");
		require(maxControlFrames >= 1, "maxControlFrames", maxControlFrames, "at least 1");
		require(maxResets >= 1, "maxResets", maxResets, "at least 1");
		if (rateWindowNanos < 1) {
			throw new IllegalArgumentException("rateWindowNanos must be positive, not " + rateWindowNanos);
		}
		if (parserLimits == null) {
			throw new IllegalArgumentException("parserLimits must not be null");
		}
	}

	private static void require(boolean valid, String name, int value, String range) {
		if (!valid) {
			throw new IllegalArgumentException(name + " must be " + range + ", not " + value);
		}
	}

	/**
	 * Returns the {@code SETTINGS} that announce these limits, sent first on every connection.
	 * @return the settings
	 */
	public Settings settings() {
		return new Settings().set(Settings.MAX_CONCURRENT_STREAMS, this.maxConcurrentStreams)
			.set(Settings.INITIAL_WINDOW_SIZE, this.initialWindowSize)
			.set(Settings.MAX_FRAME_SIZE, this.maxFrameSize)
			.set(Settings.MAX_HEADER_LIST_SIZE, this.maxHeaderListSize)
			.set(Settings.ENABLE_PUSH, 0);
	}

}
