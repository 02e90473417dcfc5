package dev.ariadne.servlet;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.RateLimitedLogger;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;

/**
 * The connection of a request that switched protocols ({@code HttpServletRequest.upgrade}), as
 * its {@link HttpUpgradeHandler} sees it: the bytes of the core's upgraded exchange
 * ({@link Response#upgrade()}) through a {@link ServletInputStream} and a
 * {@link ServletOutputStream} with non-blocking I/O ({@link NonBlockingIo}), whose listeners'
 * callbacks run as the connection's {@link ExchangeTasks}, one at a time, on the core's workers.
 *
 * <p>Its life, as Servlet 6.1 and Tomcat have it: the handler is made by {@code upgrade} (with its
 * public no-argument constructor; the container has no injection), the {@code 101} goes out once
 * the request's dispatch (filters, servlet) returned, then {@link HttpUpgradeHandler#init} runs on
 * the request's thread, and the callbacks it asked for run after it. {@link HttpUpgradeHandler#destroy}
 * runs once, when the connection ends: {@link #close()}, a listener's callback that threw, an
 * {@code init} that threw, or the core closing the connection (a forced stop, a failed write).
 * The client closing its side is the end of the input ({@code onAllDataRead}); the handler closes
 * the connection when it is done.
 */
final class UpgradeConnection implements WebConnection, NonBlockingIo.Owner, ProtocolSwitch {

	private static final Logger logger = System.getLogger(UpgradeConnection.class.getName());

	private static final RateLimitedLogger handlerFailures = RateLimitedLogger.of(logger, "Upgrade handler failed");

	private final HttpUpgradeHandler handler;

	private final AsyncResponse tunnel;

	private final ExchangeTasks tasks;

	private final NonBlockingIo nonBlocking = new NonBlockingIo(this);

	private final RequestInput input;

	private final TunnelOutput output;

	private final AtomicBoolean closed = new AtomicBoolean();

	private final AtomicBoolean destroyed = new AtomicBoolean();

	/**
	 * Creates the connection of a request whose core exchange switched protocols.
	 * @param handler the application's handler
	 * @param tunnel the core's upgraded exchange
	 * @param core the core request, whose body is the connection's bytes now
	 * @param coreResponse the core response, whose stream writes them
	 */
	UpgradeConnection(HttpUpgradeHandler handler, AsyncResponse tunnel, Request core, Response coreResponse) {
		this.handler = handler;
		this.tunnel = tunnel;
		// the callbacks init asks for wait until it has returned (begin)
		this.tasks = new ExchangeTasks(tunnel);
		this.input = new RequestInput(() -> this.nonBlocking, core.body());
		this.output = new TunnelOutput(coreResponse.outputStream(), this.nonBlocking);
		tunnel.onClose(() -> this.tasks.run(this::connectionLost));
	}

	/**
	 * Makes an upgrade handler with its public no-argument constructor.
	 * @param <T> the handler's type
	 * @param type the handler's class
	 * @return the handler
	 * @throws ServletException if it cannot be made
	 */
	static <T extends HttpUpgradeHandler> T instantiate(Class<T> type) throws ServletException {
		try {
			return type.getDeclaredConstructor().newInstance();
		}
		catch (InvocationTargetException ex) {
			throw new ServletException("The constructor of upgrade handler " + type.getName() + " failed",
					ex.getCause());
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			throw new ServletException("Cannot create upgrade handler " + type.getName()
					+ " with a public no-argument constructor: " + ex, ex);
		}
	}

	/**
	 * The handler takes the connection: {@code init}, then the callbacks it asked for; on the
	 * request's thread, once the request is over.
	 */
	@Override
	public void begin() {
		try {
			this.handler.init(this);
		}
		catch (Throwable ex) {
			handlerFailures.log(() -> "Upgrade handler " + this.handler.getClass().getName() + " failed in init", ex);
			end(ex);
			return;
		}
		this.tasks.release();
	}

	@Override
	public ServletInputStream getInputStream() {
		return this.input;
	}

	@Override
	public ServletOutputStream getOutputStream() {
		return this.output;
	}

	/** Sends what was written, closes the connection and destroys the handler; once. */
	@Override
	public void close() throws Exception {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		try {
			this.output.close();
		}
		catch (IOException ex) {
			logger.log(Level.DEBUG, "The last bytes of an upgraded connection could not be sent", ex);
		}
		this.tunnel.complete();
		destroy();
	}

	// ---- NonBlockingIo.Owner

	@Override
	public ExchangeTasks tasks() {
		return this.tasks;
	}

	@Override
	public RequestInput input() {
		return this.input;
	}

	@Override
	public String noListeners() {
		return this.closed.get() ? "cannot be set once the connection is closed" : null;
	}

	@Override
	public void callbackFailed(Throwable failure) {
		handlerFailures.log(() -> "A listener of upgrade handler " + this.handler.getClass().getName()
				+ " failed; closing its connection", failure);
		end(failure);
	}

	/** The core closed the connection (a forced stop, a failed write): one of the tasks. */
	private void connectionLost() {
		if (this.closed.compareAndSet(false, true)) {
			this.output.abandon();
			this.tunnel.complete();
			destroy();
		}
	}

	/** Ends the connection after a failure: closed at once, the handler destroyed. */
	private void end(Throwable failure) {
		if (this.closed.compareAndSet(false, true)) {
			this.output.abandon();
			this.tunnel.abort(failure);
			destroy();
		}
	}

	private void destroy() {
		if (!this.destroyed.compareAndSet(false, true)) {
			return;
		}
		try {
			this.handler.destroy();
		}
		catch (RuntimeException ex) {
			handlerFailures.log(() -> "Upgrade handler " + this.handler.getClass().getName() + " failed in destroy",
					ex);
		}
	}

}
