package dev.ariadne.it.fluxconformance;

import java.util.LinkedHashMap;
import java.util.Map;

import reactor.core.publisher.Mono;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

/**
 * Tells what {@link ServerHttpRequest} says of a request: method, URI and its parts, path,
 * addresses, and TLS.
 */
@RestController
class FactsController {

	@RequestMapping(path = "/facts/**", method = { RequestMethod.GET, RequestMethod.POST, RequestMethod.PUT,
			RequestMethod.DELETE, RequestMethod.PATCH, RequestMethod.OPTIONS })
	Mono<Map<String, Object>> facts(ServerHttpRequest request) {
		Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("method", request.getMethod().name());
		facts.put("uri", request.getURI().toString());
		facts.put("scheme", request.getURI().getScheme());
		facts.put("host", request.getURI().getHost());
		facts.put("port", request.getURI().getPort());
		facts.put("rawPath", request.getURI().getRawPath());
		facts.put("rawQuery", request.getURI().getRawQuery());
		facts.put("path", request.getPath().value());
		facts.put("contextPath", request.getPath().contextPath().value());
		// a forwarded client's (and host's) address is unresolved on Reactor Netty: its text, then
		java.net.InetSocketAddress remote = request.getRemoteAddress();
		facts.put("remoteAddress",
				(remote.getAddress() != null) ? remote.getAddress().getHostAddress() : remote.getHostString());
		facts.put("remotePort", request.getRemoteAddress().getPort());
		java.net.InetSocketAddress local = request.getLocalAddress();
		facts.put("localAddress",
				(local.getAddress() != null) ? local.getAddress().getHostAddress() : local.getHostString());
		facts.put("localPort", request.getLocalAddress().getPort());
		facts.put("sslInfo", (request.getSslInfo() != null) ? "present" : "none");
		return Mono.just(facts);
	}

}
