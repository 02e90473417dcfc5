package dev.ariadne.servlet;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletConnection;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpUpgradeHandler;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.Status;
import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.RateLimitedLogger;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;
import dev.ariadne.server.WebSocketTally;
import dev.ariadne.server.stats.RequestEvent;

/**
 * One request through the servlet context, on the thread the core runs its handler on: the
 * request dispatch through the filter chain, forwards and includes, the error page for a
 * failure or {@code sendError}, the async cycle, and the end of the response.
 *
 * <p>{@code startAsync} suspends the core exchange ({@link Response#suspend()}): the handler
 * returns, so that in {@code event-loop} and {@code virtual-threads} the request holds no
 * worker, and the rest of the cycle (async dispatches, the completion, timeouts, listener
 * events, I/O callbacks) runs as the exchange's {@link ExchangeTasks}, one at a time, on the
 * core's workers; the completion ends the core exchange. Application threads reach the
 * exchange only through {@link AsyncState} and {@link NonBlockingIo}, which hand work over to
 * those tasks.
 */
final class ServletExchange implements NonBlockingIo.Owner {

	private static final Logger logger = System.getLogger(ServletExchange.class.getName());

	private static final RateLimitedLogger servletFailures = RateLimitedLogger.of(logger, "Servlet failed");

	private static final RateLimitedLogger lateFailures = RateLimitedLogger.of(logger,
			"Request failed after its response was committed");

	private static final RateLimitedLogger errorPageFailures = RateLimitedLogger.of(logger, "Error page failed");

	private final DeploymentContext context;

	private final Request core;

	private final Response coreResponse;

	private final ExchangeRequest request;

	private final ExchangeResponse response;

	private final List<MemorySession> accessed = new ArrayList<>(1);

	/** The exchange's tasks once async mode started; written by the dispatch that started it. */
	private volatile ExchangeTasks tasks;

	private NonBlockingIo nonBlocking;

	private volatile AsyncState async;

	/** The connection once the request switched protocols ({@link #upgrade}), or {@code null}. */
	private ProtocolSwitch upgrade;

	private ServletEntry currentServlet;

	private boolean asyncSupported;

	private boolean errorDispatching;

	/** Whether an error page was dispatched to, after which the route is the one named before. */
	private boolean namedBeforeError;

	/** The route the route namer gave before the first error page's dispatch, or {@code null}. */
	private String routeBeforeError;

	private Throwable abort;

	ServletExchange(DeploymentContext context, Request core, Response coreResponse, String requestUri, String query,
			String pathInContext) {
		this.context = context;
		this.core = core;
		this.coreResponse = coreResponse;
		this.response = new ExchangeResponse(this, coreResponse);
		this.request = new ExchangeRequest(this, core, requestUri, query, pathInContext);
	}

	DeploymentContext context() {
		return this.context;
	}

	ExchangeRequest request() {
		return this.request;
	}

	ExchangeResponse response() {
		return this.response;
	}

	/**
	 * Returns the exchange's tasks, once async mode started.
	 * @return the tasks
	 */
	@Override
	public ExchangeTasks tasks() {
		ExchangeTasks tasks = this.tasks;
		if (tasks == null) {
			throw new IllegalStateException("The request is not in async mode");
		}
		return tasks;
	}

	synchronized NonBlockingIo nonBlocking() {
		if (this.nonBlocking == null) {
			this.nonBlocking = new NonBlockingIo(this);
		}
		return this.nonBlocking;
	}

	@Override
	public RequestInput input() {
		return this.request.input();
	}

	@Override
	public String noListeners() {
		return isAsyncStarted() ? null : "can be set only in async mode (startAsync)";
	}

	@Override
	public void callbackFailed(Throwable failure) {
		asyncFailure(failure);
	}

	ServletConnection connection() {
		return new ExchangeConnection(this.core);
	}

	void accessed(MemorySession session) {
		session.access();
		this.accessed.add(session);
	}

	MultipartConfigElement multipartConfig() {
		return (this.currentServlet != null) ? this.currentServlet.multipartConfig() : null;
	}

	/** Whether the exchange is dispatching to an error page. */
	boolean errorDispatching() {
		return this.errorDispatching;
	}

