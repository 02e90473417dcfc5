package dev.ariadne.servlet;

import java.io.IOException;

/**
 * Where what a request's parsing holds in memory is counted: the core's buffer budget
 * ({@code Request.reserveMemory}), until the exchange ends. May wait for memory, so only the
 * thread running the exchange calls it.
 */
@FunctionalInterface
interface RequestMemory {

	/**
	 * Counts bytes about to be held, before they are allocated.
	 * @param bytes how many
	 * @throws IOException if no memory is free for them: the core's 503, or 413 when the request
	 * would hold more than the server keeps for one exchange
	 */
	void reserve(long bytes) throws IOException;

}
