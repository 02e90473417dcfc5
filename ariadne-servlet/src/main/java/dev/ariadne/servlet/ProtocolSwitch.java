package dev.ariadne.servlet;

/**
 * A request's switch of protocols: the {@code 101} once the dispatch returned, then the new
 * protocol takes the connection.
 */
interface ProtocolSwitch {

	/**
	 * Sends the {@code 101}, on the request's thread, once its dispatch returned.
	 * @param response the servlet response
	 * @return what failed, or {@code null}
	 */
	Throwable switchProtocols(ExchangeResponse response);

	/** The new protocol takes the connection, on the request's thread, once the request is over. */
	void begin();

}
