package dev.ariadne.autoconfigure.actuate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import dev.ariadne.autoconfigure.RawHttp;

/**
 * Requests to Actuator endpoints over a raw socket, each on a connection of its own.
 */
final class ActuatorHttp {

	private ActuatorHttp() {
	}

	static RawHttp.Response get(int port, String path) throws IOException {
		return get(port, path, null);
	}

	static RawHttp.Response get(int port, String path, String accept) throws IOException {
		return request(port, "GET", path, accept, null, null);
	}

	static RawHttp.Response request(int port, String method, String path, String accept, String contentType,
			String body) throws IOException {
		StringBuilder request = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
		request.append("Host: localhost:").append(port).append("\r\nConnection: close\r\n");
		if (accept != null) {
			request.append("Accept: ").append(accept).append("\r\n");
		}
		if (contentType != null) {
			request.append("Content-Type: ").append(contentType).append("\r\n");
		}
		if (body != null) {
			request.append("Content-Length: ").append(body.getBytes(StandardCharsets.UTF_8).length).append("\r\n");
		}
		request.append("\r\n");
		if (body != null) {
			request.append(body);
		}
		return RawHttp.exchange(port, request.toString());
	}

}
