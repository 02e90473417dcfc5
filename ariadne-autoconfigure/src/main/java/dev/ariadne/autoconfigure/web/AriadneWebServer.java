package dev.ariadne.autoconfigure.web;

import java.net.BindException;
import java.net.InetAddress;
import java.io.UncheckedIOException;
import java.time.Duration;

import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.AriadneServer;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.servlet.ServletDeployment;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.web.server.GracefulShutdownCallback;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerException;

/**
 * A {@link WebServer} on one Ariadne listener: binds on {@link #start()}, drains on
 * {@link #shutDownGracefully}, and closes its servlet context on {@link #destroy()}.
 *
 * <p>Boot's contexts drive it: {@code WebServerStartStopLifecycle} starts and stops it,
 * {@code WebServerGracefulShutdownLifecycle} drains it within
 * {@code spring.lifecycle.timeout-per-shutdown-phase} and a stop cuts a drain that outlasts
 * that. While it runs it is registered in {@link AriadneServers} under its listener name.
 */
public final class AriadneWebServer implements WebServer {

	private static final Log logger = LogFactory.getLog(AriadneWebServer.class);

	private final AriadneServer server;

	private final ServletDeployment deployment;

	private final boolean autoStart;

	private final boolean graceful;

	private final Duration gracePeriod;

	private final AriadneServers servers;

	private final String livePagePath;

	private final Object monitor = new Object();

	private boolean started;

	private boolean destroyed;

	/**
	 * Creates a web server, not yet listening.
	 * @param server the listener
	 * @param deployment its servlet context, started; or {@code null} when there is none
	 * @param autoStart whether {@link #start()} binds (false for a negative port, as in Boot)
	 * @param graceful whether a shutdown drains ({@code server.shutdown=graceful})
	 * @param gracePeriod the longest drain
	 * @param servers where the listener registers while it runs, or {@code null}
	 * @param livePagePath the path of the live diagnosis page on this listener, for the startup
	 * log line, or {@code null}
	 */
	AriadneWebServer(AriadneServer server, ServletDeployment deployment, boolean autoStart, boolean graceful,
			Duration gracePeriod, AriadneServers servers, String livePagePath) {
		this.server = server;
		this.deployment = deployment;
		this.autoStart = autoStart;
		this.graceful = graceful;
		this.gracePeriod = gracePeriod;
		this.servers = servers;
		this.livePagePath = livePagePath;
	}

	/**
	 * Returns the Ariadne listener.
	 * @return the server
	 */
	public AriadneServer getServer() {
		return this.server;
	}

	@Override
	public void start() throws WebServerException {
		synchronized (this.monitor) {
			if (this.started || !this.autoStart) {
				return;
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
		}
	}

	private String startedMessage() {
		ServerConfig config = this.server.config();
		String contextPath = (this.deployment != null) ? this.deployment.servletContext().getContextPath() : "";
		contextPath = contextPath.isEmpty() ? "/" : contextPath;
		String scheme = (config.tls() != null) ? "https" : "http";
		return "Ariadne started on port " + getPort() + " (" + scheme + ", http/1.1) with context path '"
				+ contextPath + "'"
				+ (("app".equals(config.name())) ? "" : " for the '" + config.name() + "' listener") + " (io-model "
				+ config.ioModel().value() + ", threads.max " + config.maxThreads() + ")"
				+ ((this.livePagePath != null) ? "; live diagnosis on " + scheme + "://" + host() + ":" + getPort()
						+ this.livePagePath : "");
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
		Thread drain = new Thread(() -> {
			boolean drained = this.server.shutdownGracefully(this.gracePeriod);
			if (drained) {
				logger.info("Graceful shutdown complete");
			}
			else {
				logger.info("Graceful shutdown aborted with one or more requests still active");
			}
			callback.shutdownComplete(drained ? GracefulShutdownResult.IDLE : GracefulShutdownResult.REQUESTS_ACTIVE);
		}, "ariadne-" + this.server.config().name() + "-shutdown");
		drain.start();
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
