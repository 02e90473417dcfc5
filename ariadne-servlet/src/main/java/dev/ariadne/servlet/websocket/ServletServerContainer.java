package dev.ariadne.servlet.websocket;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpointConfig;

import dev.ariadne.server.WebSocketConfig;
import dev.ariadne.server.WebSocketTally;

import org.glassfish.tyrus.core.TyrusWebSocketEngine;
import org.glassfish.tyrus.server.TyrusServerContainer;
import org.glassfish.tyrus.spi.WebSocketEngine;
import org.glassfish.tyrus.spi.WebSocketEngine.UpgradeInfo;

/**
 * The {@link jakarta.websocket.server.ServerContainer} of a servlet context. Two engines serve it:
 *
 * <ul>
 * <li>{@link #upgradeHttpToWebSocket}, which switches one request to an endpoint of the caller's
 * (Spring's {@code StandardWebSocketUpgradeStrategy}, behind every {@code @EnableWebSocket}
 * handler and STOMP endpoint), runs the session on the core's own ({@link CoreHandshake},
 * {@link CoreJakartaSession}) when the endpoint has no encoders or decoders, as Spring's never
 * has: the core's codec, limits, timers and meters, as a route's session has them;</li>
 * <li>Tyrus's engine serves the endpoints deployed to the container ({@link #addEndpoint}:
 * {@code @ServerEndpoint} classes through Spring's {@code ServerEndpointExporter}, answered by the
 * {@link UpgradeFilter}), whose annotations, encoders and decoders are its, and an upgraded
 * endpoint that has encoders or decoders, through an engine made for that request alone.</li>
 * </ul>
 *
 * <p>Its default message size limits start at {@value #DEFAULT_MAX_MESSAGE_SIZE} bytes (Tyrus's
 * are unbounded), or the server's {@code websocket.max-message-size}; a frame over them, or over
 * {@code websocket.max-frame-size}, is refused with 1009 (the core's reader, or {@link FrameGuard}
 * in front of Tyrus, whose frame buffer follows them). Limits the application sets
 * ({@code setDefaultMaxTextMessageBufferSize}, as Spring's {@code ServletServerContainerFactoryBean}
 * does) replace both settings: a message the application allows may come in one frame, as on Tomcat.
 */
final class ServletServerContainer extends TyrusServerContainer {

	/** The default limit of a text or binary message, as Jetty's and Ariadne's codec's. */
	static final int DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024;

	/** The longest frame header, which Tyrus's frame buffer holds with the payload. */
	private static final int FRAME_OVERHEAD = 14;

	private final String contextPath;

	private final TyrusWebSocketEngine engine;

	private final SessionTimers timers = new SessionTimers();

	private final OpenSessions sessions;

	/** The largest data frame a client may send while the application leaves the limits to the settings. */
	private final long maxFrameSize;

	/**
	 * Whether the application set the default message limits itself (Spring's
	 * {@code ServletServerContainerFactoryBean}): they then bound a frame too, as Tomcat's do, and
	 * {@code websocket.max-frame-size} no longer applies.
	 */
	private volatile boolean limitsOfTheApplication;

	/** {@code websocket.idle-timeout} in milliseconds, 0 when none. */
	private final long idleTimeoutMillis;

	/**
	 * Creates the container of a servlet context.
	 * @param contextPath the context's path
	 * @param settings the server's {@code websocket.*} settings: the default message size limit,
	 * the frame size limit, the idle timeout and the ping interval; {@code null} for a message
	 * size limit of {@value #DEFAULT_MAX_MESSAGE_SIZE} bytes, frames bounded by it alone, no
	 * idle timeout and no pings (the session limit is the listener's, taken at each handshake)
	 */
	ServletServerContainer(String contextPath, WebSocketConfig settings) {
		super((Set<Class<?>>) null);
		this.contextPath = contextPath;
		int maxMessageSize = (settings != null) ? settings.maxMessageSize() : DEFAULT_MAX_MESSAGE_SIZE;
		super.setDefaultMaxTextMessageBufferSize(maxMessageSize);
		super.setDefaultMaxBinaryMessageBufferSize(maxMessageSize);
		this.maxFrameSize = (settings != null) ? settings.maxFrameSize() : Long.MAX_VALUE;
		this.idleTimeoutMillis = (settings != null) ? settings.idleTimeout().toMillis() : 0;
		this.sessions = (settings != null) ? new OpenSessions(settings.idleTimeout(), settings.pingInterval(), this.timers)
				: new OpenSessions(null, Duration.ZERO, this.timers);
		this.engine = newEngine();
		// endpoints added from now on are deployed at once (there is no start in a servlet context)
		doneDeployment();
	}

	private TyrusWebSocketEngine newEngine() {
		return TyrusWebSocketEngine.builder(this).incomingBufferSize(frameBufferSize()).build();
	}

	private int frameBufferSize() {
		long largest = Math.max(getDefaultMaxTextMessageBufferSize(), getDefaultMaxBinaryMessageBufferSize());
		return (int) Math.min(largest + FRAME_OVERHEAD, Integer.MAX_VALUE);
	}

	@Override
	public void register(Class<?> endpointClass) throws DeploymentException {
		this.engine.register(endpointClass, this.contextPath);
	}

	@Override
	public void register(ServerEndpointConfig serverEndpointConfig) throws DeploymentException {
		this.engine.register(serverEndpointConfig, this.contextPath);
	}

