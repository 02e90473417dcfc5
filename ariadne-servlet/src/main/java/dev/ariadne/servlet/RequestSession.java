package dev.ariadne.servlet;

import java.util.Set;

import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpSession;

/**
 * The session of one request: the id the client sent (by cookie, else by a
 * {@code ;jsessionid=} path parameter when URL tracking is on), the session it names, and the
 * session the request creates or whose id it changes, with the cookie that tells the client.
 */
final class RequestSession {

	private final ServletExchange exchange;

	private final ExchangeRequest request;

	private final DeploymentContext context;

	private boolean resolved;

	private String requestedId;

	private boolean requestedIdFromCookie;

	private MemorySession session;

	RequestSession(ServletExchange exchange, ExchangeRequest request) {
		this.exchange = exchange;
		this.request = request;
		this.context = exchange.context();
	}

	MemorySession current() {
		return this.session;
	}

	/**
	 * Returns the request's session, creating one if asked.
	 * @param create whether to create a session when there is none
	 * @return the session, or {@code null}
	 * @throws IllegalStateException when creating a cookie-tracked session after the response
	 * was committed
	 */
	HttpSession get(boolean create) {
		MemorySession current = this.session;
		if (current != null && current.isValid()) {
			return current;
		}
		this.session = null;
		if (!this.resolved) {
			this.resolved = true;
			MemorySession found = findRequested();
			if (found != null) {
				this.session = found;
				this.exchange.accessed(found);
				return found;
			}
		}
		if (!create) {
			return null;
		}
		boolean cookies = tracksByCookie();
		if (cookies && this.exchange.response().isCommitted()) {
			throw new IllegalStateException("Cannot create a session after the response has been committed");
		}
		MemorySession created = this.context.sessions().create();
		this.session = created;
		this.exchange.accessed(created);
		if (cookies) {
			this.exchange.response().sessionCookie(created.getId());
		}
		return created;
	}

	/**
	 * Gives the request's session a new id and tells the client.
	 * @return the new id
	 */
	String changeId() {
		HttpSession current = get(false);
		if (current == null) {
			throw new IllegalStateException("The request has no session whose id could change");
		}
		String id = this.context.sessions().changeId((MemorySession) current);
		if (tracksByCookie()) {
			this.exchange.response().sessionCookie(id);
		}
		return id;
	}

	private boolean tracksByCookie() {
		return this.context.getEffectiveSessionTrackingModes().contains(SessionTrackingMode.COOKIE);
	}

	private MemorySession findRequested() {
		Set<SessionTrackingMode> modes = this.context.getEffectiveSessionTrackingModes();
		if (modes.contains(SessionTrackingMode.COOKIE)) {
			MemorySession found = findByCookie(this.context.getSessionCookieConfig().getName());
			if (found != null) {
				return found;
			}
		}
		if (this.requestedId == null && modes.contains(SessionTrackingMode.URL)) {
			this.requestedId = SessionStore.idFromPath(this.request.getRequestURI());
			if (this.requestedId != null) {
				return this.context.sessions().find(this.requestedId);
			}
		}
		return null;
	}

	/** Tries every cookie of the session cookie's name: paths may overlap, one of them is live. */
	private MemorySession findByCookie(String name) {
		Cookie[] cookies = this.request.getCookies();
		if (cookies == null) {
			return null;
		}
		for (Cookie cookie : cookies) {
			if (!cookie.getName().equals(name)) {
				continue;
			}
			if (this.requestedId == null) {
				this.requestedId = cookie.getValue();
				this.requestedIdFromCookie = true;
			}
			MemorySession found = this.context.sessions().find(cookie.getValue());
			if (found != null) {
				this.requestedId = cookie.getValue();
				return found;
			}
		}
		return null;
	}

	private void resolve() {
		if (!this.resolved) {
			get(false);
		}
	}

	String requestedId() {
		resolve();
		return this.requestedId;
	}

	boolean requestedIdFromCookie() {
		resolve();
		return this.requestedIdFromCookie;
	}

	boolean requestedIdValid() {
		resolve();
		MemorySession current = this.session;
		return this.requestedId != null && current != null && current.isValid()
				&& this.requestedId.equals(current.getId());
	}

}