	String currentServletName() {
		return (this.currentServlet != null) ? this.currentServlet.getName() : null;
	}

	/**
	 * Serves the request: the request dispatch, then, unless it started async mode, the error
	 * page if one is due and the end of the response. A failure after the response was
	 * committed is rethrown, so that the core closes the connection. In async mode it returns
	 * once the dispatch has: the cycle goes on as the exchange's tasks ({@link #finishAsync()}).
	 * @throws Exception the failure that broke a committed response
	 */
	void run() throws Exception {
		this.context.listeners().requestInitialized(this.context, this.request);
		boolean async = false;
		try {
			ServletMatch match = this.context.mapper().map(this.request.pathInContext());
			this.request.match(match);
			dispatch(() -> invoke(DispatcherType.REQUEST, this.request, this.response, match, false));
			if (this.async != null) {
				// the tasks asked for during the dispatch may run now, on the core's workers
				async = true;
				this.tasks.release();
				return;
			}
			if (this.abort == null && this.upgrade != null) {
				this.abort = this.upgrade.switchProtocols(this.response);
			}
			else if (this.abort == null) {
				if (this.response.errorPending()) {
					errorPage(this.response.getStatus(), this.response.errorMessage(), null);
				}
				finishResponse();
			}
		}
		finally {
			if (!async) {
				end();
			}
		}
		if (this.upgrade != null && this.abort == null) {
			// the request is over: the handler takes the connection
			this.upgrade.begin();
		}
		if (this.abort instanceof Exception exception) {
			throw exception;
		}
		if (this.abort instanceof Error error) {
			throw error;
		}
	}

	/**
	 * Ends the async cycle, one of the exchange's tasks: the error page if one is due, the
	 * listeners' {@code onComplete} (before the response ends, as Tomcat and Jetty tell them, so
	 * that a listener may still end what it wrapped the response in, such as a compressing
	 * stream), the end of the response, then the end of the core exchange (an abort after a
	 * failure that broke a committed response, so that the core closes the connection).
	 */
	void finishAsync() {
		try {
			if (this.abort == null && this.response.errorPending()) {
				errorPage(this.response.getStatus(), this.response.errorMessage(), null);
			}
			this.async.completed();
			if (this.abort == null) {
				finishResponse();
			}
		}
		finally {
			end();
		}
		AsyncResponse core = this.tasks.core();
		if (this.abort != null) {
			core.abort(this.abort);
		}
		else {
			core.complete();
		}
	}

	private void finishResponse() {
		try {
			this.response.finish();
		}
		catch (IOException ex) {
			this.abort = ex;
		}
		catch (RuntimeException ex) {
			if (this.response.isHeadCommitted()) {
				this.abort = ex;
				return;
			}
			// the head could not be written (a bad status): still time for the error page
			failure(ex);
			if (this.abort == null) {
				try {
					this.response.finish();
				}
				catch (IOException | RuntimeException again) {
					this.abort = again;
				}
			}
		}
	}

	private void end() {
		for (MemorySession session : this.accessed) {
			session.endAccess();
		}
		MultipartParts parts = this.request.multipartParts();
		if (parts != null) {
			parts.delete();
		}
		this.context.listeners().requestDestroyed(this.context, this.request);
		this.core.route(routeName());
	}

	private String routeName() {
		// an error page's dispatch names its own route (Spring's /error): the request keeps the
		// one its own dispatch had, as Spring's request observation does
		String name = this.namedBeforeError ? this.routeBeforeError : namedRoute();
		if (name != null) {
			return name;
		}
		ServletMatch match = this.request.match();
		if (this.response.getStatus() == HttpServletResponse.SC_NOT_FOUND || match == null
				|| this.context.registry().isNotFound(match.servlet())) {
			return RequestEvent.NOT_FOUND;
		}
		return match.pattern();
	}

	/** Returns the route the deployment's route namer gives the request now, or {@code null}. */
	private String namedRoute() {
		Function<HttpServletRequest, String> namer = this.context.routeNamer();
		if (namer != null) {
			try {
				return namer.apply(this.request);
			}
			catch (RuntimeException ex) {
				logger.log(Level.DEBUG, "Route namer failed", ex);
			}
		}
		return null;
	}

