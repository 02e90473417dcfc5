package dev.ariadne.http2;

/**
 * What a client did that made a session end its connection with {@code ENHANCE_YOUR_CALM}: the
 * limits of {@link Http2Limits} that cost the server work, not a protocol error.
 */
public enum Abuse {

	/**
	 * More frames that cost the server work and carry no request than
	 * {@link Http2Limits#maxControlFrames()} in a window: {@code SETTINGS}, {@code PING},
	 * {@code PRIORITY}, {@code DATA} frames without content that do not end their stream,
	 * {@code WINDOW_UPDATE}s that give less than 1 KiB of credit the server had not used, frames of
	 * unknown types.
	 */
	CONTROL_FRAMES,

	/**
	 * More streams the server had to reset, for frames the client sent on them, than
	 * {@link Http2Limits#maxResets()} in a window (MadeYouReset, CVE-2025-8671).
	 */
	PROVOKED_RESETS,

	/**
	 * A header block larger than {@link Http2Limits#maxHeaderBlockSize()}, or of more
	 * {@code CONTINUATION} frames than {@link Http2Limits#maxContinuations()} (CONTINUATION
	 * floods), stopped before it was decoded.
	 */
	HEADER_BLOCK

}
