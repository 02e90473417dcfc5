package dev.ariadne.servlet.websocket;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;

/**
 * Answers the handshakes for the endpoints deployed to the container ({@code @ServerEndpoint}
 * classes and configurations added with {@code ServerContainer.addEndpoint}, as Spring's
 * {@code ServerEndpointExporter} adds them), mapped to {@code /*} after the application's own
 * filters, as Tomcat's and Jetty's are. A request without {@code Sec-WebSocket-Key}, or for a
 * path no endpoint serves, goes on down the chain untouched. Also closes the sessions of an
 * HTTP session that ends.
 */
final class UpgradeFilter implements Filter, HttpSessionListener {

	private final ServletServerContainer container;

	UpgradeFilter(ServletServerContainer container) {
		this.container = container;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		if (request instanceof HttpServletRequest http && response instanceof HttpServletResponse httpResponse
				&& http.getHeader("Sec-WebSocket-Key") != null
				&& this.container.upgradeDeployed(http, httpResponse)) {
			return;
		}
		chain.doFilter(request, response);
	}

	@Override
	public void sessionDestroyed(HttpSessionEvent event) {
		this.container.httpSessionEnded(event.getSession());
	}

}
