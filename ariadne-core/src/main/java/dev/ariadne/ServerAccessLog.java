package dev.ariadne;

import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.ariadne.server.AccessLogConfig;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.accesslog.AccessLog;
import dev.ariadne.server.accesslog.LogOutput;
import dev.ariadne.server.accesslog.RollingFile;

/**
 * A server's access log through its life: made from {@code accesslog.*}, opened when the server
 * starts, closed once its connections are gone (every line of an exchange that ended written),
 * and waited for by a stop that cuts a drain short. Nothing happens when the log is off.
 */
final class ServerAccessLog {

	private static final System.Logger logger = System.getLogger(AriadneServer.class.getName());

	/** How long a stop that cuts a drain short waits for the drain, and so the log, to end. */
	private static final long CLOSE_WAIT_SECONDS = 10;

	private final String name;

	/** {@code null} when the log is off. */
	private final AccessLog log;

	private final CountDownLatch closed = new CountDownLatch(1);

	/**
	 * Makes the log of a server.
	 * @param config the server's configuration
	 * @param clock the wall clock of the log's time stamps and file dates
	 * @param output where the lines go instead of the configured file or console (tests), or
	 * {@code null}
	 */
	ServerAccessLog(ServerConfig config, Clock clock, LogOutput output) {
		this.name = config.name();
		this.log = create(config, clock, output);
	}

	private static AccessLog create(ServerConfig config, Clock clock, LogOutput given) {
		AccessLogConfig log = config.accessLog();
		if (!log.enabled()) {
			return null;
		}
		LogOutput output = (given != null) ? given : log.console() ? LogOutput.console()
				: new RollingFile(log.directory(), log.prefix(), log.suffix(), log.rotate() ? log.fileDateFormat() : null,
						log.maxDays(), clock.getZone());
		return new AccessLog(log.lineFormat(), output, config.name(), config.ioModel().value(), log.queueCapacity(),
				clock);
	}

	/** The log the exchanges record to, {@code null} when off. */
	AccessLog log() {
		return this.log;
	}

	/** Opens the log; fails naming the directory's property when its file cannot be opened. */
	void start() {
		if (this.log == null) {
			return;
		}
		try {
			this.log.start();
		}
		catch (UncheckedIOException ex) {
			throw new UncheckedIOException("Ariadne '" + this.name + "' could not open its access log "
					+ this.log.output() + " (ariadne.server.accesslog.directory): " + ex.getCause().getMessage(),
					ex.getCause());
		}
	}

	/** Writes the last lines and closes the log; once the server's exchanges have ended. */
	void close() {
		if (this.log != null) {
			this.log.close();
		}
		this.closed.countDown();
	}

	/** Waits, boundedly, until another thread (a drain) has closed the log. */
	void awaitClosed() {
		if (this.log == null) {
			return;
		}
		try {
			if (!this.closed.await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
				logger.log(System.Logger.Level.WARNING, () -> "Ariadne '" + this.name + "' still draining "
						+ CLOSE_WAIT_SECONDS + " s after stop(); its access log may miss its last lines");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
