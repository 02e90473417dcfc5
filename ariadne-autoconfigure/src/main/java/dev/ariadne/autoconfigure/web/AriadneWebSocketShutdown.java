package dev.ariadne.autoconfigure.web;

import jakarta.servlet.ServletContext;

import dev.ariadne.servlet.websocket.JakartaWebSocket;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.web.context.WebApplicationContext;

/**
 * Closes the application's open WebSocket sessions with 1001 (going away) as it stops, just
 * before the graceful shutdown of its web server: the server waits for connections in progress,
 * and a session is one, so without this its clients would learn of the shutdown only when the
 * grace period ends and their connections are cut. Tomcat and Jetty close their sessions the
 * same way when they stop.
 */
final class AriadneWebSocketShutdown implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(AriadneWebSocketShutdown.class);

	private final ApplicationContext context;

	private volatile boolean running;

	AriadneWebSocketShutdown(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		goingAway();
	}

	/**
	 * Closes the sessions on a thread of its own and lets the shutdown go on at once: a close
	 * frame is written as Tyrus writes every frame, waiting while the client does not read, and
	 * such a client must not hold the shutdown; the server's grace period bounds it.
	 */
	@Override
	public void stop(Runnable callback) {
		this.running = false;
		Thread closer = new Thread(this::goingAway, "ariadne-websocket-going-away");
		closer.setDaemon(true);
		closer.start();
		callback.run();
	}

	private void goingAway() {
		if (this.context instanceof WebApplicationContext web) {
			ServletContext servletContext = web.getServletContext();
			if (servletContext != null) {
				int closed = JakartaWebSocket.goingAway(servletContext);
				if (closed > 0) {
					logger.info("Closed " + closed + " WebSocket session(s) with 1001 (going away)");
				}
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Stops before the web server's graceful shutdown, which stops in the phase below. */
	@Override
	public int getPhase() {
		return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE + 1;
	}

}