	// ---- dispatching

	@FunctionalInterface
	interface Invocation {

		void run() throws IOException, ServletException;

	}

	/**
	 * Runs a dispatch that the container starts (request or async) and deals with its outcome:
	 * a failure goes to the async listeners or the error page; a {@code sendError} to the
	 * error page unless the request is in async mode.
	 */
	private void dispatch(Invocation invocation) {
		if (this.async != null) {
			this.async.dispatchBegins();
		}
		Throwable failure = null;
		try {
			invocation.run();
		}
		catch (Throwable ex) {
			failure = ex;
		}
		if (this.async != null) {
			this.async.dispatchReturned();
		}
		boolean inAsync = this.async != null && this.async.isStarted();
		if (failure != null) {
			if (inAsync) {
				this.async.failed(failure);
			}
			else {
				failure(failure);
			}
		}
		else if (this.response.errorPending() && !inAsync && this.upgrade == null) {
			errorPage(this.response.getStatus(), this.response.errorMessage(), null);
		}
	}

	/**
	 * Runs the filters and the servlet of one dispatch.
	 * @param type the dispatcher type, which selects the filters
	 * @param request the request the chain gets
	 * @param response the response the chain gets
	 * @param match the target
	 * @param byName whether the target was named rather than mapped (filters by servlet name only)
	 */
	void invoke(DispatcherType type, ServletRequest request, ServletResponse response, ServletMatch match,
			boolean byName) throws IOException, ServletException {
		List<FilterEntry> filters = byName ? this.context.registry().filtersForName(type, match.servlet())
				: this.context.registry().filtersFor(type, match);
		boolean supported = match.servlet().asyncSupported();
		for (FilterEntry filter : filters) {
			supported &= filter.asyncSupported();
		}
		ServletEntry previousServlet = this.currentServlet;
		boolean previousSupported = this.asyncSupported;
		this.currentServlet = match.servlet();
		this.asyncSupported = supported;
		try {
			new FilterChainRun(filters, match.servlet()).doFilter(request, response);
		}
		finally {
			this.currentServlet = previousServlet;
			this.asyncSupported = previousSupported;
		}
	}

	void forward(ServletDispatcher target, ServletRequest request, ServletResponse response)
			throws ServletException, IOException {
		if (this.response.isCommitted()) {
			throw new IllegalStateException("Cannot forward: the response is already committed");
		}
		this.response.resetBuffer();
		DispatchedRequest forwarded = DispatchedRequest.forward((HttpServletRequest) request, target, this.request);
		invoke(DispatcherType.FORWARD, forwarded, response, target.match(), target.named());
		if (!isAsyncStarted() && !this.response.errorPending()) {
			// Servlet 6.1 section 9.4: the response is sent and closed before forward returns
			this.response.finish();
		}
	}

	void include(ServletDispatcher target, ServletRequest request, ServletResponse response)
			throws ServletException, IOException {
		DispatchedRequest included = DispatchedRequest.include((HttpServletRequest) request, target, this.request);
		invoke(DispatcherType.INCLUDE, included, new IncludedResponse((HttpServletResponse) response),
				target.match(), target.named());
	}

	/** Runs an async dispatch, one of the exchange's tasks. */
	void asyncDispatch(ServletRequest request, ServletResponse response, ServletDispatcher target) {
		HttpServletRequest http = (request instanceof HttpServletRequest candidate) ? candidate : this.request;
		DispatchedRequest dispatched = DispatchedRequest.async(http, target, this.request);
		dispatch(() -> invoke(DispatcherType.ASYNC, dispatched, response, target.match(), false));
	}

	// ---- async

	AsyncContext startAsync(ServletRequest request, ServletResponse response, boolean original) {
		if (!this.asyncSupported) {
			throw new IllegalStateException("startAsync() is not allowed: servlet '" + currentServletName()
					+ "' or a filter of its chain does not support async (setAsyncSupported)");
		}
		if (this.async == null) {
			// the core exchange stays open when the handler returns, and holds no worker
			AsyncResponse core = this.coreResponse.suspend();
			ExchangeTasks tasks = new ExchangeTasks(core);
			this.tasks = tasks;
			this.async = new AsyncState(this);
			core.onClose(() -> tasks.run(this.async::connectionClosed));
		}
		this.async.start(request, response, original);
		return this.async;
	}

