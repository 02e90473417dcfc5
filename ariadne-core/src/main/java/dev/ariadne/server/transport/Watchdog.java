package dev.ariadne.server.transport;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

import dev.ariadne.server.RateLimitedLogger;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.ConnectionRegistry;

/**
 * The timer of the models whose reads and writes block a thread: closes connections idle past
 * their timeout and those whose writes stall (a socket write has no timeout of its own), so
 * that a connection waiting for its next request blocks in a plain read, without a socket
 * timeout. Ticks at a tenth of the shorter of the header and keep-alive timeouts, within
 * 10-250 ms, so a timeout fires at most that late. Runs on a daemon thread of its own until
 * the server shuts down and its last connection is gone; a tick that fails (out of memory) is
 * counted and logged, and the next one runs as usual.
 */
final class Watchdog implements Runnable {

	private static final Logger logger = System.getLogger(Watchdog.class.getName());

	private static final RateLimitedLogger tickFailures = RateLimitedLogger.of(logger, Level.ERROR,
			"Watchdog tick failed", RateLimitedLogger.DEFAULT_INTERVAL);

	/** The longest tick: how late, at most, an idle or stalled connection closes. */
	private static final long MAX_TICK_MILLIS = 250;

	/** The shortest tick, for timeouts configured in tens of milliseconds. */
	private static final long MIN_TICK_MILLIS = 10;

	private final ConnectionRegistry registry;

	private final long tickMillis;

	private final long writeTimeoutNanos;

	private Watchdog(ServerConfig config, ConnectionRegistry registry) {
		this.registry = registry;
		long shortest = Math.min(config.headerTimeout().toMillis(), config.keepAliveTimeout().toMillis());
		if (config.lowResourcesEnabled()) {
			// the low-resources mode cuts stalled writers after the stall timeout
			shortest = Math.min(shortest, config.lowResourcesStallTimeout().toMillis());
		}
		this.tickMillis = Math.max(MIN_TICK_MILLIS, Math.min(MAX_TICK_MILLIS, shortest / 10));
		this.writeTimeoutNanos = config.keepAliveTimeout().toNanos();
	}

	/**
	 * Starts the watchdog of a server's connections.
	 * @param config the configuration
	 * @param registry the connections
	 */
	static void start(ServerConfig config, ConnectionRegistry registry) {
		Thread thread = new Thread(new Watchdog(config, registry), "ariadne-" + config.name() + "-watchdog");
		thread.setDaemon(true);
		thread.start();
	}

	@Override
	public void run() {
		while (!this.registry.shuttingDown() || this.registry.hasConnections()) {
			try {
				Thread.sleep(this.tickMillis);
			}
			catch (InterruptedException ex) {
				return;
			}
			try {
				this.registry.closeExpired(System.nanoTime(), this.writeTimeoutNanos);
			}
			catch (Throwable ex) {
				if (ex instanceof Error) {
					this.registry.fatalError();
				}
				tickFailures.log("Closing expired connections failed; trying again at the next tick", ex);
			}
		}
	}

}
