package dev.ariadne.autoconfigure.actuate;

import java.net.InetSocketAddress;
import java.util.Map;

import dev.ariadne.server.Handler;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.web.EndpointLinksResolver;
import org.springframework.boot.actuate.endpoint.web.Link;
import org.springframework.util.MimeType;

/**
 * Answers the discovery page at the endpoints' base path: {@code {"_links": {...}}}, one link
 * per exposed endpoint operation, as absolute URLs built from the request's {@code Host}.
 */
final class LinksHandler implements Handler {

	private final EndpointLinksResolver linksResolver;

	private final MediaTypeNegotiator negotiator;

	private final OperationResultWriter writer;

	/**
	 * Creates a handler.
	 * @param linksResolver resolves the links of the exposed endpoints
	 * @param negotiator negotiates among the endpoints' JSON types
	 * @param writer writes the page
	 */
	LinksHandler(EndpointLinksResolver linksResolver, MediaTypeNegotiator negotiator, OperationResultWriter writer) {
		this.linksResolver = linksResolver;
		this.negotiator = negotiator;
		this.writer = writer;
	}

	@Override
	public void handle(Request request, Response response) throws Exception {
		MimeType type = this.negotiator.negotiate(request.headers().all("Accept"));
		if (type == null) {
			this.writer.writeError(request, response, 406, "Not Acceptable", null);
			return;
		}
		Map<String, Link> links = this.linksResolver.resolveLinks(requestUrl(request));
		this.writer.write(request, response, OperationResponseBody.of(Map.of("_links", links)), type);
	}

	private static String requestUrl(Request request) {
		String host = request.header("Host");
		if (host == null || host.isBlank()) {
			InetSocketAddress local = request.localAddress();
			String address = local.getAddress().getHostAddress();
			host = ((address.indexOf(':') >= 0) ? "[" + address + "]" : address) + ":" + local.getPort();
		}
		return "http://" + host + request.path();
	}

}