	boolean isAsyncStarted() {
		return this.async != null && this.async.isStarted();
	}

	// ---- upgrade

	/**
	 * Switches the request to another protocol ({@code HttpServletRequest.upgrade}): makes the
	 * handler, switches the core exchange, and makes the response a 101 whose head goes out once
	 * the request's dispatch returned, before the handler's {@code init}.
	 */
	<T extends HttpUpgradeHandler> T upgrade(Class<T> type) throws ServletException {
		checkSwitchable();
		T handler = UpgradeConnection.instantiate(type);
		switchTo(new UpgradeConnection(handler, this.coreResponse.upgrade(), this.core, this.coreResponse));
		return handler;
	}

	/**
	 * Switches the request to a WebSocket session the core runs on the connection: the response
	 * is a 101 whose head goes out once the request's dispatch returned; then the session starts,
	 * on the request's thread. A start that fails closes the connection.
	 */
	void upgrade(ListenerWebSockets.SessionStart start) {
		checkSwitchable();
		AsyncResponse tunnel = this.coreResponse.upgrade();
		switchTo(() -> {
			try {
				start.start(this.core, tunnel, this.coreResponse.outputStream());
			}
			catch (RuntimeException | Error ex) {
				lateFailures.log(() -> "The WebSocket session of " + this.request + " failed to start", ex);
				tunnel.abort(ex);
			}
		});
	}

	private void checkSwitchable() {
		if (this.upgrade != null || this.async != null || this.response.isCommitted()) {
			throw new IllegalStateException("Cannot switch protocols: the request switched already, started async "
					+ "mode, or its response is committed");
		}
	}

	/** The response is a 101 from now on; the switch's {@code begin} runs once the request is over. */
	private void switchTo(ProtocolSwitch upgrade) {
		this.upgrade = upgrade;
		this.response.upgraded();
	}

	/** Counts a WebSocket session among the listener's ({@link ListenerWebSockets}). */
	WebSocketTally countWebSocket() {
		return this.coreResponse.countWebSocket();
	}

	boolean isAsyncSupported() {
		return this.asyncSupported;
	}

	AsyncContext asyncContext() {
		if (!isAsyncStarted()) {
			throw new IllegalStateException("The request is not in async mode");
		}
		return this.async;
	}

	/**
	 * Handles a failure outside a dispatch (an I/O callback, an {@code AsyncContext.start}
	 * task), one of the exchange's tasks.
	 * @param failure the failure
	 */
	void asyncFailure(Throwable failure) {
		if (isAsyncStarted()) {
			this.async.failed(failure);
		}
		else {
			failure(failure);
		}
	}

	// ---- errors

	/**
	 * Answers a failure: through the error page for its type or status, or, once the response
	 * is committed, by closing the connection after the response. An error of the JVM itself
	 * (out of memory, a stack overflow) gets no error page, whose rendering could fail the same
	 * way: it is handed to the core, which answers 500, closes the connection and counts it.
	 * @param failure what the application threw
	 */
	void failure(Throwable failure) {
		if (this.upgrade != null) {
			// no error page after a switch: the core answers 500, or closes a connection past its 101
			lateFailures.log(() -> "Request " + this.request + " failed after it switched protocols", failure);
			this.abort = failure;
			return;
		}
		Throwable cause = Refusals.rootCause(failure);
		if (cause instanceof VirtualMachineError error) {
			this.abort = error;
			return;
		}
		if (this.response.isHeadCommitted()) {
			lateFailures.log(() -> "Request " + this.request + " failed after its response was committed; "
					+ "closing the connection", failure);
			this.abort = failure;
			return;
		}
		Throwable refusal = Refusals.refusal(failure);
		int status = Refusals.statusOf(refusal);
		if (status >= 500 && status != HttpServletResponse.SC_SERVICE_UNAVAILABLE) {
			servletFailures.log(() -> "Servlet '" + currentOrMatched() + "' failed for " + this.request, failure);
		}
		else {
			logger.log(Level.DEBUG, () -> "Request " + this.request + " refused with " + status, failure);
		}
		if (cause instanceof IOException && cause.getCause() instanceof HttpParseException) {
			// the body's framing is broken: nothing more can be read from this connection
			this.response.setHeader("Connection", "close");
		}
		if (status == HttpServletResponse.SC_SERVICE_UNAVAILABLE && refusal != null
				&& !this.response.containsHeader("Retry-After")) {
			// no memory was free for the request: the client may try again
			this.response.setHeader("Retry-After", "1");
		}
		boolean byStatus = refusal != null || status != 500;
		String page = byStatus ? this.context.errorPages().forStatus(status)
				: this.context.errorPages().forException(failure);
		String message = (refusal != null) ? refusal.getMessage() : cause.getMessage();
		errorAttributes(status, message, cause);
		showErrorPage(status, page, (refusal instanceof StatusException shown && shown.shown()) ? message : null);
	}