	@Override
	public WebSocketEngine getWebSocketEngine() {
		return this.engine;
	}

	/** The sessions' scheduler: one thread, and none for Tyrus's idle timeouts of 0. */
	@Override
	public ScheduledExecutorService getScheduledExecutorService() {
		return this.timers;
	}

	@Override
	public void shutdown() {
		super.shutdown();
		this.timers.shutdown();
	}

	@Override
	@SuppressWarnings("deprecation")
	public void setDefaultMaxTextMessageBufferSize(int max) {
		this.limitsOfTheApplication = true;
		super.setDefaultMaxTextMessageBufferSize(max);
		this.engine.setIncomingBufferSize(frameBufferSize());
	}

	@Override
	@SuppressWarnings("deprecation")
	public void setDefaultMaxBinaryMessageBufferSize(int max) {
		this.limitsOfTheApplication = true;
		super.setDefaultMaxBinaryMessageBufferSize(max);
		this.engine.setIncomingBufferSize(frameBufferSize());
	}

	/**
	 * Switches a request to the endpoint of a configuration that is not deployed (Jakarta
	 * WebSocket 2.1): its path template, with the path parameters put in, is the path the
	 * session reports.
	 */
	@Override
	public void upgradeHttpToWebSocket(Object httpServletRequest, Object httpServletResponse, ServerEndpointConfig sec,
			Map<String, String> pathParameters) throws IOException, DeploymentException {
		HttpServletRequest request = (HttpServletRequest) httpServletRequest;
		HttpServletResponse response = (HttpServletResponse) httpServletResponse;
		if (sec.getEncoders().isEmpty() && sec.getDecoders().isEmpty()) {
			CoreHandshake.perform(this, request, response, sec, (pathParameters != null) ? pathParameters : Map.of());
			return;
		}
		TyrusWebSocketEngine engine = newEngine();
		engine.register(sec, "");
		try {
			if (!Handshake.perform(engine, this, request, response, PathTemplate.expand(sec.getPath(), pathParameters))) {
				throw new DeploymentException("The endpoint at " + sec.getPath() + " did not match the request "
						+ request.getRequestURI());
			}
		}
		catch (ServletException ex) {
			throw new DeploymentException("The request " + request.getRequestURI() + " could not switch protocols", ex);
		}
	}

	/**
	 * What a client may send to a session on the core's: its frames as {@code websocket.max-frame-size}
	 * says, unless the application set the message limits itself (frames are then bounded by
	 * those alone, as on Tomcat).
	 */
	int maxFrameSize() {
		return (int) Math.min(this.limitsOfTheApplication ? Integer.MAX_VALUE : this.maxFrameSize, Integer.MAX_VALUE);
	}

	/** The idle timeout of a session on the core's, in milliseconds, as {@code Session.getMaxIdleTimeout} says it. */
	long idleTimeoutMillis() {
		return this.idleTimeoutMillis;
	}

	/** A session on the core's opened: among the open ones (1008 at its HTTP session's end, {@code getOpenSessions}). */
	void opened(CoreJakartaSession session) {
		this.sessions.opened(session, session.httpSession());
	}

	/** A session on the core's ended; once. */
	void closed(CoreJakartaSession session) {
		this.sessions.ended(session, session.httpSession());
	}

	/** The open sessions on the core's of an endpoint's path. */
	Set<Session> openSessions(String path) {
		return this.sessions.onCore(path);
	}

	/** Handshakes for the deployed endpoints, from the filter. */
	boolean upgradeDeployed(HttpServletRequest request, HttpServletResponse response)
			throws IOException, ServletException {
		return Handshake.perform(this.engine, this, request, response, request.getRequestURI());
	}

	/**
	 * A handshake succeeded: the session's connection gets its limits and its tally; once it
	 * opens it is among the container's open sessions (idle timeout, shutdown), and an
	 * authenticated one is closed when its HTTP session ends.
	 * @param handler the session's connection, not yet initialised
	 * @param upgrade Tyrus's handshake
	 * @param request the handshake request
	 * @param tally the session's place among the listener's, where its messages are counted
	 */
	void opening(TyrusUpgradeHandler handler, UpgradeInfo upgrade, HttpServletRequest request, WebSocketTally tally) {
		FrameGuard guard = new FrameGuard(getDefaultMaxTextMessageBufferSize(), getDefaultMaxBinaryMessageBufferSize(),
				this.limitsOfTheApplication ? Long.MAX_VALUE : this.maxFrameSize);
		HttpSession session = (request.getUserPrincipal() != null) ? request.getSession(false) : null;
		handler.prepare(upgrade, guard, tally, this.timers, (opened) -> this.sessions.opened(opened, session),
				(ended) -> this.sessions.ended(ended, session));
	}

	/**
	 * The server goes away: every open session closes with 1001 (RFC 6455 §7.4.1), as Tomcat's
	 * and Jetty's containers close theirs when they stop.
	 * @return how many sessions were open
	 */
	int goingAway() {
		return this.sessions.goingAway();
	}

	/**
	 * An HTTP session ended: the sessions authenticated through it close with 1008.
	 * @param session the HTTP session
	 */
	void httpSessionEnded(HttpSession session) {
		this.sessions.httpSessionEnded(session);
	}

}
