package dev.ariadne.servlet.websocket;

import java.util.EnumSet;
import java.util.Objects;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.websocket.server.ServerContainer;

import dev.ariadne.server.WebSocketConfig;
import dev.ariadne.servlet.ServletStartup;

/**
 * Jakarta WebSocket 2.2 for a servlet context: publishes a {@link ServerContainer} under the
 * context attribute {@value #ATTRIBUTE}, where applications and Spring's
 * {@code StandardWebSocketUpgradeStrategy} and {@code ServerEndpointExporter} look for it: the
 * sessions Spring's upgrade strategy opens run on the core's own WebSocket session, the deployed
 * endpoints' on Tyrus's engine (endpoints, encoders and decoders, sessions, basic and async
 * remotes) over the container's standard HTTP upgrade ({@code HttpServletRequest.upgrade}), so
 * that a session is served as each I/O model serves an upgraded connection.
 *
 * <p>Add it to a deployment ({@code ServletDeployment.Builder.initializer}) when Tyrus's
 * {@code tyrus-server} and the WebSocket API are on the class path; the Spring Boot starter does
 * it for a servlet application that has Spring's WebSocket support. Registers a filter on
 * {@code /*}, after the application's, that answers the handshakes of deployed endpoints, and
 * stops Tyrus's threads when the context is destroyed. When a server stops, {@link #goingAway}
 * closes the sessions with 1001.
 *
 * <p>Each session counts among the WebSocket sessions of the listener it arrived on, from its
 * handshake to its end ({@link dev.ariadne.servlet.ListenerWebSockets}), and so do its messages:
 * the listener's statistics, meters and diagnosis see it as they see a route's session.
 */
public final class JakartaWebSocket implements ServletStartup {

	/** The context attribute of the {@link ServerContainer} (Jakarta WebSocket 2.2, §6.4). */
	public static final String ATTRIBUTE = "jakarta.websocket.server.ServerContainer";

	private final WebSocketConfig settings;

	/**
	 * Creates the startup step: messages up to 64 KiB by default and no idle timeout of the
	 * container's own. Its sessions still count among those of the listener each arrived on, whose
	 * {@code websocket.max-sessions} refuses a handshake over it with 503.
	 */
	public JakartaWebSocket() {
		this.settings = null;
	}

	/**
	 * Creates the startup step under a server's WebSocket settings, as the core's routes follow
	 * them: {@code websocket.max-message-size} is the container's default message size limit
	 * (an application's {@code setDefaultMaxTextMessageBufferSize} and
	 * {@code setDefaultMaxBinaryMessageBufferSize} change it, as Spring's
	 * {@code ServletServerContainerFactoryBean} does, and then bound a frame too), a frame over
	 * {@code websocket.max-frame-size} is refused with 1009 while the application leaves those
	 * limits alone, a session quiet for {@code websocket.ping-interval} is pinged, and one quiet
	 * for {@code websocket.idle-timeout} is closed with 1001. {@code websocket.permessage-deflate}
	 * does not apply: Tyrus's engine compresses nothing. The session limit is the listener's: a
	 * handshake over its {@code websocket.max-sessions} (its routes' sessions included) is
	 * answered 503 and counted.
	 * @param settings the settings
	 */
	public JakartaWebSocket(WebSocketConfig settings) {
		this.settings = Objects.requireNonNull(settings, "settings");
	}

	/**
	 * Closes every open session of a servlet context with 1001 (going away), as a server that
	 * stops does; call it when a graceful shutdown begins, so that clients learn it at once
	 * instead of at the end of the grace period, when their connections are cut. The Spring
	 * Boot starter does it.
	 * @param context the servlet context
	 * @return how many sessions were open, 0 when the context has no container of this class
	 */
	public static int goingAway(ServletContext context) {
		Object container = context.getAttribute(ATTRIBUTE);
		return (container instanceof ServletServerContainer servlet) ? servlet.goingAway() : 0;
	}

	@Override
	public void onStartup(ServletContext context) {
		ServletServerContainer container = new ServletServerContainer(context.getContextPath(), this.settings);
		context.setAttribute(ATTRIBUTE, container);
		UpgradeFilter filter = new UpgradeFilter(container);
		FilterRegistration.Dynamic registration = context.addFilter("jakartaWebSocketUpgrade", filter);
		registration.setAsyncSupported(true);
		registration.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
		context.addListener(filter);
		context.addListener(new ServletContextListener() {

			@Override
			public void contextDestroyed(ServletContextEvent event) {
				container.stop();
			}

		});
	}

}
