package dev.ariadne.servlet;

import java.lang.System.Logger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EventListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextAttributeEvent;
import jakarta.servlet.ServletContextAttributeListener;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestAttributeEvent;
import jakarta.servlet.ServletRequestAttributeListener;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionAttributeListener;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionIdListener;
import jakarta.servlet.http.HttpSessionListener;

import dev.ariadne.server.RateLimitedLogger;

/**
 * The listeners of one context, by type, and the events sent to them. "Initialized" and
 * "created" events go in registration order, "destroyed" events in reverse order (Servlet 6.1
 * section 11.3.3). A listener that throws is logged; the others still get the event, except for
 * context initialisation, where a failure stops the start.
 */
final class ContextListeners {

	private static final Logger logger = System.getLogger(ContextListeners.class.getName());

	/** Request and session listeners run for every request: a failing one must not flood the log. */
	private static final RateLimitedLogger listenerFailures = RateLimitedLogger.of(logger, "Listener failed");

	private final List<ServletContextListener> context = new CopyOnWriteArrayList<>();

	private final List<ServletContextAttributeListener> contextAttributes = new CopyOnWriteArrayList<>();

	private final List<ServletRequestListener> requests = new CopyOnWriteArrayList<>();

	private final List<ServletRequestAttributeListener> requestAttributes = new CopyOnWriteArrayList<>();

	private final List<HttpSessionListener> sessions = new CopyOnWriteArrayList<>();

	private final List<HttpSessionAttributeListener> sessionAttributes = new CopyOnWriteArrayList<>();

	private final List<HttpSessionIdListener> sessionIds = new CopyOnWriteArrayList<>();

	private static final List<Class<?>> SUPPORTED = List.of(ServletContextListener.class,
			ServletContextAttributeListener.class, ServletRequestListener.class, ServletRequestAttributeListener.class,
			HttpSessionListener.class, HttpSessionAttributeListener.class, HttpSessionIdListener.class);

