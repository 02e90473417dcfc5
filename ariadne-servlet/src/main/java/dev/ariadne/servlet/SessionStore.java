package dev.ariadne.servlet;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The sessions of a context, in memory, kept across a restart when they are persistent
 * ({@link SessionFile}). Ids are 128 random bits. A daemon thread sweeps expired
 * sessions away, off the request path; a request never finds an expired session either way.
 */
final class SessionStore {

	private final DeploymentContext context;

	private final Map<String, MemorySession> sessions = new ConcurrentHashMap<>();

	private final SecureRandom random = new SecureRandom();

	private ScheduledExecutorService sweeper;

	/** Where the sessions wait across a restart, or {@code null} when they end with the deployment. */
	private SessionFile file;

	SessionStore(DeploymentContext context) {
		this.context = context;
	}

	DeploymentContext context() {
		return this.context;
	}

	int size() {
		return this.sessions.size();
	}

	/**
	 * Creates a session and tells the session listeners.
	 * @return the new session, already accessed by the calling request
	 */
	MemorySession create() {
		String id = newId();
		MemorySession session = new MemorySession(this, id, System.currentTimeMillis(),
				this.context.sessionTimeoutSeconds());
		this.sessions.put(id, session);
		this.context.listeners().sessionCreated(session);
		return session;
	}

	/**
	 * Finds a live session by the id a client sent; expires it if its time is up.
	 * @param id the id
	 * @return the session, joined by the client, or {@code null}
	 */
	MemorySession find(String id) {
		MemorySession session = (id != null) ? this.sessions.get(id) : null;
		if (session == null) {
			return null;
		}
		if (session.isExpired(System.currentTimeMillis())) {
			session.expire();
			return null;
		}
		if (!session.isValid()) {
			return null;
		}
		session.joined();
		return session;
	}

	/**
	 * Gives a session a new id and tells the id listeners.
	 * @param session the session
	 * @return the new id
	 */
	String changeId(MemorySession session) {
		if (!session.isValid()) {
			throw new IllegalStateException("Cannot change the id of invalidated session " + session.getId());
		}
		String old = session.getId();
		String id = newId();
		session.id(id);
		this.sessions.put(id, session);
		this.sessions.remove(old, session);
		this.context.listeners().sessionIdChanged(session, old);
		return id;
	}

	void removed(MemorySession session) {
		this.sessions.remove(session.getId(), session);
	}

	private String newId() {
		byte[] bytes = new byte[16];
		while (true) {
			this.random.nextBytes(bytes);
			String id = HexFormat.of().withUpperCase().formatHex(bytes);
			if (!this.sessions.containsKey(id)) {
				return id;
			}
		}
	}

	/** Restores the sessions an earlier deployment kept, then starts the sweeper. */
	void start() {
		Path directory = this.context.settings().sessionStore();
		if (directory != null) {
			this.file = new SessionFile(directory, this.context);
			restore();
		}
		long interval = this.context.settings().sessionSweepInterval().toMillis();
		this.sweeper = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "ariadne-sessions-" + this.context.getServletContextName());
			thread.setDaemon(true);
			return thread;
		});
		this.sweeper.scheduleWithFixedDelay(this::sweep, interval, interval, TimeUnit.MILLISECONDS);
	}

	/** Expires every session whose time is up. */
	void sweep() {
		long now = System.currentTimeMillis();
		for (MemorySession session : new ArrayList<>(this.sessions.values())) {
			if (session.isExpired(now)) {
				try {
					session.expire();
				}
				catch (RuntimeException ex) {
					this.context.log("Expiring " + session + " failed", ex);
				}
			}
		}
	}

	private void restore() {
		long now = System.currentTimeMillis();
		int restored = 0;
		for (SessionFile.Stored stored : this.file.read()) {
			int max = stored.maxInactiveInterval();
			if (max > 0 && now - stored.lastAccessedTime() > max * 1000L) {
				// its time ran out while the application was down
				continue;
			}
			this.sessions.put(stored.id(), MemorySession.restored(this, stored));
			restored++;
		}
		if (restored > 0) {
			this.context.log("Restored " + restored + " sessions kept across the restart");
		}
	}

	/**
	 * Stops the sweeper; keeps every live session for the next deployment when sessions are
	 * persistent, else invalidates them.
	 */
	void stop() {
		if (this.sweeper != null) {
			this.sweeper.shutdownNow();
		}
		List<SessionFile.Stored> kept = new ArrayList<>();
		for (MemorySession session : new ArrayList<>(this.sessions.values())) {
			if (this.file != null && session.isValid()) {
				kept.add(session.passivate());
			}
			else {
				session.expire();
			}
		}
		if (this.file != null) {
			try {
				this.file.write(kept);
			}
			catch (IOException ex) {
				this.context.log("Sessions could not be kept across the restart: " + ex, ex);
			}
		}
	}

	/**
	 * Reads a session id from a {@code ;jsessionid=} path parameter (URL rewriting).
	 * @param requestUri the request URI as sent
	 * @return the id, or {@code null}
	 */
	static String idFromPath(String requestUri) {
		int index = requestUri.toLowerCase(Locale.ROOT).indexOf(";jsessionid=");
		if (index < 0) {
			return null;
		}
		int start = index + ";jsessionid=".length();
		int end = start;
		while (end < requestUri.length() && requestUri.charAt(end) != ';' && requestUri.charAt(end) != '/') {
			end++;
		}
		return (end > start) ? requestUri.substring(start, end) : null;
	}

}
