package dev.ariadne.servlet;

import java.io.IOException;

/**
 * A request's switch of protocols: the {@code 101} once the dispatch returned, then the new
 * protocol takes the connection.
 */
interface ProtocolSwitch {

	/**
	 * The request's dispatch returned: the {@code 101} goes out, unless the request failed or
	 * asked for an error page after it switched; on the request's thread.
	 * @param response the servlet response
	 * @return what failed, or {@code null}
	 */
	default Throwable switchProtocols(ExchangeResponse response) {
		if (response.errorPending()) {
			return new IllegalStateException("An error was sent for a request that switched protocols");
		}
		try {
			response.finishUpgrade();
			return null;
		}
		catch (IOException | RuntimeException ex) {
			return ex;
		}
	}

	/** The new protocol takes the connection, on the request's thread, once the request is over. */
	void begin();

}
