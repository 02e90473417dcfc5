package dev.ariadne.autoconfigure;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Warns at startup when Actuator's endpoints are served by the application's listener and
 * that listener runs the {@code blocking} model: there, every worker can be pinned by a
 * client's connection, and health checks and scrapes then wait in the same queue as
 * everyone else, exactly when they are needed. Said for {@code Route} applications and for
 * Spring MVC and WebFlux applications alike.
 */
public final class SharedListenerWarning {

	private static final Log logger = LogFactory.getLog(SharedListenerWarning.class);

	private SharedListenerWarning() {
	}

	/**
	 * Logs the warning if the listener that serves Actuator's endpoints runs the
	 * {@code blocking} model.
	 * @param config the configuration of that listener
	 */
	public static void warnIfBlocking(ServerConfig config) {
		if (config.ioModel() == IoModel.BLOCKING) {
			logger.warn("Actuator endpoints are served by the application listener, whose blocking model gives "
					+ "each connection a worker of its " + config.maxThreads() + " (ariadne.server.threads.max): "
					+ "when the pool is starved, metrics and health starve with it. Set management.server.port "
					+ "to serve them on a listener with threads of its own.");
		}
	}

}
