package dev.ariadne.autoconfigure.actuate;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.ariadne.http.Method;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.core.io.Resource;
import org.springframework.util.MimeType;

/**
 * Writes what an operation returned as the response, as Spring Boot's web adapters do:
 * <ul>
 * <li>{@code null}: {@code 404} for a read ({@code GET}, {@code HEAD}), {@code 204} otherwise;</li>
 * <li>a {@link WebEndpointResponse}: its status, its content type when it has one (else the
 * negotiated type) and its body, none when {@code null};</li>
 * <li>anything else: {@code 200} with the negotiated type.</li>
 * </ul>
 * Bodies are encoded by type: a {@code byte[]} as is, a {@link CharSequence} as UTF-8, a
 * {@link Resource} streamed, anything else as JSON by the endpoints' {@link JsonMapper}.
 */
final class OperationResultWriter {

	private static final String JSON = "application/json";

	private final JsonMapper jsonMapper;

	/**
	 * Creates a writer.
	 * @param jsonMapper writes bodies of other types than bytes, text and resources
	 */
	OperationResultWriter(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	/**
	 * Writes an operation's result.
	 * @param request the request
	 * @param response the response, not yet committed
	 * @param result what the operation returned
	 * @param negotiated the type negotiated from the request's {@code Accept} header
	 * @throws IOException if a resource cannot be read or the response cannot be written
	 */
	void write(Request request, Response response, Object result, MimeType negotiated) throws IOException {
		if (result == null) {
			boolean read = Method.GET.equals(request.method()) || Method.HEAD.equals(request.method());
			response.status(read ? WebEndpointResponse.STATUS_NOT_FOUND : WebEndpointResponse.STATUS_NO_CONTENT);
			response.send(new byte[0]);
			return;
		}
		Object body = result;
		MimeType type = negotiated;
		if (result instanceof WebEndpointResponse<?> endpointResponse) {
			response.status(endpointResponse.getStatus());
			body = endpointResponse.getBody();
			if (endpointResponse.getContentType() != null) {
				type = endpointResponse.getContentType();
			}
		}
		if (body == null) {
			response.send(new byte[0]);
			return;
		}
		response.contentType(type.toString());
		if (body instanceof byte[] bytes) {
			response.send(bytes);
		}
		else if (body instanceof CharSequence text) {
			response.send(text.toString().getBytes(StandardCharsets.UTF_8));
		}
		else if (body instanceof Resource resource) {
			stream(resource, response);
		}
		else {
			response.send(this.jsonMapper.writeValueAsBytes(body));
		}
	}

	private static void stream(Resource resource, Response response) throws IOException {
		long length = resource.isFile() ? resource.contentLength() : -1;
		if (length >= 0) {
			response.header("Content-Length", Long.toString(length));
		}
		try (InputStream in = resource.getInputStream(); OutputStream out = response.outputStream()) {
			in.transferTo(out);
		}
	}

	/**
	 * Writes an error as a small JSON object, shaped as Spring Boot's error responses.
	 * @param request the request
	 * @param response the response, not yet committed
	 * @param status the status code
	 * @param error the status's reason phrase
	 * @param message what went wrong, safe to show to the client
	 */
	void writeError(Request request, Response response, int status, String error, String message) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("status", status);
		body.put("error", error);
		if (message != null) {
			body.put("message", message);
		}
		body.put("path", request.path());
		response.status(status);
		response.contentType(JSON);
		response.send(this.jsonMapper.writeValueAsBytes(body));
	}

}
