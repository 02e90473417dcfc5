package dev.ariadne.server.connection;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;

import dev.ariadne.server.stats.RequestEvent;
import dev.ariadne.server.stats.RequestListener;

/**
 * The request listeners of one server, told about every answered request on the thread that
 * answered it. Immutable; any thread.
 */
public final class RequestEvents {

	private static final Logger logger = System.getLogger(RequestEvents.class.getName());

	private final RequestListener[] listeners;

	/**
	 * Creates the listeners' door.
	 * @param listeners the request listeners, in order
	 */
	public RequestEvents(List<RequestListener> listeners) {
		this.listeners = listeners.toArray(new RequestListener[0]);
	}

	/**
	 * Returns whether anyone listens for request events, so that callers can skip building
	 * them.
	 * @return whether there are listeners
	 */
	public boolean hasListeners() {
		return this.listeners.length > 0;
	}

	/**
	 * Tells every listener about an answered request; a failing listener is logged and the
	 * others are still told.
	 * @param event the exchange
	 */
	public void publish(RequestEvent event) {
		for (RequestListener listener : this.listeners) {
			try {
				listener.onRequest(event);
			}
			catch (RuntimeException ex) {
				logger.log(Level.WARNING, "Request listener failed", ex);
			}
		}
	}

}
