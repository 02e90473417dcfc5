package dev.ariadne.servlet;

import java.nio.charset.StandardCharsets;

import dev.ariadne.server.Handler;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;
import dev.ariadne.server.stats.RequestEvent;

/**
 * Where the core hands requests to the servlet context: checks that the path is canonical and
 * under the context path, then runs a {@link ServletExchange}. Paths outside the context get
 * 404, the bare context path a redirect to its slash, suspicious paths 400 (before any filter),
 * and everything 503 while the deployment is not started.
 */
final class ServletHandler implements Handler {

	private final DeploymentContext context;

	ServletHandler(DeploymentContext context) {
		this.context = context;
	}

	@Override
	public void handle(Request request, Response response) throws Exception {
		if (this.context.state() != DeploymentContext.State.STARTED) {
			answer(response, 503, "Service Unavailable");
			request.route(RequestEvent.REJECTED);
			return;
		}
		String target = request.target();
		int pathStart = pathStart(target);
		int question = target.indexOf('?', pathStart);
		String rawPath = (question < 0) ? target.substring(pathStart) : target.substring(pathStart, question);
		String query = (question < 0) ? null : target.substring(question + 1);
		if (rawPath.isEmpty()) {
			rawPath = "/";
		}
		String path;
		try {
			path = PathCanonicalizer.canonicalize(rawPath);
		}
		catch (SuspiciousPathException ex) {
			answer(response, 400, "Bad Request: " + ex.getMessage());
			request.route(RequestEvent.INVALID);
			return;
		}
		String contextPath = this.context.getContextPath();
		if (!contextPath.isEmpty()) {
			if (path.equals(contextPath)) {
				serverHeader(response);
				response.status(302);
				String base = (request.secure() ? "https://" : "http://") + authority(request);
				String root = (request.forwardedPrefix() != null) ? request.forwardedPrefix() : contextPath;
				response.header("Location", base + root + "/" + ((query != null) ? "?" + query : ""));
				response.send(new byte[0]);
				request.route(RequestEvent.NOT_FOUND);
				return;
			}
			if (!path.startsWith(contextPath + "/")) {
				answer(response, 404, "Not Found");
				request.route(RequestEvent.NOT_FOUND);
				return;
			}
			path = path.substring(contextPath.length());
		}
		new ServletExchange(this.context, request, response, requestUri(request, rawPath, contextPath), query, path)
			.run();
	}

	/**
	 * The request URI the application sees: the path as sent, or behind a trusted proxy's
	 * {@code X-Forwarded-Prefix} that prefix in place of the context path, as Spring's
	 * {@code ForwardedHeaderFilter} has it (the proxy serves the context under its prefix).
	 */
	private static String requestUri(Request request, String rawPath, String contextPath) {
		String prefix = request.forwardedPrefix();
		if (prefix == null) {
			return rawPath;
		}
		return prefix + rawPath.substring(PathCanonicalizer.rawPrefix(rawPath, contextPath).length());
	}

	/** The host and port the request was sent to, as a redirect to the same server names them. */
	private static String authority(Request request) {
		String host = HostHeader.name(request.header("Host"), request.localAddress());
		int port = HostHeader.port(request.header("Host"), request.localAddress(), request.secure());
		host = (host.indexOf(':') >= 0) ? "[" + host + "]" : host;
		return (port > 0 && port != (request.secure() ? 443 : 80)) ? host + ":" + port : host;
	}

	/** Where the path starts in an origin-form or absolute-form target. */
	private static int pathStart(String target) {
		if (target.startsWith("/")) {
			return 0;
		}
		int scheme = target.indexOf("://");
		if (scheme < 0) {
			return 0;
		}
		int authorityEnd = scheme + 3;
		while (authorityEnd < target.length() && target.charAt(authorityEnd) != '/'
				&& target.charAt(authorityEnd) != '?') {
			authorityEnd++;
		}
		return authorityEnd;
	}

	/** Answers a request the container refuses before any servlet sees it. */
	private void answer(Response response, int status, String text) {
		serverHeader(response);
		response.status(status);
		response.contentType("text/plain;charset=UTF-8");
		response.send((text + "\n").getBytes(StandardCharsets.UTF_8));
	}

	private void serverHeader(Response response) {
		String server = this.context.settings().serverHeader();
		if (server != null) {
			response.header("Server", server);
		}
	}

}
