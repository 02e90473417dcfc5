package dev.ariadne;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.ConnectionRegistry;
import dev.ariadne.server.diagnosis.Diagnosis;
import dev.ariadne.server.transport.Transport;
import dev.ariadne.server.websocket.WebSocketSessions;

/**
 * An {@link AriadneServer}'s life, each step once and from any thread: start (the access log,
 * the transport, the diagnosis), a graceful drain on the caller's thread or one of its own
 * (WebSocket sessions told first, then the transport drained within the grace period), and a
 * stop, which cuts a drain short.
 */
final class ServerLifecycle {

	private final ServerConfig config;

	private final ConnectionRegistry registry;

	private final Transport transport;

	/** The diagnosis, or {@code null} when it is off. */
	private final Diagnosis diagnosis;

	private final ServerAccessLog accessLog;

	private final WebSocketSessions webSockets;

	private final Object lock = new Object();

	private State state = State.NEW;

	private enum State {

		NEW, RUNNING, DRAINING, STOPPED

	}

	ServerLifecycle(ServerConfig config, ConnectionRegistry registry, Transport transport, Diagnosis diagnosis,
			ServerAccessLog accessLog, WebSocketSessions webSockets) {
		this.config = config;
		this.registry = registry;
		this.transport = transport;
		this.diagnosis = diagnosis;
		this.accessLog = accessLog;
		this.webSockets = webSockets;
	}

	/** See {@link AriadneServer#start()}. */
	void start() {
		synchronized (this.lock) {
			if (this.state != State.NEW) {
				throw new IllegalStateException("Server '" + this.config.name() + "' was already started");
			}
			try {
				this.accessLog.start();
				this.transport.start();
			}
			catch (IOException ex) {
				failStart();
				throw new UncheckedIOException("Ariadne could not listen on " + describeBind() + ": " + ex.getMessage(),
						ex);
			}
			catch (UncheckedIOException ex) {
				failStart();
				throw ex;
			}
			this.state = State.RUNNING;
			if (this.diagnosis != null) {
				this.diagnosis.start();
			}
		}
	}

	private void failStart() {
		this.transport.close();
		this.accessLog.close();
		this.state = State.STOPPED;
	}

	private String describeBind() {
		ServerConfig config = this.config;
		String host = (config.address() != null) ? config.address().getHostAddress() : "*";
		return host + ":" + config.port() + " (ariadne.server.address/port)";
	}

	/** See {@link AriadneServer#shutdownGracefully(Duration)}. */
	boolean shutdownGracefully(Duration gracePeriod) {
		Boolean already = beginDraining();
		return (already != null) ? already : drain(gracePeriod);
	}

	/** See {@link AriadneServer#shutdownGracefullyInBackground(Duration)}. */
	CompletableFuture<Boolean> shutdownGracefullyInBackground(Duration gracePeriod) {
		Boolean already = beginDraining();
		if (already != null) {
			return CompletableFuture.completedFuture(already);
		}
		CompletableFuture<Boolean> result = new CompletableFuture<>();
		Thread drain = new Thread(() -> {
			try {
				result.complete(drain(gracePeriod));
			}
			catch (Throwable ex) {
				result.completeExceptionally(ex);
			}
		}, "ariadne-" + this.config.name() + "-shutdown");
		drain.start();
		return result;
	}

	/**
	 * Moves a running server to {@code DRAINING}, on the calling thread.
	 * @return {@code null} when it did; else what a shutdown asked now reports: {@code false}
	 * while another one drains, {@code true} once stopped (or never started)
	 */
	private Boolean beginDraining() {
		synchronized (this.lock) {
			if (this.state != State.RUNNING) {
				return this.state != State.DRAINING;
			}
			this.state = State.DRAINING;
			return null;
		}
	}

	/** Drains the connections of a server whose state is {@code DRAINING} already. */
	private boolean drain(Duration gracePeriod) {
		stopDiagnosis();
		// open WebSocket sessions are told first (1001), while the pools take work
		this.webSockets.shutdown(gracePeriod);
		try {
			return this.transport.shutdown(gracePeriod);
		}
		finally {
			this.webSockets.stop();
			// the exchanges have ended: the access log's last lines are written before the drain ends
			this.accessLog.close();
			synchronized (this.lock) {
				this.state = State.STOPPED;
			}
		}
	}

	/** See {@link AriadneServer#stop()}. */
	void stop() {
		State previous;
		synchronized (this.lock) {
			previous = this.state;
			if (previous == State.DRAINING) {
				this.registry.forceClose();
			}
			else {
				this.state = State.STOPPED;
			}
		}
		if (previous == State.DRAINING) {
			// the drain, cut short, ends at once and closes the log
			this.accessLog.awaitClosed();
		}
		if (previous != State.RUNNING) {
			return;
		}
		stopDiagnosis();
		this.transport.shutdown(Duration.ZERO);
		this.webSockets.stop();
		this.accessLog.close();
	}

	private void stopDiagnosis() {
		if (this.diagnosis != null) {
			this.diagnosis.stop();
		}
	}

	/** See {@link AriadneServer#isRunning()}. */
	boolean isRunning() {
		synchronized (this.lock) {
			return this.state == State.RUNNING;
		}
	}

	/** See {@link AriadneServer#localAddress()}. */
	InetSocketAddress localAddress() {
		InetSocketAddress address = this.transport.localAddress();
		if (address == null) {
			throw new IllegalStateException("Server '" + this.config.name() + "' is not started");
		}
		return address;
	}

}
