package dev.ariadne.autoconfigure.actuate;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ariadne.http.Method;
import dev.ariadne.server.Request;
import dev.ariadne.server.routing.PathSegments;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.web.WebOperationRequestPredicate;

/**
 * Collects the arguments of an operation's invocation from a request, in the shape Spring
 * Boot's MVC and Jersey adapters give them, which the operation's
 * {@link org.springframework.boot.actuate.endpoint.invoke.ParameterValueMapper} then converts:
 * <ul>
 * <li>each path variable, as a decoded {@code String};</li>
 * <li>the remaining path segments of a {@code {*name}} variable, as a {@code String[]} of
 * decoded, non-empty segments;</li>
 * <li>for a {@code POST} to an operation that consumes a body, the members of the JSON object
 * it holds;</li>
 * <li>each query parameter: a {@code String} when it appears once, a {@code List<String>} when
 * it is repeated.</li>
 * </ul>
 * Later sources win over earlier ones for the same name.
 */
final class OperationArguments {

	private final String remainingVariable;

	private final int leadingSegments;

	private final String[] fixedRemaining;

	private final boolean readsBody;

	private final JsonMapper jsonMapper;

	/**
	 * Creates the argument collector of an operation served at a route template.
	 * @param predicate the operation's request predicate
	 * @param template the route template the operation is served at
	 * @param fixedRemaining the remaining path segments to pass whatever the path, for an
	 * additional path such as {@code /livez}; {@code null} to take them from the path
	 * @param jsonMapper reads request bodies
	 */
	OperationArguments(WebOperationRequestPredicate predicate, String template, String[] fixedRemaining,
			JsonMapper jsonMapper) {
		this.remainingVariable = predicate.getMatchAllRemainingPathSegmentsVariable();
		this.leadingSegments = PathSegments.split(template).size() - ((fixedRemaining != null) ? 0 : 1);
		this.fixedRemaining = fixedRemaining;
		this.readsBody = !predicate.getConsumes().isEmpty();
		this.jsonMapper = jsonMapper;
	}

	/**
	 * Collects the arguments of one request.
	 * @param request the request
	 * @return the arguments by name
	 * @throws IOException if the body cannot be read
	 * @throws InvalidEndpointRequestException if the body is not a JSON object
	 */
	Map<String, Object> resolve(Request request) throws IOException {
		Map<String, Object> arguments = new LinkedHashMap<>(request.pathVariables());
		if (this.remainingVariable != null) {
			arguments.put(this.remainingVariable,
					(this.fixedRemaining != null) ? this.fixedRemaining.clone() : remainingSegments(request));
		}
		if (this.readsBody && Method.POST.equals(request.method())) {
			arguments.putAll(body(request));
		}
		request.queryParams().forEach((name, values) -> {
			if (!values.isEmpty()) {
				arguments.put(name, (values.size() == 1) ? values.get(0) : List.copyOf(values));
			}
		});
		return arguments;
	}

	/**
	 * Splits the raw path again rather than the catch-all variable, so that an encoded slash
	 * stays inside its segment.
	 */
	private String[] remainingSegments(Request request) {
		List<String> segments = PathSegments.split(rawPath(request.target()));
		List<String> remaining = new ArrayList<>();
		for (int i = this.leadingSegments; i < segments.size(); i++) {
			String segment = PathSegments.decode(segments.get(i), false);
			if (!segment.isEmpty()) {
				remaining.add(segment);
			}
		}
		return remaining.toArray(new String[0]);
	}

	private static String rawPath(String target) {
		String path = target;
		int query = path.indexOf('?');
		if (query >= 0) {
			path = path.substring(0, query);
		}
		if (!path.startsWith("/")) {
			// absolute-form: scheme://authority/path
			int authority = path.indexOf("//");
			int slash = (authority >= 0) ? path.indexOf('/', authority + 2) : -1;
			path = (slash >= 0) ? path.substring(slash) : "/";
		}
		return path;
	}

	private Map<String, Object> body(Request request) throws IOException {
		byte[] body = request.bodyBytes();
		if (body.length == 0) {
			return Map.of();
		}
		try {
			Object value = this.jsonMapper.readValue(body, Object.class);
			if (!(value instanceof Map<?, ?> members)) {
				throw new InvalidEndpointRequestException("Request body must be a JSON object",
						"Request body must be a JSON object");
			}
			Map<String, Object> arguments = new LinkedHashMap<>();
			members.forEach((name, member) -> arguments.put(String.valueOf(name), member));
			return arguments;
		}
		catch (JacksonException ex) {
			throw new InvalidEndpointRequestException("Request body is not valid JSON: " + ex.getOriginalMessage(),
					"Request body is not valid JSON", ex);
		}
	}

}
