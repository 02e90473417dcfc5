package dev.ariadne.server;

import java.time.Duration;

/**
 * What a listener that serves HTTP/2 allows its clients ({@code ariadne.server.http2.*}): the
 * settings it advertises, and the rates and timeouts that defend it. Validated as RFC 9113
 * allows, each message naming its property.
 *
 * @param maxConcurrentStreams streams a client may have open at once
 * ({@code SETTINGS_MAX_CONCURRENT_STREAMS}); one more is refused with {@code REFUSED_STREAM}
 * @param initialWindowSize bytes a client may send on a stream before the server reads them
 * ({@code SETTINGS_INITIAL_WINDOW_SIZE}), 65,535 to 2^31-1
 * @param connectionWindowSize bytes a client may send on all its streams before the server reads
 * them, 65,535 to 2^31-1
 * @param maxFrameSize the largest frame payload a client may send ({@code SETTINGS_MAX_FRAME_SIZE}),
 * 16,384 to 16,777,215
 * @param maxHeaderListSize the largest decoded header list ({@code SETTINGS_MAX_HEADER_LIST_SIZE}),
 * a larger one answered 431; 0 for the listener's {@code request.max-header-size}
 * @param maxControlFrames the most frames that cost work and carry no request (SETTINGS, PING,
 * PRIORITY, empty DATA, small WINDOW_UPDATE, unknown types) a client may send per
 * {@code rateWindow}; one more ends the connection
 * @param maxResets the most streams a client may reset before their response ended, and the most
 * the server may have to reset for the client's frames, per {@code rateWindow} (Rapid Reset,
 * MadeYouReset); one more ends the connection
 * @param rateWindow the window of those rates
 * @param writeTimeout the longest a stream's response may wait for flow-control credit or for the
 * client to read before the stream is reset
 */
public record Http2Config(int maxConcurrentStreams, int initialWindowSize, int connectionWindowSize,
		int maxFrameSize, int maxHeaderListSize, int maxControlFrames, int maxResets, Duration rateWindow,
		Duration writeTimeout) {

	/**
	 * The defaults: 100 streams, windows of 64 KiB and 1 MiB, frames of 16 KiB, the header list of
	 * HTTP/1.1, 1,000 control frames and 200 resets in 30 s, 20 s to write.
	 */
	public static final Http2Config DEFAULTS = new Http2Config(100, 65_535, 1024 * 1024, 16_384, 0, 1000, 200,
			Duration.ofSeconds(30), Duration.ofSeconds(20));

	private static final int MAX_WINDOW = Integer.MAX_VALUE;

	/**
	 * Creates the configuration, checking every value.
	 */
	public Http2Config {
		require(maxConcurrentStreams >= 1, "max-concurrent-streams", maxConcurrentStreams, "at least 1");
		require(initialWindowSize >= 65_535, "initial-window-size", initialWindowSize + "B",
				"between 65535B and " + MAX_WINDOW + "B");
		require(connectionWindowSize >= 65_535, "connection-window-size", connectionWindowSize + "B",
				"between 65535B and " + MAX_WINDOW + "B");
		require(maxFrameSize >= 16_384 && maxFrameSize <= 16_777_215, "max-frame-size", maxFrameSize + "B",
				"between 16384B (16KB) and 16777215B");
		require(maxHeaderListSize >= 0, "max-header-list-size", maxHeaderListSize + "B",
				"positive, or unset to follow request.max-header-size");
		require(maxControlFrames >= 1, "max-control-frames", maxControlFrames, "at least 1");
		require(maxResets >= 1, "max-resets", maxResets, "at least 1");
		ServerConfig.requirePositive("http2.rate-window", rateWindow);
		ServerConfig.requirePositive("http2.write-timeout", writeTimeout);
	}

	private static void require(boolean valid, String property, Object value, String allowed) {
		if (!valid) {
			throw ServerConfig.invalid("http2." + property, value, allowed);
		}
	}

}
