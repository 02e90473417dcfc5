package dev.ariadne.autoconfigure.web;

import java.net.BindException;
import java.net.InetAddress;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.Supplier;

import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.AriadneServer;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.servlet.ServletDeployment;
import jakarta.servlet.ServletException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.web.server.GracefulShutdownCallback;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerException;

/**
 * A {@link WebServer} on one Ariadne listener: binds on {@link #start()}, drains on
 * {@link #shutDownGracefully}, and closes its servlet context on {@link #destroy()}. It starts
 * again after {@link #stop()} (a context restart, a checkpoint's restore) on a listener built
 * anew with the same settings and servlet context.
 *
 * <p>Boot's contexts drive it: {@code WebServerStartStopLifecycle} starts and stops it,
 * {@code WebServerGracefulShutdownLifecycle} drains it within
 * {@code spring.lifecycle.timeout-per-shutdown-phase} and a stop cuts a drain that outlasts
 * that. While it runs it is registered in {@link AriadneServers} under its listener name.
 */
public final class AriadneWebServer implements WebServer {

	private static final Log logger = LogFactory.getLog(AriadneWebServer.class);

	/** Builds the listener again for a start after a stop: a stopped listener never restarts. */
	private final Supplier<AriadneServer> newServer;

	private volatile AriadneServer server;

	private final ServletDeployment deployment;

	private final boolean autoStart;

	private final boolean graceful;

	private final Duration gracePeriod;

	private final AriadneServers servers;

	private final String livePagePath;

	private final Object monitor = new Object();

	private boolean started;

	/** Whether the listener was stopped since it was built, so that a start builds another. */
	private boolean stopped;

	private boolean destroyed;

	/**
	 * Creates a web server, not yet listening.
	 * @param server builds the listener: once now, and again for each start after a stop
	 * @param deployment its servlet context, started, whose load-on-startup servlets {@link #start()}
	 * initialises; or {@code null} when there is none
	 * @param autoStart whether {@link #start()} binds (false for a negative port, as in Boot)
	 * @param graceful whether a shutdown drains ({@code server.shutdown=graceful})
	 * @param gracePeriod the longest drain
	 * @param servers where the listener registers while it runs, or {@code null}
	 * @param livePagePath the path of the live diagnosis page on this listener, for the startup
	 * log line, or {@code null}
	 */
	AriadneWebServer(Supplier<AriadneServer> server, ServletDeployment deployment, boolean autoStart,
			boolean graceful, Duration gracePeriod, AriadneServers servers, String livePagePath) {
		this.newServer = server;
		this.server = server.get();
		this.deployment = deployment;
		this.autoStart = autoStart;
		this.graceful = graceful;
		this.gracePeriod = gracePeriod;
		this.servers = servers;
		this.livePagePath = livePagePath;
	}

	/**
	 * Returns the Ariadne listener: the one running, or the last one.
	 * @return the server, another one after a stop and a start
	 */
	public AriadneServer getServer() {
		return this.server;
	}

	@Override
	public void start() throws WebServerException {
		synchronized (this.monitor) {
			if (this.started) {
				return;
			}
			if (this.deployment != null) {
				// even with no port to listen on, as on Tomcat
				loadOnStartup();
			}
			if (!this.autoStart) {
				return;
			}
			if (this.stopped) {
				// a context restart (or a checkpoint's restore): the same deployment, a new listener
				this.server = this.newServer.get();
				this.stopped = false;
			}
			try {
				this.server.start();
			}
			catch (UncheckedIOException ex) {
				if (ex.getCause() instanceof BindException) {
					PortInUseException.throwIfPortBindingException(ex.getCause(), this.server.config()::port);
				}
				throw new WebServerException("Unable to start Ariadne's '" + this.server.config().name()
						+ "' listener: " + ex.getMessage(), ex);
			}
			this.started = true;
			if (this.servers != null) {
				this.servers.register(this.server);
			}
			logger.info(startedMessage());
			logger.info(modelMessage());
		}
	}

	/** Initialises the load-on-startup servlets (at the first start; later ones find them done). */
	private void loadOnStartup() {
		try {
			this.deployment.loadOnStartup();
		}
		catch (ServletException ex) {
			throw new WebServerException("Unable to start Ariadne's '" + this.server.config().name() + "' listener: "
					+ ex.getMessage(), ex);
		}
	}

	/** The line Boot's own servers log, in their shape, which log parsers and tests match. */
	private String startedMessage() {
		String contextPath = (this.deployment != null) ? this.deployment.servletContext().getContextPath() : "";
		return "Ariadne started on port " + getPort() + " (" + scheme() + ") with context path '"
				+ (contextPath.isEmpty() ? "/" : contextPath) + "'";
	}

	/** What Ariadne adds, on a line of its own: the listener's model and where to see it starve. */
	private String modelMessage() {
		ServerConfig config = this.server.config();
		return "Ariadne '" + config.name() + "' listener on port " + getPort() + ": io-model "
				+ config.ioModel().value() + ", threads.max " + config.maxThreads()
				+ ((this.livePagePath != null) ? "; live diagnosis on " + scheme() + "://" + host() + ":" + getPort()
						+ this.livePagePath : "");
	}

	private String scheme() {
		return (this.server.config().tls() != null) ? "https" : "http";
	}

	private String host() {
		InetAddress address = this.server.localAddress().getAddress();
		if (address == null || address.isAnyLocalAddress()) {
			return "localhost";
		}
		String host = address.getHostAddress();
		return (host.indexOf(':') >= 0) ? "[" + host + "]" : host;
	}

	@Override
	public void stop() throws WebServerException {
		synchronized (this.monitor) {
			if (!this.started) {
				return;
			}
			this.started = false;
			this.stopped = true;
		}
		this.server.stop();
		if (this.servers != null) {
			this.servers.unregister(this.server);
		}
	}

	@Override
	public int getPort() {
		return this.server.isRunning() ? this.server.port() : -1;
	}

	@Override
	public void shutDownGracefully(GracefulShutdownCallback callback) {
		if (!this.graceful || !this.server.isRunning()) {
			callback.shutdownComplete(GracefulShutdownResult.IMMEDIATE);
			return;
		}
		logger.info("Commencing graceful shutdown of Ariadne's '" + this.server.config().name()
				+ "' listener. Waiting up to " + this.gracePeriod.toMillis() + " ms for active requests to complete");
		// begun here, so that a stop() right after it (Boot's on a timeout) finds it draining
		this.server.shutdownGracefullyInBackground(this.gracePeriod).whenComplete((drained, failure) -> {
			boolean idle = failure == null && drained;
			if (idle) {
				logger.info("Graceful shutdown complete");
			}
			else {
				logger.info("Graceful shutdown aborted with one or more requests still active");
			}
			callback.shutdownComplete(idle ? GracefulShutdownResult.IDLE : GracefulShutdownResult.REQUESTS_ACTIVE);
		});
	}

	@Override
	public void destroy() {
		stop();
		synchronized (this.monitor) {
			if (this.destroyed) {
				return;
			}
			this.destroyed = true;
		}
		if (this.deployment != null) {
			this.deployment.stop();
		}
	}

}
