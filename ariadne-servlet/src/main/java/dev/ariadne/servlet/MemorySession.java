package dev.ariadne.servlet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionActivationListener;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionBindingListener;
import jakarta.servlet.http.HttpSessionEvent;

/**
 * A session held in memory. Thread-safe: requests of one client may use it concurrently, and
 * the sweeper thread expires it.
 *
 * <p>A session expires when no request has used it for its max inactive interval; requests in
 * progress keep it alive ({@link #access()} ... {@link #endAccess()}).
 */
final class MemorySession implements HttpSession {

	private final SessionStore store;

	private final long creationTime;

	private final Map<String, Object> attributes = new ConcurrentHashMap<>();

	private final AtomicBoolean ending = new AtomicBoolean();

	private volatile boolean valid = true;

	private final AtomicInteger accessCount = new AtomicInteger();

	private volatile String id;

	private volatile long lastAccessedTime;

	private volatile int maxInactiveInterval;

	private volatile boolean isNew = true;

	MemorySession(SessionStore store, String id, long now, int maxInactiveInterval) {
		this.store = store;
		this.id = id;
		this.creationTime = now;
		this.lastAccessedTime = now;
		this.maxInactiveInterval = maxInactiveInterval;
	}

	void id(String id) {
		this.id = id;
	}

	/**
	 * Makes a session read back from where an earlier deployment left it: not new, since its
	 * client has its id; nothing is told of its attributes but that they were activated.
	 * @param store the store it joins
	 * @param stored what was kept of it
	 * @return the session
	 */
	static MemorySession restored(SessionStore store, SessionFile.Stored stored) {
		MemorySession session = new MemorySession(store, stored.id(), stored.creationTime(),
				stored.maxInactiveInterval());
		session.lastAccessedTime = stored.lastAccessedTime();
		session.isNew = false;
		session.attributes.putAll(stored.attributes());
		for (Object value : stored.attributes().values()) {
			if (value instanceof HttpSessionActivationListener listener) {
				listener.sessionDidActivate(new HttpSessionEvent(session));
			}
		}
		return session;
	}

	/**
	 * Ends the session in this deployment to live on in the next one: its attributes are told
	 * they passivate, its listeners are not told it is destroyed.
	 * @return what to keep of it
	 */
	SessionFile.Stored passivate() {
		for (Object value : this.attributes.values()) {
			if (value instanceof HttpSessionActivationListener listener) {
				listener.sessionWillPassivate(new HttpSessionEvent(this));
			}
		}
		SessionFile.Stored stored = new SessionFile.Stored(this.id, this.creationTime, this.lastAccessedTime,
				this.maxInactiveInterval, new LinkedHashMap<>(this.attributes));
		this.ending.set(true);
		this.valid = false;
		this.store.removed(this);
		return stored;
	}

	/** Marks the start of a request that uses the session. */
	void access() {
		this.accessCount.incrementAndGet();
	}

	/** Marks the end of a request that used the session. */
	void endAccess() {
		this.lastAccessedTime = System.currentTimeMillis();
		this.accessCount.decrementAndGet();
	}

	/** Marks that the client sent the session's id back, so it joined the session. */
	void joined() {
		this.isNew = false;
	}

	boolean isValid() {
		return this.valid && !this.ending.get() && !isExpired(System.currentTimeMillis());
	}

	boolean isExpired(long now) {
		int max = this.maxInactiveInterval;
		return max > 0 && this.accessCount.get() <= 0 && now - this.lastAccessedTime > max * 1000L;
	}

	private void checkValid(String what) {
		if (!this.valid) {
			throw new IllegalStateException("Cannot " + what + ": session " + this.id + " was invalidated");
		}
	}

	@Override
	public long getCreationTime() {
		checkValid("read the creation time");
		return this.creationTime;
	}

	@Override
	public String getId() {
		return this.id;
	}

	@Override
	public long getLastAccessedTime() {
		checkValid("read the last accessed time");
		return this.lastAccessedTime;
	}

	@Override
	public ServletContext getServletContext() {
		return this.store.context();
	}

	@Override
	public void setMaxInactiveInterval(int interval) {
		this.maxInactiveInterval = interval;
	}

	@Override
	public int getMaxInactiveInterval() {
		return this.maxInactiveInterval;
	}

	@Override
	public Object getAttribute(String name) {
		checkValid("read attribute '" + name + "'");
		return this.attributes.get(name);
	}

	@Override
	public Enumeration<String> getAttributeNames() {
		checkValid("list attributes");
		return Collections.enumeration(new ArrayList<>(this.attributes.keySet()));
	}

	@Override
	public void setAttribute(String name, Object value) {
		if (name == null) {
			throw new IllegalArgumentException("Session attribute name must not be null");
		}
		checkValid("set attribute '" + name + "'");
		if (value == null) {
			removeAttribute(name);
			return;
		}
		if (value instanceof HttpSessionBindingListener listener) {
			listener.valueBound(new HttpSessionBindingEvent(this, name, value));
		}
		Object old = this.attributes.put(name, value);
		if (old != null && old != value && old instanceof HttpSessionBindingListener listener) {
			listener.valueUnbound(new HttpSessionBindingEvent(this, name, old));
		}
		this.store.context().listeners().sessionAttribute(this, name, old, value);
	}

	@Override
	public void removeAttribute(String name) {
		checkValid("remove attribute '" + name + "'");
		unbind(name);
	}

	private void unbind(String name) {
		Object old = this.attributes.remove(name);
		if (old == null) {
			return;
		}
		if (old instanceof HttpSessionBindingListener listener) {
			listener.valueUnbound(new HttpSessionBindingEvent(this, name, old));
		}
		this.store.context().listeners().sessionAttribute(this, name, old, null);
	}

	@Override
	public void invalidate() {
		checkValid("invalidate");
		if (this.ending.get()) {
			throw new IllegalStateException("Cannot invalidate: session " + this.id + " is being invalidated");
		}
		expire();
	}

	/**
	 * Ends the session once: tells the session listeners while its attributes are still there,
	 * then unbinds them and forgets the session.
	 */
	void expire() {
		if (!this.ending.compareAndSet(false, true)) {
			return;
		}
		this.store.removed(this);
		try {
			this.store.context().listeners().sessionDestroyed(this);
			for (String name : new ArrayList<>(this.attributes.keySet())) {
				unbind(name);
			}
		}
		finally {
			this.valid = false;
		}
	}

	@Override
	public boolean isNew() {
		checkValid("ask whether it is new");
		return this.isNew;
	}

	@Override
	public Accessor getAccessor() {
		checkValid("get an accessor");
		String accessorId = this.id;
		return (consumer) -> access(accessorId, consumer);
	}

	private void access(String accessorId, Consumer<HttpSession> consumer) {
		if (!isValid() || !accessorId.equals(this.id)) {
			throw new IllegalStateException("Session " + accessorId + " was invalidated or changed its id");
		}
		access();
		try {
			consumer.accept(this);
		}
		finally {
			endAccess();
		}
	}

	@Override
	public String toString() {
		return "Session[" + this.id + "]";
	}

}
