package dev.ariadne.servlet.websocket;

import java.io.IOException;
import java.net.URI;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpointConfig;

import dev.ariadne.http.Headers;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.Method;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Version;
import dev.ariadne.server.WebSocketTally;
import dev.ariadne.server.websocket.WebSocketSessions;
import dev.ariadne.servlet.ListenerWebSockets;
import dev.ariadne.websocket.Handshake;
import dev.ariadne.websocket.HandshakeException;

/**
 * The opening handshake (RFC 6455 §4.2) of a request that {@code upgradeHttpToWebSocket} switches
 * to an endpoint without encoders or decoders, answered for a {@link CoreJakartaSession}: the
 * request's checks, the configurator's (origin, subprotocol, {@code modifyHandshake}, the endpoint
 * instance), a place among the listener's sessions ({@code websocket.max-sessions}, else 503), and
 * the {@code 101}'s fields. The {@code 101} goes out once the request's dispatch has returned, with
 * the fields the filters around it add; the core's session starts on the connection then.
 *
 * <p>No extension is agreed to (the container installs none, as Spring reads from
 * {@code getInstalledExtensions}).
 */
final class CoreHandshake {

	private CoreHandshake() {
	}

	static void perform(ServletServerContainer container, HttpServletRequest request, HttpServletResponse response,
			ServerEndpointConfig config, Map<String, String> pathParameters) throws IOException, DeploymentException {
		Headers headers = headers(request);
		String key;
		try {
			key = Handshake.check(head(request, headers));
		}
		catch (HandshakeException ex) {
			Headers more = ex.headers();
			for (int i = 0; (more != null) && i < more.size(); i++) {
				response.setHeader(more.name(i), more.value(i));
			}
			response.sendError(ex.status().code(), ex.reason());
			return;
		}
		ServerEndpointConfig.Configurator configurator = config.getConfigurator();
		if (!configurator.checkOrigin(request.getHeader("Origin"))) {
			response.sendError(HttpServletResponse.SC_FORBIDDEN, "Origin not allowed");
			return;
		}
		String subprotocol = configurator.getNegotiatedSubprotocol(config.getSubprotocols(),
				Handshake.subprotocols(headers));
		String agreed = (subprotocol == null || subprotocol.isEmpty()) ? null : subprotocol;
		URI uri = uri(request);
		Map<String, List<String>> parameters = parameters(request);
		Principal principal = request.getUserPrincipal();
		HttpSession httpSession = request.getSession(false);
		Map<String, List<String>> answer = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		HandshakeRequest view = new View(fields(headers), principal, uri, request, httpSession, parameters);
		configurator.modifyHandshake(config, view, () -> answer);
		Endpoint endpoint;
		try {
			endpoint = (Endpoint) configurator.getEndpointInstance(config.getEndpointClass());
		}
		catch (InstantiationException | RuntimeException ex) {
			throw new DeploymentException("Cannot get an instance of endpoint " + config.getEndpointClass().getName(),
					ex);
		}
		WebSocketTally place = ListenerWebSockets.count(request);
		if (place == null) {
			response.setHeader("Retry-After", "1");
			response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
			return;
		}
		CoreJakartaSession session = new CoreJakartaSession(endpoint, config, container, uri, principal,
				(principal != null) ? httpSession : null, pathParameters, parameters, container.maxFrameSize(),
				container.idleTimeoutMillis());
		try {
			ListenerWebSockets.switchToSession(request, (core, exchange, out) -> WebSocketSessions.open(place, core,
					exchange, out, session, agreed, null, session.limits()));
		}
		catch (RuntimeException ex) {
			place.end();
			throw ex;
		}
		for (Map.Entry<String, List<String>> field : answer.entrySet()) {
			for (String value : field.getValue()) {
				response.addHeader(field.getKey(), value);
			}
		}
		Headers accepted = Handshake.responseHeaders(key, agreed, null);
		for (int i = 0; i < accepted.size(); i++) {
			response.setHeader(accepted.name(i), accepted.value(i));
		}
	}

	/** The request's header fields, as the core's handshake checks take them. */
	private static Headers headers(HttpServletRequest request) {
		Headers headers = new Headers();
		Enumeration<String> names = request.getHeaderNames();
		while (names.hasMoreElements()) {
			String name = names.nextElement();
			Enumeration<String> lines = request.getHeaders(name);
			while (lines.hasMoreElements()) {
				headers.add(name, lines.nextElement());
			}
		}
		return headers;
	}

	private static RequestHead head(HttpServletRequest request, Headers headers) {
		Version version = "HTTP/1.1".equals(request.getProtocol()) ? Version.HTTP_1_1 : Version.HTTP_1_0;
		try {
			return RequestHead.of(Method.of(request.getMethod()), "/", RequestHead.TargetForm.ORIGIN, version, headers,
					-1, false);
		}
		catch (HttpParseException ex) {
			throw new IllegalStateException("The origin form '/' is always valid", ex);
		}
	}

	/** The fields as {@code HandshakeRequest.getHeaders} has them: by name, whatever its case. */
	private static Map<String, List<String>> fields(Headers headers) {
		Map<String, List<String>> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		for (int i = 0; i < headers.size(); i++) {
			fields.computeIfAbsent(headers.name(i), (ignored) -> new ArrayList<>()).add(headers.value(i));
		}
		fields.replaceAll((name, values) -> List.copyOf(values));
		return Collections.unmodifiableMap(fields);
	}

	private static URI uri(HttpServletRequest request) {
		String query = request.getQueryString();
		return URI.create(request.getRequestURI() + ((query != null) ? "?" + query : ""));
	}

	private static Map<String, List<String>> parameters(HttpServletRequest request) {
		Map<String, List<String>> parameters = new LinkedHashMap<>();
		request.getParameterMap().forEach((name, values) -> parameters.put(name, List.of(values)));
		return parameters;
	}

	/** The handshake request as the configurator's {@code modifyHandshake} sees it. */
	private record View(Map<String, List<String>> getHeaders, Principal getUserPrincipal, URI getRequestURI,
			HttpServletRequest request, HttpSession getHttpSession, Map<String, List<String>> getParameterMap)
			implements HandshakeRequest {

		@Override
		public boolean isUserInRole(String role) {
			return this.request.isUserInRole(role);
		}

		@Override
		public String getQueryString() {
			return this.getRequestURI.getRawQuery();
		}

	}

}
