package dev.ariadne.autoconfigure.web;

import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Method;
import dev.ariadne.http.Version;
import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Handler;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;
import dev.ariadne.server.websocket.WebSocketSessions;
import dev.ariadne.servlet.GzipCompressionFilter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHeadResponseDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;

/**
 * Serves a Spring WebFlux {@link HttpHandler} on Ariadne's exchange directly, without a servlet
 * layer, as Spring adapts Reactor Netty and Jetty's core API: the handler is called on the
 * worker that took the request (never on a selector thread), the exchange is suspended
 * ({@link Response#suspend()}) so that the worker goes back to its pool while the handler's
 * {@code Mono} is pending, and the request and response bodies flow without waiting for the
 * client ({@link RequestBodyPublisher}, {@link ExchangeServerHttpResponse}). A handler that
 * completes at once (the common case) ends the exchange on the same worker, as a plain handler
 * would.
 *
 * <p>A client that goes away cancels the handler's subscription. A request body the parser
 * refuses as it is read reaches WebFlux with the parser's status, and the response to it closes
 * the connection. A failure that reaches the adapter (WebFlux answers most itself) becomes a 500
 * while the response is not committed, and an incomplete body and a closed connection after.
 *
 * <p>A WebFlux {@code WebSocketHandler} runs on a session of the core's among the listener's
 * ({@link #forListener}), through {@link AriadneRequestUpgradeStrategy}: the exchange then ends
 * with the session, not with the handler's {@code Mono}.
 */
final class ReactiveHandlerAdapter implements Handler {

	private static final Log logger = LogFactory.getLog(ReactiveHandlerAdapter.class);

	/** How long the worker that took a WebSocket handshake waits for WebFlux to answer it. */
	static final long HANDSHAKE_WAIT_SECONDS = 10;

	private final HttpHandler handler;

	private final Settings settings;

	private final Supplier<WebSocketSessions> webSockets;

	ReactiveHandlerAdapter(HttpHandler handler, Settings settings) {
		this(handler, settings, null);
	}

	private ReactiveHandlerAdapter(HttpHandler handler, Settings settings, Supplier<WebSocketSessions> webSockets) {
		this.handler = Objects.requireNonNull(handler, "handler");
		this.settings = Objects.requireNonNull(settings, "settings");
		this.webSockets = webSockets;
	}

	/**
	 * Returns a copy for one listener, whose WebSocket sessions run among that listener's.
	 * @param webSockets the listener's sessions, known once its server is built
	 * @return the copy
	 */
	ReactiveHandlerAdapter forListener(Supplier<WebSocketSessions> webSockets) {
		return new ReactiveHandlerAdapter(this.handler, this.settings, webSockets);
	}

	@Override
	public void handle(Request request, Response response) {
		URI uri = ExchangeServerHttpRequest.uri(request);
		if (uri == null) {
			response.status(400).send("Bad Request: the request target and Host header do not form a URI\n");
			return;
		}
		AsyncResponse exchange = response.suspend();
		ExchangeServerHttpRequest serverRequest = new ExchangeServerHttpRequest(request, uri, exchange,
				DefaultDataBufferFactory.sharedInstance);
		ExchangeServerHttpResponse serverResponse = new ExchangeServerHttpResponse(request, response, exchange,
				this.settings, serverRequest::framingLost, this.webSockets);
		ServerHttpResponse target = (request.method() == Method.HEAD) ? new HttpHeadResponseDecorator(serverResponse)
				: serverResponse;
		Completion completion = new Completion(exchange, serverResponse);
		this.handler.handle(serverRequest, target).subscribe(completion);
		if (!completion.done() && request.method() == Method.GET && request.version() == Version.HTTP_1_1
				&& request.headers().containsToken(HeaderName.UPGRADE, "websocket")) {
			awaitHandshake(request, completion);
		}
	}

	/**
	 * Waits, on the worker that took a WebSocket handshake, for WebFlux to answer it when a filter
	 * let it go on from another thread (Spring Security's reactive authentication checks a
	 * password on {@code boundedElastic}): the core switches a connection's protocol only while
	 * the exchange's handler runs ({@link Response#upgrade()}), so this handler must not have
	 * returned when the upgrade strategy switches. Bounded: a handshake answered later than
	 * {@link #HANDSHAKE_WAIT_SECONDS} s fails (500), as it always would have.
	 */
	private static void awaitHandshake(Request request, Completion completion) {
		if (!completion.await(TimeUnit.SECONDS.toNanos(HANDSHAKE_WAIT_SECONDS))) {
			logger.warn("A WebSocket handshake to " + request.target() + " was not answered within "
					+ HANDSHAKE_WAIT_SECONDS + " s of its request: the connection can no longer switch protocols");
		}
	}

	/**
	 * What the adapter applies of {@code server.*} itself, since no servlet container does.
	 * @param serverHeader the {@code Server} header for every response, or {@code null}
	 * @param compression what {@code server.compression.*} compresses, or {@code null} when off
	 */
	record Settings(String serverHeader, GzipCompressionFilter compression) {
	}

	/** Ends the exchange when the handler's {@code Mono} does; cancels it when the client goes. */
	private static final class Completion implements CoreSubscriber<Void> {

		private final AsyncResponse exchange;

		private final ExchangeServerHttpResponse response;

		/** Whether the handler's {@code Mono} ended. */
		private volatile boolean done;

		/** The worker waiting for the end, if any ({@link #await}). */
		private volatile Thread waiter;

		Completion(AsyncResponse exchange, ExchangeServerHttpResponse response) {
			this.exchange = exchange;
			this.response = response;
		}

		boolean done() {
			return this.done;
		}

		/**
		 * Waits for the handler's {@code Mono} to end.
		 * @param nanos how long at most
		 * @return whether it ended
		 */
		boolean await(long nanos) {
			this.waiter = Thread.currentThread();
			long deadline = System.nanoTime() + nanos;
			boolean interrupted = false;
			try {
				// the end reads the waiter after it marks itself done: one of the two sees the other
				while (!this.done) {
					long left = deadline - System.nanoTime();
					if (left <= 0) {
						return false;
					}
					LockSupport.parkNanos(this, left);
					interrupted |= Thread.interrupted();
				}
				return true;
			}
			finally {
				this.waiter = null;
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
			}
		}

		private void ended() {
			this.done = true;
			Thread waiter = this.waiter;
			if (waiter != null) {
				LockSupport.unpark(waiter);
			}
		}

		@Override
		public void onSubscribe(Subscription subscription) {
			this.exchange.onClose(() -> {
				subscription.cancel();
				this.exchange.abort(new IOException("The connection closed before the response ended"));
			});
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public void onNext(Void ignored) {
		}

		@Override
		public void onError(Throwable failure) {
			try {
				failed(failure);
			}
			finally {
				ended();
			}
		}

		private void failed(Throwable failure) {
			if (logger.isDebugEnabled()) {
				logger.debug("The WebFlux handler failed" + (this.response.isCommitted() ? " after the response was committed" : ""),
						failure);
			}
			if (this.response.upgraded()) {
				// the WebSocket session, not this failure, ends the exchange
				return;
			}
			this.exchange.abort(failure);
		}

		@Override
		public void onComplete() {
			try {
				completed();
			}
			finally {
				ended();
			}
		}

		private void completed() {
			if (this.response.upgraded()) {
				// the WebSocket session ends the exchange
				return;
			}
			try {
				this.response.finish();
			}
			catch (IOException | RuntimeException ex) {
				this.exchange.abort(ex);
				return;
			}
			this.exchange.complete();
		}

	}

}
