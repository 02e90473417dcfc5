package dev.ariadne.autoconfigure.web;

import java.net.BindException;
import java.net.InetAddress;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import dev.ariadne.autoconfigure.AdditionalListener;
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
 * A {@link WebServer} on Ariadne listeners: the application's ({@code app}, whose port
 * {@link #getPort()} answers) and its additional listeners
 * ({@code ariadne.server.additional-listeners}), all serving the same servlet context or
 * handler. It binds them all on {@link #start()} (one that cannot bind stops the others and
 * fails the start), drains them together on {@link #shutDownGracefully}, and closes its servlet
 * context on {@link #destroy()}. It starts again after {@link #stop()} (a context restart, a
 * checkpoint's restore) on listeners built anew with the same settings and servlet context.
 *
 * <p>Boot's contexts drive it: {@code WebServerStartStopLifecycle} starts and stops it,
 * {@code WebServerGracefulShutdownLifecycle} drains it within
 * {@code spring.lifecycle.timeout-per-shutdown-phase} and a stop cuts a drain that outlasts
 * that. While they run, its listeners are registered in {@link AriadneServers} under their
 * names.
 */
public final class AriadneWebServer implements WebServer {

	private static final Log logger = LogFactory.getLog(AriadneWebServer.class);

	/** The application listener first, then the additional ones in order. */
	private final List<Listener> listeners;

	private final ServletDeployment deployment;

	private final boolean autoStart;

	private final boolean graceful;

	private final Duration gracePeriod;

	private final AriadneServers servers;

	private final String livePagePath;

	private final Object monitor = new Object();

	private boolean started;

	/** Whether the listeners were stopped since they were built, so that a start builds others. */
	private boolean stopped;

	private boolean destroyed;

	/**
	 * Creates a web server, not yet listening.
	 * @param listeners the listeners, the application's first
	 * @param deployment its servlet context, started, whose load-on-startup servlets {@link #start()}
	 * initialises; or {@code null} when there is none
	 * @param autoStart whether {@link #start()} binds (false for a negative port, as in Boot)
	 * @param graceful whether a shutdown drains ({@code server.shutdown=graceful})
	 * @param gracePeriod the longest drain
	 * @param servers where the listeners register while they run, or {@code null}
	 * @param livePagePath the path of the live diagnosis page on these listeners, for the
	 * startup log line, or {@code null}
	 */
	AriadneWebServer(List<Listener> listeners, ServletDeployment deployment, boolean autoStart, boolean graceful,
			Duration gracePeriod, AriadneServers servers, String livePagePath) {
		this.listeners = List.copyOf(listeners);
		this.deployment = deployment;
		this.autoStart = autoStart;
		this.graceful = graceful;
		this.gracePeriod = gracePeriod;
		this.servers = servers;
		this.livePagePath = livePagePath;
	}

	/**
	 * Returns the application's Ariadne listener: the one running, or the last one.
	 * @return the server, another one after a stop and a start
	 */
	public AriadneServer getServer() {
		return this.listeners.get(0).server;
	}

	/**
	 * Returns every Ariadne listener of this web server: the running ones, or the last ones.
	 * @return the application's listener, then the additional ones in order
	 */
	public List<AriadneServer> getServers() {
		return this.listeners.stream().map((listener) -> listener.server).toList();
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
				// a context restart (or a checkpoint's restore): the same deployment, new listeners
				this.listeners.forEach(Listener::rebuild);
				this.stopped = false;
			}
			List<AriadneServer> running = new ArrayList<>(this.listeners.size());
			try {
				for (Listener listener : this.listeners) {
					listener.start();
					running.add(listener.server);
				}
			}
			catch (RuntimeException ex) {
				running.forEach(AriadneServer::stop);
				// every listener is built anew by the next start
				this.stopped = true;
				throw ex;
			}
			this.started = true;
			if (this.servers != null) {
				running.forEach(this.servers::register);
			}
			logger.info(startedMessage());
			for (int i = 0; i < this.listeners.size(); i++) {
				logger.info(modelMessage(this.listeners.get(i).server, i == 0));
			}
		}
	}

	/** Initialises the load-on-startup servlets (at the first start; later ones find them done). */
	private void loadOnStartup() {
		try {
			this.deployment.loadOnStartup();
		}
		catch (ServletException ex) {
			throw new WebServerException("Unable to start Ariadne's '" + getServer().config().name() + "' listener: "
					+ ex.getMessage(), ex);
		}
	}

	/**
	 * The line Boot's own servers log, in their shape ({@code port 8080 (http)}, or as Tomcat
	 * with more than one connector, {@code ports 8443 (https), 8080 (http)}), which log parsers
	 * and tests match.
	 */
	private String startedMessage() {
		String contextPath = (this.deployment != null) ? this.deployment.servletContext().getContextPath() : "";
		StringBuilder ports = new StringBuilder((this.listeners.size() == 1) ? "port " : "ports ");
		for (int i = 0; i < this.listeners.size(); i++) {
			AriadneServer server = this.listeners.get(i).server;
			ports.append((i > 0) ? ", " : "").append(server.port()).append(" (").append(scheme(server)).append(')');
		}
		return "Ariadne started on " + ports + " with context path '" + (contextPath.isEmpty() ? "/" : contextPath)
				+ "'";
	}

	/** What Ariadne adds, on a line of its own: a listener's model and where to see it starve. */
	private String modelMessage(AriadneServer server, boolean application) {
		ServerConfig config = server.config();
		return "Ariadne '" + config.name() + "' listener on port " + server.port() + ": io-model "
				+ config.ioModel().value() + ", threads.max " + config.maxThreads()
				+ ((application && this.livePagePath != null) ? "; live diagnosis on " + scheme(server) + "://"
						+ host(server) + ":" + server.port() + this.livePagePath : "");
	}

	private static String scheme(AriadneServer server) {
		return (server.config().tls() != null) ? "https" : "http";
	}

	private static String host(AriadneServer server) {
		InetAddress address = server.localAddress().getAddress();
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
		for (Listener listener : this.listeners) {
			AriadneServer server = listener.server;
			server.stop();
			if (this.servers != null) {
				this.servers.unregister(server);
			}
		}
	}

	@Override
	public int getPort() {
		AriadneServer server = getServer();
		return server.isRunning() ? server.port() : -1;
	}

	@Override
	public void shutDownGracefully(GracefulShutdownCallback callback) {
		List<AriadneServer> running = getServers().stream().filter(AriadneServer::isRunning).toList();
		if (!this.graceful || running.isEmpty()) {
			callback.shutdownComplete(GracefulShutdownResult.IMMEDIATE);
			return;
		}
		logger.info("Commencing graceful shutdown of Ariadne's "
				+ running.stream().map((server) -> "'" + server.config().name() + "'").collect(Collectors.joining(", "))
				+ ((running.size() == 1) ? " listener" : " listeners") + ". Waiting up to " + this.gracePeriod.toMillis()
				+ " ms for active requests to complete");
		// begun here, so that a stop() right after it (Boot's on a timeout) finds them draining
		List<CompletableFuture<Boolean>> drains = running.stream()
			.map((server) -> server.shutdownGracefullyInBackground(this.gracePeriod))
			.toList();
		CompletableFuture.allOf(drains.toArray(CompletableFuture[]::new)).whenComplete((done, failure) -> {
			boolean idle = drains.stream().allMatch((drain) -> !drain.isCompletedExceptionally() && drain.join());
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

	/**
	 * One listener: how to build it, and the one built last.
	 */
	static final class Listener {

		/** Builds the listener again for a start after a stop: a stopped listener never restarts. */
		private final Supplier<AriadneServer> factory;

		/** Where its port is configured, for a failure to bind; {@code null} for the application's. */
		private final AdditionalListener additional;

		private volatile AriadneServer server;

		/**
		 * Builds a listener now.
		 * @param factory builds it: once now, and again for each start after a stop
		 * @param additional what configured it, or {@code null} for the application listener
		 */
		Listener(Supplier<AriadneServer> factory, AdditionalListener additional) {
			this.factory = factory;
			this.additional = additional;
			this.server = factory.get();
		}

		void rebuild() {
			this.server = this.factory.get();
		}

		void start() {
			AriadneServer server = this.server;
			try {
				server.start();
			}
			catch (UncheckedIOException ex) {
				ServerConfig config = server.config();
				if (this.additional != null) {
					throw new WebServerException(this.additional.bindFailure(config, ex), ex);
				}
				if (ex.getCause() instanceof BindException) {
					PortInUseException.throwIfPortBindingException(ex.getCause(), config::port);
				}
				throw new WebServerException("Unable to start Ariadne's '" + config.name() + "' listener: "
						+ ex.getMessage(), ex);
			}
		}

	}

}
