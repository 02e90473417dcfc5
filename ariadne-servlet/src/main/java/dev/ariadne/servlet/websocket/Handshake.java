package dev.ariadne.servlet.websocket;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.ariadne.server.WebSocketTally;
import dev.ariadne.servlet.ListenerWebSockets;

import org.glassfish.tyrus.core.RequestContext;
import org.glassfish.tyrus.core.TyrusUpgradeResponse;
import org.glassfish.tyrus.core.TyrusWebSocketEngine;
import org.glassfish.tyrus.core.Utils;
import org.glassfish.tyrus.spi.WebSocketEngine.UpgradeInfo;
import org.glassfish.tyrus.spi.WebSocketEngine.UpgradeStatus;

/**
 * A WebSocket opening handshake (RFC 6455 §4.2) of a servlet request, judged by a Tyrus engine
 * (the endpoint for the path, origin, version, subprotocol, extensions, the configurator's
 * {@code modifyHandshake}), and, when it succeeds, the request's switch to the session's
 * connection ({@code HttpServletRequest.upgrade}).
 *
 * <p>The {@code 101} is not flushed here: the container sends it once the request's dispatch
 * has returned, with the fields the filters around it add (Spring Security's, say) and those
 * set after the switch.
 */
final class Handshake {

	private Handshake() {
	}

	/**
	 * Performs the handshake of a request for an endpoint of the engine.
	 * @param engine the engine whose endpoints may answer
	 * @param container the container the session belongs to
	 * @param request the request
	 * @param response its response
	 * @param path the path the engine matches its endpoints against
	 * @return false when no endpoint of the engine serves the path (nothing was written), true
	 * when the handshake was answered: switched, or refused with an error status (503 when the
	 * listener takes no more sessions)
	 * @throws IOException if answering failed
	 * @throws ServletException if the request could not switch protocols
	 */
	static boolean perform(TyrusWebSocketEngine engine, ServletServerContainer container, HttpServletRequest request,
			HttpServletResponse response, String path) throws IOException, ServletException {
		RequestContext context = requestContext(request, path);
		TyrusUpgradeResponse answer = new TyrusUpgradeResponse();
		UpgradeInfo upgrade = engine.upgrade(context, answer);
		UpgradeStatus status = upgrade.getStatus();
		if (status == UpgradeStatus.NOT_APPLICABLE) {
			return false;
		}
		if (status == UpgradeStatus.HANDSHAKE_FAILED) {
			copyFields(answer, response);
			response.sendError(answer.getStatus());
			return true;
		}
		if (answer.getStatus() != HttpServletResponse.SC_SWITCHING_PROTOCOLS) {
			// a configurator's modifyHandshake answered otherwise (a redirect, a 401)
			copyFields(answer, response);
			response.setStatus(answer.getStatus());
			return true;
		}
		// a place among the listener's sessions (websocket.max-sessions), as the core's routes take one
		WebSocketTally tally = ListenerWebSockets.count(request);
		if (tally == null) {
			response.setHeader("Retry-After", "1");
			response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
			return true;
		}
		TyrusUpgradeHandler handler;
		try {
			handler = request.upgrade(TyrusUpgradeHandler.class);
		}
		catch (IOException | ServletException | RuntimeException ex) {
			tally.end();
			throw ex;
		}
		container.opening(handler, upgrade, request, tally);
		copyFields(answer, response);
		return true;
	}

	private static RequestContext requestContext(HttpServletRequest request, String path) {
		RequestContext context = RequestContext.Builder.create()
			.requestURI(URI.create(path))
			.queryString(request.getQueryString())
			.httpSession(request.getSession(false))
			.secure(request.isSecure())
			.userPrincipal(request.getUserPrincipal())
			.isUserInRoleDelegate(request::isUserInRole)
			.parameterMap(request.getParameterMap())
			.remoteAddr(request.getRemoteAddr())
			.serverAddr(request.getLocalAddr())
			.serverPort(request.getLocalPort())
			.tyrusProperties(Collections.emptyMap())
			.build();
		Map<String, List<String>> fields = context.getHeaders();
		Enumeration<String> names = request.getHeaderNames();
		while (names.hasMoreElements()) {
			String name = names.nextElement();
			List<String> values = fields.computeIfAbsent(name, (key) -> new ArrayList<>());
			Enumeration<String> lines = request.getHeaders(name);
			while (lines.hasMoreElements()) {
				values.addAll(Utils.parseHeaderValue(lines.nextElement().trim()));
			}
		}
		return context;
	}

	private static void copyFields(TyrusUpgradeResponse answer, HttpServletResponse response) {
		for (Map.Entry<String, List<String>> field : answer.getHeaders().entrySet()) {
			response.addHeader(field.getKey(), Utils.getHeaderFromList(field.getValue()));
		}
	}

}
