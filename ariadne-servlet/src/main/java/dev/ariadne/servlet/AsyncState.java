package dev.ariadne.servlet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The async cycle of one exchange (Servlet 6.1 section 2.3.3.3): {@code startAsync}, then
 * {@code dispatch}, {@code complete} or a timeout, with its listeners.
 *
 * <p>{@code dispatch} and {@code complete} may be called from any thread; they take effect as
 * one of the exchange's tasks ({@link ExchangeTasks}, on a worker of the request's pool), once
 * the container dispatch that started async mode has returned. Until then {@link #isStarted()}
 * stays true, as the specification requires. Listener events and the timeout are tasks of the
 * exchange too; {@code start} runs the application's task on a worker beside them.
 */
final class AsyncState implements AsyncContext {

	/** Async timeout unless the application sets one, as in Tomcat and Jetty. */
	static final long DEFAULT_TIMEOUT = 30_000;

	private enum Action {

		NONE, DISPATCH, COMPLETE

	}

	private record Listener(AsyncListener listener, ServletRequest request, ServletResponse response) {
	}

	private final ServletExchange exchange;

	private final List<Listener> listeners = new ArrayList<>(2);

	private ServletRequest request;

	private ServletResponse response;

	private boolean original;

	private long timeout = DEFAULT_TIMEOUT;

	private boolean started;

	private boolean inDispatch = true;

	private Action pending = Action.NONE;

	private ServletDispatcher dispatchTarget;

	private boolean completed;

	private ScheduledFuture<?> timer;

	AsyncState(ServletExchange exchange) {
		this.exchange = exchange;
	}

	/**
	 * Starts (or restarts, during an async dispatch) async mode.
	 * @param request the request the cycle uses
	 * @param response the response the cycle uses
	 * @param original whether these are the container's own objects
	 */
	void start(ServletRequest request, ServletResponse response, boolean original) {
		List<Listener> told;
		synchronized (this) {
			if (this.completed) {
				throw new IllegalStateException("The async cycle of this request is already complete");
			}
			if (this.started) {
				throw new IllegalStateException("startAsync() was already called in this dispatch");
			}
			if (!this.inDispatch) {
				throw new IllegalStateException("startAsync() must be called during a dispatch of the request");
			}
			this.started = true;
			this.pending = Action.NONE;
			this.request = request;
			this.response = response;
			this.original = original;
			told = new ArrayList<>(this.listeners);
			this.listeners.clear();
		}
		// a restart tells the listeners of the previous cycle, which must register again
		for (Listener listener : told) {
			notify(listener, null, (l, event) -> l.onStartAsync(event));
		}
	}

	synchronized boolean isStarted() {
		return this.started;
	}

	/** Called on the exchange's thread when a container dispatch begins. */
	synchronized void dispatchBegins() {
		this.inDispatch = true;
	}

	/**
	 * Called when a container dispatch has returned: starts the timer, or, when the
	 * application asked for a dispatch or completion meanwhile, or did not restart async mode
	 * in an async dispatch, takes the next step.
	 */
	void dispatchReturned() {
		synchronized (this) {
			this.inDispatch = false;
			if (this.completed) {
				return;
			}
			if (this.started && this.pending == Action.NONE) {
				armTimer();
				return;
			}
		}
		this.exchange.tasks().execute(this::step);
	}

	private void armTimer() {
		cancelTimer();
		if (this.timeout > 0) {
			this.timer = this.exchange.tasks().schedule(this::timedOut, this.timeout);
		}
	}

	private void cancelTimer() {
		if (this.timer != null) {
			this.timer.cancel(false);
			this.timer = null;
		}
	}

	/**
	 * Takes the cycle's next step, one of the exchange's tasks: an async dispatch the
	 * application asked for, or the end of the cycle (a completion, or an async dispatch that
	 * did not restart async mode).
	 */
	private void step() {
		Action action;
		ServletDispatcher target = null;
		synchronized (this) {
			if (this.completed || this.inDispatch) {
				return;
			}
			if (!this.started) {
				action = Action.COMPLETE;
				this.completed = true;
			}
			else {
				action = this.pending;
				if (action == Action.NONE) {
					return;
				}
				this.started = false;
				this.pending = Action.NONE;
				cancelTimer();
				if (action == Action.COMPLETE) {
					this.completed = true;
				}
				else {
					this.inDispatch = true;
					target = this.dispatchTarget;
				}
			}
		}
		if (action == Action.DISPATCH) {
			// the dispatch tells this state when it begins and returns, as the request dispatch does
			this.exchange.asyncDispatch(this.request, this.response, target);
			return;
		}
		this.exchange.finishAsync();
	}

	/**
	 * The connection closed while the cycle waits: tells the listeners ({@code onError}), as a
	 * failure of the cycle. One of the exchange's tasks.
	 */
	void connectionClosed() {
		if (hasNoAction()) {
			failed(new IOException("The client's connection closed"));
		}
	}

	/** One of the exchange's tasks: the timeout has passed. */
	private void timedOut() {
		synchronized (this) {
			if (!this.started || this.pending != Action.NONE) {
				return;
			}
			this.timer = null;
		}
		for (Listener listener : listenersNow()) {
			notify(listener, null, (l, event) -> l.onTimeout(event));
		}
		if (hasNoAction()) {
			// no listener completed or dispatched: an error dispatch with 500, then complete
			this.exchange.errorPage(500, "Async request timed out after " + this.timeout + " ms", null);
			complete();
		}
	}

	/**
	 * Tells the listeners about a failure of the cycle; if none of them completes or
	 * dispatches, shows the error page and completes.
	 * @param failure the failure
	 */
	void failed(Throwable failure) {
		for (Listener listener : listenersNow()) {
			notify(listener, failure, (l, event) -> l.onError(event));
		}
		if (hasNoAction()) {
			this.exchange.failure(failure);
			complete();
		}
	}

	/** Tells the listeners that the cycle completed; called before the response is finished. */
	void completed() {
		for (Listener listener : listenersNow()) {
			notify(listener, null, (l, event) -> l.onComplete(event));
		}
	}

	private synchronized boolean hasNoAction() {
		return this.started && this.pending == Action.NONE;
	}

	private synchronized List<Listener> listenersNow() {
		return new ArrayList<>(this.listeners);
	}

	private void notify(Listener listener, Throwable failure, ListenerCall call) {
		ServletRequest eventRequest = (listener.request() != null) ? listener.request() : this.request;
		ServletResponse eventResponse = (listener.response() != null) ? listener.response() : this.response;
		AsyncEvent event = new AsyncEvent(this, eventRequest, eventResponse, failure);
		try {
			call.call(listener.listener(), event);
		}
		catch (IOException | RuntimeException ex) {
			this.exchange.context().log("AsyncListener " + listener.listener().getClass().getName() + " failed", ex);
		}
	}

	@FunctionalInterface
	private interface ListenerCall {

		void call(AsyncListener listener, AsyncEvent event) throws IOException;

	}

	// ---- AsyncContext

	@Override
	public synchronized ServletRequest getRequest() {
		if (this.completed) {
			throw new IllegalStateException("The async cycle is complete");
		}
		return this.request;
	}

	@Override
	public synchronized ServletResponse getResponse() {
		if (this.completed) {
			throw new IllegalStateException("The async cycle is complete");
		}
		return this.response;
	}

	@Override
	public synchronized boolean hasOriginalRequestAndResponse() {
		return this.original;
	}

	@Override
	public void dispatch() {
		ServletRequest target = getRequest();
		HttpServletRequest http = (target instanceof HttpServletRequest candidate) ? candidate
				: this.exchange.request();
		String path = http.getServletPath() + ((http.getPathInfo() != null) ? http.getPathInfo() : "");
		dispatchTo(ServletDispatcher.forDecodedPath(this.exchange.context(), path.isEmpty() ? "/" : path,
				http.getRequestURI(), http.getQueryString()));
	}

	@Override
	public void dispatch(String path) {
		dispatch(this.exchange.context(), path);
	}

	@Override
	public void dispatch(ServletContext context, String path) {
		if (context != this.exchange.context()) {
			throw new IllegalArgumentException("Ariadne dispatches only within the request's own context");
		}
		ServletDispatcher dispatcher = (path != null && path.startsWith("/"))
				? ServletDispatcher.forPath(this.exchange.context(), path) : null;
		if (dispatcher == null) {
			throw new IllegalArgumentException("Cannot dispatch to '" + path + "': not a valid path in the context");
		}
		dispatchTo(dispatcher);
	}

	private void dispatchTo(ServletDispatcher target) {
		synchronized (this) {
			if (!this.started || this.pending != Action.NONE) {
				throw new IllegalStateException("dispatch() needs async mode without a pending dispatch or complete");
			}
			this.pending = Action.DISPATCH;
			this.dispatchTarget = target;
			cancelTimer();
			if (this.inDispatch) {
				// taken when the dispatch in progress returns
				return;
			}
		}
		this.exchange.tasks().execute(this::step);
	}

	@Override
	public void complete() {
		synchronized (this) {
			if (this.completed || this.pending == Action.COMPLETE) {
				return;
			}
			if (!this.started) {
				// during an async dispatch that did not restart the cycle: its end completes it
				return;
			}
			if (this.pending == Action.DISPATCH) {
				// the dispatch will complete the cycle unless it restarts it
				return;
			}
			this.pending = Action.COMPLETE;
			cancelTimer();
			if (this.inDispatch) {
				// taken when the dispatch in progress returns
				return;
			}
		}
		this.exchange.tasks().execute(this::step);
	}

	/**
	 * Runs the application's task on a worker of the request's pool, as the core runs
	 * handlers, beside the container's own tasks (not in line with them: it may take long).
	 */
	@Override
	public void start(Runnable run) {
		ExchangeTasks tasks = this.exchange.tasks();
		tasks.core().execute(() -> {
			try {
				run.run();
			}
			catch (Throwable ex) {
				tasks.execute(() -> this.exchange.asyncFailure(ex));
			}
		});
	}

	@Override
	public void addListener(AsyncListener listener) {
		addListener(listener, null, null);
	}

	@Override
	public synchronized void addListener(AsyncListener listener, ServletRequest servletRequest,
			ServletResponse servletResponse) {
		if (listener == null) {
			throw new IllegalArgumentException("AsyncListener must not be null");
		}
		if (!this.started) {
			throw new IllegalStateException("Listeners can be added only in async mode");
		}
		this.listeners.add(new Listener(listener, servletRequest, servletResponse));
	}

	@Override
	public <T extends AsyncListener> T createListener(Class<T> clazz) throws ServletException {
		try {
			return clazz.getDeclaredConstructor().newInstance();
		}
		catch (ReflectiveOperationException ex) {
			throw new ServletException("Cannot create AsyncListener " + clazz.getName() + ": " + ex, ex);
		}
	}

	@Override
	public synchronized void setTimeout(long timeout) {
		this.timeout = timeout;
		if (this.timer != null) {
			armTimer();
		}
	}

	@Override
	public synchronized long getTimeout() {
		return this.timeout;
	}

}
