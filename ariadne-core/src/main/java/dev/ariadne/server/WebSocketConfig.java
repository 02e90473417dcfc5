package dev.ariadne.server;

import java.time.Duration;

/**
 * What a listener allows the WebSocket sessions its routes open ({@code ariadne.server.websocket.*}),
 * validated with messages naming the property.
 *
 * @param idleTimeout how long a session may pass without a frame either way (the server's own
 * keep-alive pings do not count, the client's pongs do) before the server closes it with 1001
 * @param pingInterval how often the server pings a session that has been silent that long, to
 * keep proxies from dropping it and to find dead clients; {@link Duration#ZERO} for never
 * @param maxMessageSize the largest message a client may send, in bytes once decompressed; a
 * larger one closes the session with 1009
 * @param maxFrameSize the largest data frame a client may send, in bytes as sent; a larger one
 * closes the session with 1009
 * @param maxSessions most sessions open at once on the listener; a handshake beyond it is answered
 * 503 and counted ({@code ariadne_connections_rejected_total{reason="websocket-sessions"}}); 0 for
 * no limit but {@code max-connections}
 * @param permessageDeflate whether the server agrees to compress messages (RFC 7692) when a
 * client offers it
 */
public record WebSocketConfig(Duration idleTimeout, Duration pingInterval, int maxMessageSize, int maxFrameSize,
		int maxSessions, boolean permessageDeflate) {

	/** Default idle timeout: 5 minutes. */
	public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);

	/** Default largest message: 64 KiB, as Jetty's, Netty's and Spring's STOMP support's. */
	public static final int DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024;

	/** Default largest frame: 128 KiB, so that a largest message fits in one frame compressed. */
	public static final int DEFAULT_MAX_FRAME_SIZE = 128 * 1024;

	/**
	 * The defaults: 5 minutes idle, no pings, messages of 64 KiB, frames of 128 KiB, no session
	 * limit of its own, permessage-deflate on.
	 */
	public static final WebSocketConfig DEFAULTS = new WebSocketConfig(DEFAULT_IDLE_TIMEOUT, Duration.ZERO,
			DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_MAX_FRAME_SIZE, 0, true);

	/**
	 * Creates the configuration, checking every value.
	 */
	public WebSocketConfig {
		ServerConfig.requirePositive("websocket.idle-timeout", idleTimeout);
		if (pingInterval == null || pingInterval.isNegative()) {
			throw ServerConfig.invalid("websocket.ping-interval", pingInterval, "0 (no pings) or more");
		}
		if (maxMessageSize < 1) {
			throw ServerConfig.invalid("websocket.max-message-size", maxMessageSize + "B", "greater than 0");
		}
		if (maxFrameSize < 1) {
			throw ServerConfig.invalid("websocket.max-frame-size", maxFrameSize + "B", "greater than 0");
		}
		if (maxSessions < 0) {
			throw ServerConfig.invalid("websocket.max-sessions", maxSessions, "0 (no limit) or more");
		}
	}

	/**
	 * Returns a copy with another idle timeout.
	 * @param timeout the idle timeout
	 * @return the copy
	 */
	public WebSocketConfig withIdleTimeout(Duration timeout) {
		return new WebSocketConfig(timeout, this.pingInterval, this.maxMessageSize, this.maxFrameSize,
				this.maxSessions, this.permessageDeflate);
	}

	/**
	 * Returns a copy with another ping interval.
	 * @param interval the interval, {@link Duration#ZERO} for no pings
	 * @return the copy
	 */
	public WebSocketConfig withPingInterval(Duration interval) {
		return new WebSocketConfig(this.idleTimeout, interval, this.maxMessageSize, this.maxFrameSize,
				this.maxSessions, this.permessageDeflate);
	}

	/**
	 * Returns a copy with other size limits.
	 * @param maxMessageSize the largest message
	 * @param maxFrameSize the largest frame
	 * @return the copy
	 */
	public WebSocketConfig withSizes(int maxMessageSize, int maxFrameSize) {
		return new WebSocketConfig(this.idleTimeout, this.pingInterval, maxMessageSize, maxFrameSize,
				this.maxSessions, this.permessageDeflate);
	}

	/**
	 * Returns a copy with another session limit.
	 * @param maxSessions the limit, 0 for none
	 * @return the copy
	 */
	public WebSocketConfig withMaxSessions(int maxSessions) {
		return new WebSocketConfig(this.idleTimeout, this.pingInterval, this.maxMessageSize, this.maxFrameSize,
				maxSessions, this.permessageDeflate);
	}

	/**
	 * Returns a copy that agrees, or not, to permessage-deflate.
	 * @param enabled whether compression is agreed when offered
	 * @return the copy
	 */
	public WebSocketConfig withPermessageDeflate(boolean enabled) {
		return new WebSocketConfig(this.idleTimeout, this.pingInterval, this.maxMessageSize, this.maxFrameSize,
				this.maxSessions, enabled);
	}

}