	/**
	 * Returns whether a listener class implements at least one supported listener interface.
	 * @param type the listener class
	 * @return whether {@link #add} takes its instances
	 */
	static boolean isSupportedType(Class<?> type) {
		for (Class<?> supported : SUPPORTED) {
			if (supported.isAssignableFrom(type)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Adds a listener under every supported interface it implements.
	 * @param listener the listener
	 * @throws IllegalArgumentException if it implements none
	 */
	void add(EventListener listener) {
		if (!isSupportedType(listener.getClass())) {
			throw new IllegalArgumentException("Listener " + listener.getClass().getName()
					+ " implements none of the supported listener interfaces (context, context attribute, request, "
					+ "request attribute, session, session attribute, session id)");
		}
		addIf(listener, ServletContextListener.class, this.context);
		addIf(listener, ServletContextAttributeListener.class, this.contextAttributes);
		addIf(listener, ServletRequestListener.class, this.requests);
		addIf(listener, ServletRequestAttributeListener.class, this.requestAttributes);
		addIf(listener, HttpSessionListener.class, this.sessions);
		addIf(listener, HttpSessionAttributeListener.class, this.sessionAttributes);
		addIf(listener, HttpSessionIdListener.class, this.sessionIds);
	}

	private static <T> void addIf(EventListener listener, Class<T> type, List<T> list) {
		if (type.isInstance(listener)) {
			list.add(type.cast(listener));
		}
	}

	void contextInitialized(ServletContext servletContext) {
		ServletContextEvent event = new ServletContextEvent(servletContext);
		// a listener may add listeners while being told: walk a snapshot
		for (ServletContextListener listener : new ArrayList<>(this.context)) {
			listener.contextInitialized(event);
		}
	}

	void contextDestroyed(ServletContext servletContext) {
		ServletContextEvent event = new ServletContextEvent(servletContext);
		forEachReversed(this.context, (listener) -> listener.contextDestroyed(event));
	}

	void contextAttribute(ServletContext servletContext, String name, Object oldValue, Object newValue) {
		if (this.contextAttributes.isEmpty()) {
			return;
		}
		Object value = (oldValue != null) ? oldValue : newValue;
		ServletContextAttributeEvent event = new ServletContextAttributeEvent(servletContext, name, value);
		forEach(this.contextAttributes, (listener) -> {
			if (oldValue == null) {
				listener.attributeAdded(event);
			}
			else if (newValue == null) {
				listener.attributeRemoved(event);
			}
			else {
				listener.attributeReplaced(event);
			}
		});
	}

	boolean hasRequestListeners() {
		return !this.requests.isEmpty();
	}

	void requestInitialized(ServletContext servletContext, ServletRequest request) {
		if (!this.requests.isEmpty()) {
			ServletRequestEvent event = new ServletRequestEvent(servletContext, request);
			forEach(this.requests, (listener) -> listener.requestInitialized(event));
		}
	}

	void requestDestroyed(ServletContext servletContext, ServletRequest request) {
		if (!this.requests.isEmpty()) {
			ServletRequestEvent event = new ServletRequestEvent(servletContext, request);
			forEachReversed(this.requests, (listener) -> listener.requestDestroyed(event));
		}
	}

	void requestAttribute(ServletContext servletContext, ServletRequest request, String name, Object oldValue,
			Object newValue) {
		if (this.requestAttributes.isEmpty()) {
			return;
		}
		Object value = (oldValue != null) ? oldValue : newValue;
		ServletRequestAttributeEvent event = new ServletRequestAttributeEvent(servletContext, request, name, value);
		forEach(this.requestAttributes, (listener) -> {
			if (oldValue == null) {
				listener.attributeAdded(event);
			}
			else if (newValue == null) {
				listener.attributeRemoved(event);
			}
			else {
				listener.attributeReplaced(event);
			}
		});
	}

	void sessionCreated(HttpSession session) {
		if (!this.sessions.isEmpty()) {
			HttpSessionEvent event = new HttpSessionEvent(session);
			forEach(this.sessions, (listener) -> listener.sessionCreated(event));
		}
	}

	void sessionDestroyed(HttpSession session) {
		if (!this.sessions.isEmpty()) {
			HttpSessionEvent event = new HttpSessionEvent(session);
			forEachReversed(this.sessions, (listener) -> listener.sessionDestroyed(event));
		}
	}

	void sessionIdChanged(HttpSession session, String oldId) {
		if (!this.sessionIds.isEmpty()) {
			HttpSessionEvent event = new HttpSessionEvent(session);
			forEach(this.sessionIds, (listener) -> listener.sessionIdChanged(event, oldId));
		}
	}

	void sessionAttribute(HttpSession session, String name, Object oldValue, Object newValue) {
		if (this.sessionAttributes.isEmpty()) {
			return;
		}
		Object value = (oldValue != null) ? oldValue : newValue;
		HttpSessionBindingEvent event = new HttpSessionBindingEvent(session, name, value);
		forEach(this.sessionAttributes, (listener) -> {
			if (oldValue == null) {
				listener.attributeAdded(event);
			}
			else if (newValue == null) {
				listener.attributeRemoved(event);
			}
			else {
				listener.attributeReplaced(event);
			}
		});
	}

	private static <T> void forEach(List<T> listeners, Consumer<T> call) {
		for (T listener : listeners) {
			notify(listener, call);
		}
	}

	private static <T> void forEachReversed(List<T> listeners, Consumer<T> call) {
		List<T> reversed = new ArrayList<>(listeners);
		Collections.reverse(reversed);
		for (T listener : reversed) {
			notify(listener, call);
		}
	}

	private static <T> void notify(T listener, Consumer<T> call) {
		try {
			call.accept(listener);
		}
		catch (RuntimeException ex) {
			listenerFailures.log(() -> "Listener " + listener.getClass().getName() + " failed", ex);
		}
	}

}
