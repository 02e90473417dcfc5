package dev.ariadne.autoconfigure.actuate;

import java.util.Collection;
import java.util.List;
import java.util.Map;

import dev.ariadne.http.Method;
import dev.ariadne.server.Handler;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.InvocationContext;
import org.springframework.boot.actuate.endpoint.OperationArgumentResolver;
import org.springframework.boot.actuate.endpoint.ProducibleOperationArgumentResolver;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.util.InvalidMimeTypeException;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * Serves one Actuator {@link WebOperation}: negotiates the response type, collects the
 * arguments, invokes the operation and writes its result. Errors the client caused become
 * {@code 400} (an {@link InvalidEndpointRequestException}, an unreadable {@code Accept}
 * header), {@code 406} (nothing acceptable) or {@code 415} (a body the operation does not
 * consume); anything else the operation throws is left to the server, which answers
 * {@code 500}.
 *
 * <p>Stateless, so one instance serves every request of its route concurrently.
 */
final class OperationHandler implements Handler {

	private static final String ACCEPT = "Accept";

	private static final String CONTENT_TYPE = "Content-Type";

	private final WebOperation operation;

	private final WebServerNamespace namespace;

	private final MediaTypeNegotiator negotiator;

	private final OperationArguments arguments;

	private final List<MimeType> consumed;

	private final OperationResultWriter writer;

	/**
	 * Creates a handler.
	 * @param operation the operation to invoke
	 * @param namespace the namespace of the listener serving it, passed to operations that
	 * declare a {@link WebServerNamespace} parameter
	 * @param arguments collects the invocation's arguments
	 * @param writer writes the result
	 */
	OperationHandler(WebOperation operation, WebServerNamespace namespace, OperationArguments arguments,
			OperationResultWriter writer) {
		this.operation = operation;
		this.namespace = namespace;
		this.negotiator = new MediaTypeNegotiator(operation.getRequestPredicate().getProduces());
		this.arguments = arguments;
		this.consumed = parse(operation.getRequestPredicate().getConsumes());
		this.writer = writer;
	}

	private static List<MimeType> parse(Collection<String> types) {
		return types.stream().map(MimeTypeUtils::parseMimeType).toList();
	}

	@Override
	public void handle(Request request, Response response) throws Exception {
		List<String> accept = request.headers().all(ACCEPT);
		MimeType type;
		try {
			type = this.negotiator.negotiate(accept);
		}
		catch (InvalidMimeTypeException ex) {
			this.writer.writeError(request, response, 400, "Bad Request", "Invalid Accept header: " + ex.getMessage());
			return;
		}
		if (type == null) {
			this.writer.writeError(request, response, 406, "Not Acceptable",
					"Acceptable representations: " + this.operation.getRequestPredicate().getProduces());
			return;
		}
		if (!consumes(request)) {
			this.writer.writeError(request, response, 415, "Unsupported Media Type",
					"Supported media types: " + this.operation.getRequestPredicate().getConsumes());
			return;
		}
		Object result;
		try {
			Map<String, Object> arguments = this.arguments.resolve(request);
			InvocationContext context = new InvocationContext(SecurityContext.NONE, arguments,
					OperationArgumentResolver.of(WebServerNamespace.class, () -> this.namespace),
					new ProducibleOperationArgumentResolver(() -> accept));
			result = this.operation.invoke(context);
		}
		catch (InvalidEndpointRequestException ex) {
			this.writer.writeError(request, response, 400, "Bad Request", ex.getReason());
			return;
		}
		this.writer.write(request, response, result, type);
	}

	/**
	 * Checks the type of a {@code POST} body; a body without a type is taken for JSON.
	 */
	private boolean consumes(Request request) {
		String contentType = request.header(CONTENT_TYPE);
		if (this.consumed.isEmpty() || contentType == null || !Method.POST.equals(request.method())) {
			return true;
		}
		try {
			MimeType type = MimeTypeUtils.parseMimeType(contentType);
			return this.consumed.stream().anyMatch((consumed) -> consumed.isCompatibleWith(type));
		}
		catch (InvalidMimeTypeException ex) {
			return false;
		}
	}

	@Override
	public String toString() {
		return "OperationHandler[" + this.operation + "]";
	}

}
