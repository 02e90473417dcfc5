package dev.ariadne.server.connection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.Status;
import dev.ariadne.server.RateLimitedLogger;

/**
 * How an exchange answers a handler that failed, the same for every protocol: a body found
 * malformed, too large or too slow gets its status; any other failure a 500 while the response
 * is not committed, and an incomplete body once it is.
 */
final class Failures {

	/** Logged under the exchange's name, where handler failures always were. */
	private static final Logger logger = System.getLogger(HttpExchange.class.getName());

	private static final RateLimitedLogger handlerFailures = RateLimitedLogger.of(logger, "Handler failed");

	private Failures() {
	}

	/**
	 * Answers a failure of the exchange's handler, or of the end of its response.
	 * @param context the server's shared state, which counts fatal errors
	 * @param request the request
	 * @param response its response
	 * @param failure what was thrown
	 * @return whether the response is complete on the wire (an answer was written)
	 */
	static boolean answer(ConnectionContext context, ServerRequest request, ServerResponse response,
			Throwable failure) {
		Throwable cause = (failure instanceof UncheckedIOException) ? failure.getCause() : failure;
		if (cause instanceof BodyException bad && !response.committed()) {
			HttpParseException parse = bad.parseException();
			// a 503 here says no memory was free for the body: the client may try again
			response.answer(parse.status(), parse.reason(),
					(parse.status() == Status.SERVICE_UNAVAILABLE_503) ? 1 : 0);
			return true;
		}
		if (cause instanceof IOException) {
			// mostly the connection failing; but a handler's own I/O error (a missing file) is an
			// IOException too, and is answered like any other failure: if the connection is gone,
			// the 500 below fails to go out, which changes nothing
			logger.log(Level.DEBUG, () -> "I/O failed during " + request, failure);
		}
		else {
			if (failure instanceof Error) {
				// out of memory, a stack overflow: answered like any failure, and counted
				context.registry().fatalError();
			}
			handlerFailures.log(() -> "Handler failed for " + request, failure);
		}
		if (response.committed()) {
			// the head is on its way: the only honest signal left is an incomplete body
			return false;
		}
		response.answer(Status.INTERNAL_SERVER_ERROR_500, Answers.HANDLER_FAILED, 0);
		return true;
	}

}