	private String currentOrMatched() {
		ServletMatch match = this.request.match();
		return (match != null) ? match.getServletName() : "?";
	}

	/**
	 * Shows the error page for a status: after {@code sendError}, or an async timeout.
	 * @param status the status
	 * @param message the message, or {@code null}
	 * @param failure the failure, or {@code null}
	 */
	void errorPage(int status, String message, Throwable failure) {
		if (this.response.isHeadCommitted()) {
			return;
		}
		errorAttributes(status, message, failure);
		showErrorPage(status, this.context.errorPages().forStatus(status), null);
	}

	private void errorAttributes(int status, String message, Throwable failure) {
		ExchangeRequest target = this.request;
		target.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, status);
		target.setAttribute(RequestDispatcher.ERROR_MESSAGE, (message != null) ? message : "");
		target.setAttribute(RequestDispatcher.ERROR_REQUEST_URI, target.getRequestURI());
		target.setAttribute(RequestDispatcher.ERROR_METHOD, target.getMethod());
		if (target.getQueryString() != null) {
			target.setAttribute(RequestDispatcher.ERROR_QUERY_STRING, target.getQueryString());
		}
		target.setAttribute(RequestDispatcher.ERROR_SERVLET_NAME, currentOrMatched());
		if (failure != null) {
			target.setAttribute(RequestDispatcher.ERROR_EXCEPTION, failure);
			target.setAttribute(RequestDispatcher.ERROR_EXCEPTION_TYPE, failure.getClass());
		}
	}

	/**
	 * Dispatches to the error page, or writes the container's own error body.
	 * @param shown a refusal's message that the container's own body shows, or {@code null}
	 */
	private void showErrorPage(int status, String page, String shown) {
		this.response.prepareErrorPage(status);
		ServletDispatcher target = (page != null && !this.errorDispatching)
				? ServletDispatcher.forPath(this.context, page) : null;
		if (target == null) {
			defaultErrorBody(status, shown);
			return;
		}
		if (!this.namedBeforeError) {
			this.namedBeforeError = true;
			this.routeBeforeError = namedRoute();
		}
		this.errorDispatching = true;
		try {
			invoke(DispatcherType.ERROR, DispatchedRequest.error(this.request, target, this.request), this.response,
					target.match(), false);
		}
		catch (Throwable ex) {
			errorPageFailures.log(() -> "Error page " + page + " failed for " + this.request, ex);
			if (this.response.isHeadCommitted()) {
				this.abort = ex;
				return;
			}
			this.response.prepareErrorPage(status);
			defaultErrorBody(status, shown);
			return;
		}
		finally {
			this.errorDispatching = false;
		}
		if (this.response.errorPending()) {
			int pageStatus = this.response.getStatus();
			this.response.prepareErrorPage(pageStatus);
			defaultErrorBody(pageStatus, shown);
		}
	}

	/** The container's own error body, when no error page answers: the status, and a refusal's message. */
	private void defaultErrorBody(int status, String shown) {
		Status known = Status.of(status);
		String body = status + " " + known.reason() + "\n" + ((shown != null) ? shown + "\n" : "");
		this.response.setContentType("text/plain;charset=UTF-8");
		try {
			this.response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			this.abort = ex;
		}
	}

}
