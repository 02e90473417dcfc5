package dev.ariadne.autoconfigure.actuate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import dev.ariadne.http.Method;
import dev.ariadne.server.routing.Route;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.endpoint.web.EndpointLinksResolver;
import org.springframework.boot.actuate.endpoint.web.EndpointMapping;
import org.springframework.boot.actuate.endpoint.web.EndpointMediaTypes;
import org.springframework.boot.actuate.endpoint.web.ExposableWebEndpoint;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.actuate.endpoint.web.WebOperationRequestPredicate;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.util.StringUtils;

/**
 * Turns the exposed Actuator web endpoints into Ariadne {@link Route routes}, one per
 * {@link WebOperation}: {@code read} is served by {@code GET}, {@code write} by {@code POST}
 * and {@code delete} by {@code DELETE}, at the operation's path under the base path. A path
 * that exists with another method is answered {@code 405} and an unknown one {@code 404}, by
 * the server's router.
 *
 * <p>Endpoints are discovered, and so their beans created, when routes are first asked for,
 * which is while the server that serves them is being created.
 */
final class ActuatorRouteFactory {

	private final WebEndpointsSupplier endpointsSupplier;

	private final EndpointMediaTypes mediaTypes;

	private final JsonMapper jsonMapper;

	private final String basePath;

	private final boolean discoveryEnabled;

	/**
	 * Creates a factory.
	 * @param endpointsSupplier supplies the exposed web endpoints
	 * @param mediaTypes the media types of the endpoints, for the links page
	 * @param jsonMapper reads request bodies and writes response bodies
	 * @param basePath {@code management.endpoints.web.base-path}, cleaned
	 * @param discoveryEnabled whether the links page is served
	 */
	ActuatorRouteFactory(WebEndpointsSupplier endpointsSupplier, EndpointMediaTypes mediaTypes, JsonMapper jsonMapper,
			String basePath, boolean discoveryEnabled) {
		this.endpointsSupplier = endpointsSupplier;
		this.mediaTypes = mediaTypes;
		this.jsonMapper = jsonMapper;
		this.basePath = basePath;
		this.discoveryEnabled = discoveryEnabled;
	}

	/**
	 * Returns the routes of every exposed operation, the links page, and the endpoints'
	 * additional paths for the namespace (such as health's {@code /livez}).
	 * @param namespace the namespace of the listener that serves them
	 * @param serverBasePath the listener's own base path, prepended to everything
	 * ({@code management.server.base-path} on the management listener, empty otherwise)
	 * @return the routes, exact templates before {@code {*...}} ones
	 */
	List<Route> routes(WebServerNamespace namespace, String serverBasePath) {
		Collection<ExposableWebEndpoint> endpoints = this.endpointsSupplier.getEndpoints();
		OperationResultWriter writer = new OperationResultWriter(this.jsonMapper);
		EndpointMapping mapping = new EndpointMapping(serverBasePath + this.basePath);
		List<Route> routes = new ArrayList<>();
		for (ExposableWebEndpoint endpoint : endpoints) {
			for (WebOperation operation : endpoint.getOperations()) {
				WebOperationRequestPredicate predicate = operation.getRequestPredicate();
				String template = template(mapping.createSubPath(predicate.getPath()));
				OperationArguments arguments = new OperationArguments(predicate, template, null, this.jsonMapper);
				routes.add(Route.of(method(predicate), template,
						new OperationHandler(operation, namespace, arguments, writer)));
			}
		}
		if (linksEnabled(namespace, mapping.getPath())) {
			EndpointLinksResolver resolver = new EndpointLinksResolver(endpoints, mapping.getPath());
			routes.add(Route.get(template(mapping.getPath()), new LinksHandler(resolver,
					new MediaTypeNegotiator(this.mediaTypes.getProduced()), writer)));
		}
		routes.addAll(additionalPathRoutes(endpoints, namespace, serverBasePath, writer));
		routes.sort(Comparator.comparing((Route route) -> route.template().contains("{*")));
		return routes;
	}

	/**
	 * Returns only the endpoints' additional paths for the namespace, for the application's
	 * listener when the endpoints themselves are served by the management listener.
	 * @param namespace the namespace of the listener that serves them
	 * @return the routes
	 */
	List<Route> additionalPathRoutes(WebServerNamespace namespace) {
		return additionalPathRoutes(this.endpointsSupplier.getEndpoints(), namespace, "",
				new OperationResultWriter(this.jsonMapper));
	}

	/**
	 * Serves each additional path with the endpoint's {@code {*path}} read operation, passing
	 * the additional path's own segments as the remaining ones, as Boot's MVC adapter does.
	 */
	private List<Route> additionalPathRoutes(Collection<ExposableWebEndpoint> endpoints, WebServerNamespace namespace,
			String serverBasePath, OperationResultWriter writer) {
		List<Route> routes = new ArrayList<>();
		for (ExposableWebEndpoint endpoint : endpoints) {
			WebOperation operation = remainingPathReadOperation(endpoint);
			if (operation == null) {
				continue;
			}
			for (String path : endpoint.getAdditionalPaths(namespace)) {
				String template = template(serverBasePath + (path.startsWith("/") ? path : "/" + path));
				String[] segments = StringUtils.tokenizeToStringArray(path, "/");
				OperationArguments arguments = new OperationArguments(operation.getRequestPredicate(), template,
						segments, this.jsonMapper);
				routes.add(Route.get(template, new OperationHandler(operation, namespace, arguments, writer)));
			}
		}
		return routes;
	}

	private static WebOperation remainingPathReadOperation(ExposableWebEndpoint endpoint) {
		for (WebOperation operation : endpoint.getOperations()) {
			WebOperationRequestPredicate predicate = operation.getRequestPredicate();
			if (predicate.getMatchAllRemainingPathSegmentsVariable() != null
					&& method(predicate).equals(Method.GET)) {
				return operation;
			}
		}
		return null;
	}

	/** The same rule as Boot's MVC and Jersey configurations. */
	private boolean linksEnabled(WebServerNamespace namespace, String path) {
		return this.discoveryEnabled && (StringUtils.hasText(path) || WebServerNamespace.MANAGEMENT.equals(namespace));
	}

	private static Method method(WebOperationRequestPredicate predicate) {
		return switch (predicate.getHttpMethod()) {
			case GET -> Method.GET;
			case POST -> Method.POST;
			case DELETE -> Method.DELETE;
		};
	}

	private static String template(String path) {
		return path.isEmpty() ? "/" : path;
	}

}
