package dev.ariadne.autoconfigure.actuate;

import dev.ariadne.autoconfigure.AriadneServerInitializedEvent;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationListener;

/**
 * Warns at startup when Actuator's endpoints are served by the application's listener and
 * that listener runs the {@code blocking} model: there, every worker can be pinned by a
 * client's connection, and health checks and scrapes then wait in the same queue as
 * everyone else, exactly when they are needed.
 */
final class SharedListenerWarning implements ApplicationListener<AriadneServerInitializedEvent> {

	private static final Log logger = LogFactory.getLog(SharedListenerWarning.class);

	@Override
	public void onApplicationEvent(AriadneServerInitializedEvent event) {
		ServerConfig config = event.getServer().config();
		if (config.ioModel() == IoModel.BLOCKING) {
			logger.warn("Actuator endpoints are served by the application listener, whose blocking model gives "
					+ "each connection a worker of its " + config.maxThreads() + " (ariadne.server.threads.max): "
					+ "when the pool is starved, metrics and health starve with it. Set "
					+ ManagementServerSettings.PORT_PROPERTY + " to serve them on a listener with threads of its own.");
		}
	}

}
