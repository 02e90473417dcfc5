package dev.ariadne.servlet.websocket;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpSession;
import jakarta.websocket.Session;

/**
 * The open sessions of a container: the idle timeout that closes a quiet one with 1001, the pings
 * of {@code websocket.ping-interval}, the 1001
 * of a server that goes away, and the 1008 of a session whose HTTP session ended. A session is
 * here from its connection's {@code init}; its place against the session limit, and its count in
 * the statistics, are the listener's, taken at its handshake ({@code ListenerWebSockets}).
 *
 * <p>The idle timeout is one sweep on the container's timer thread, a few times a second, over
 * the time each session last read or wrote (one field written per message), instead of a task
 * scheduled again at every message as Tyrus's own idle timeout is.
 */
final class OpenSessions {

	/** A WebSocket session authenticated through an HTTP session, closed with 1008 when that ends. */
	interface HttpBound {

		/** The HTTP session ended. */
		void httpSessionEnded();

	}

	private static final Logger logger = System.getLogger(OpenSessions.class.getName());

	private final long idleTimeoutNanos;

	private final long pingIntervalNanos;

	private final ScheduledExecutorService timer;

	private final Set<TyrusUpgradeHandler> open = ConcurrentHashMap.newKeySet();

	/** The open sessions of authenticated handshakes by their HTTP session, closed when it ends. */
	private final Map<HttpSession, Set<HttpBound>> byHttpSession = new ConcurrentHashMap<>();

	/** The sessions on the core's, which the core times out, pings and closes at shutdown. */
	private final Set<CoreJakartaSession> onCore = ConcurrentHashMap.newKeySet();

	private final Object sweepLock = new Object();

	private boolean sweeping;

	/**
	 * Creates the sessions of a container.
	 * @param idleTimeout how long a session may pass without reading or writing, {@code null} for
	 * no timeout of the container's own
	 * @param pingInterval how long a session may be quiet before the server pings it,
	 * {@link Duration#ZERO} for no pings
	 * @param timer the thread that sweeps for idle sessions
	 */
	OpenSessions(Duration idleTimeout, Duration pingInterval, ScheduledExecutorService timer) {
		this.idleTimeoutNanos = (idleTimeout != null) ? idleTimeout.toNanos() : 0;
		this.pingIntervalNanos = pingInterval.toNanos();
		this.timer = timer;
	}

	/**
	 * A session's connection opened.
	 * @param handler its connection
	 * @param session the HTTP session of an authenticated handshake, or {@code null}
	 */
	void opened(TyrusUpgradeHandler handler, HttpSession session) {
		this.open.add(handler);
		bind(session, handler);
		if (this.idleTimeoutNanos > 0 || this.pingIntervalNanos > 0) {
			startSweeping();
		}
	}

	/**
	 * A session's connection ended; once per connection.
	 * @param handler its connection
	 * @param session the HTTP session of an authenticated handshake, or {@code null}
	 */
	void ended(TyrusUpgradeHandler handler, HttpSession session) {
		this.open.remove(handler);
		unbind(session, handler);
	}

	/**
	 * A session on the core's opened (its idle timeout, pings and shutdown are the core's).
	 * @param coreSession the session
	 * @param session the HTTP session of an authenticated handshake, or {@code null}
	 */
	void opened(CoreJakartaSession coreSession, HttpSession session) {
		this.onCore.add(coreSession);
		bind(session, coreSession);
	}

	/**
	 * A session on the core's ended; once.
	 * @param coreSession the session
	 * @param session the HTTP session of an authenticated handshake, or {@code null}
	 */
	void ended(CoreJakartaSession coreSession, HttpSession session) {
		this.onCore.remove(coreSession);
		unbind(session, coreSession);
	}

	/**
	 * Returns the open sessions on the core's of an endpoint.
	 * @param path the endpoint's path
	 * @return the sessions
	 */
	Set<Session> onCore(String path) {
		Set<Session> sessions = new HashSet<>();
		for (CoreJakartaSession session : this.onCore) {
			if (session.config().getPath().equals(path) && session.isOpen()) {
				sessions.add(session);
			}
		}
		return Collections.unmodifiableSet(sessions);
	}

	private void bind(HttpSession session, HttpBound bound) {
		if (session != null) {
			this.byHttpSession.computeIfAbsent(session, (key) -> ConcurrentHashMap.newKeySet()).add(bound);
		}
	}

	private void unbind(HttpSession session, HttpBound bound) {
		if (session != null) {
			this.byHttpSession.computeIfPresent(session, (key, bounds) -> {
				bounds.remove(bound);
				return bounds.isEmpty() ? null : bounds;
			});
		}
	}

	/**
	 * The server goes away: every open session closes with 1001.
	 * @return how many sessions were open
	 */
	int goingAway() {
		int closed = 0;
		for (TyrusUpgradeHandler handler : this.open) {
			handler.goingAway();
			closed++;
		}
		for (CoreJakartaSession session : this.onCore) {
			session.goingAway();
			closed++;
		}
		return closed;
	}

	/**
	 * An HTTP session ended: the sessions authenticated through it close with 1008.
	 * @param session the HTTP session
	 */
	void httpSessionEnded(HttpSession session) {
		Set<HttpBound> bounds = this.byHttpSession.remove(session);
		if (bounds != null) {
			bounds.forEach(HttpBound::httpSessionEnded);
		}
	}

	private void startSweeping() {
		synchronized (this.sweepLock) {
			if (this.sweeping) {
				return;
			}
			// a quarter of the shorter of the timeout and the ping interval, from 50 ms to 1 s, as
			// the core's sessions sweep
			long shortest = (this.idleTimeoutNanos > 0 && this.pingIntervalNanos > 0)
					? Math.min(this.idleTimeoutNanos, this.pingIntervalNanos)
					: Math.max(this.idleTimeoutNanos, this.pingIntervalNanos);
			long period = Math.max(TimeUnit.MILLISECONDS.toNanos(50),
					Math.min(TimeUnit.SECONDS.toNanos(1), shortest / 4));
			this.timer.scheduleAtFixedRate(this::sweep, period, period, TimeUnit.NANOSECONDS);
			this.sweeping = true;
		}
	}

	/**
	 * Closes the sessions quiet for longer than the timeout, and pings those quiet for the ping
	 * interval. The close frame is written here, as Tyrus's own idle timeout writes it on this
	 * thread: a session quiet that long has sent nothing for as long, and a client that takes
	 * nothing is cut by the server's write timeout. A ping is skipped while another frame of the
	 * session is being written.
	 */
	private void sweep() {
		long now = System.nanoTime();
		for (TyrusUpgradeHandler handler : this.open) {
			try {
				if (this.idleTimeoutNanos > 0 && now - handler.lastActive() > this.idleTimeoutNanos) {
					handler.idleTimeout();
				}
				else if (this.pingIntervalNanos > 0) {
					handler.pingIfQuiet(now, this.pingIntervalNanos);
				}
			}
			catch (RuntimeException ex) {
				logger.log(Level.WARNING, "Closing an idle WebSocket session failed", ex);
			}
		}
	}

}
