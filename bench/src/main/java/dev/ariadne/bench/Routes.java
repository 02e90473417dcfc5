package dev.ariadne.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The seed's three routes, byte for byte as the sample app serves them, shared by every
 * peer server so that only the server differs.
 */
final class Routes {

	static final String HELLO_PATH = "/";

	static final String USER_PATH = "/api/user";

	static final String COMPUTE_PATH = "/api/compute";

	/** The WebSocket echo every server serves for Autobahn|Testsuite ({@code bench/autobahn/run}). */
	static final String WEBSOCKET_ECHO_PATH = "/ws/echo";

	static final String TEXT = "text/plain; charset=utf-8";

	static final String JSON = "application/json";

	static final byte[] HELLO = "Hello from Ariadne!".getBytes(StandardCharsets.US_ASCII);

	static final byte[] USER = "{\"id\":1,\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\"}"
		.getBytes(StandardCharsets.US_ASCII);

	private Routes() {
	}

	/**
	 * Runs the CPU-heavy route's work: fib(30) by plain recursion, about 1.6 million calls.
	 * @return the body, "832040"
	 */
	static byte[] compute() {
		return Long.toString(fibonacci(30)).getBytes(StandardCharsets.US_ASCII);
	}

	static long fibonacci(int n) {
		return (n < 2) ? n : fibonacci(n - 1) + fibonacci(n - 2);
	}

	/**
	 * Reads a request body to its end, as a handler that parses it would (the POST workload).
	 * @param body the body
	 * @return the bytes read
	 * @throws IOException if reading fails
	 */
	static int consume(InputStream body) throws IOException {
		byte[] buffer = new byte[1024];
		int total = 0;
		int count;
		while ((count = body.read(buffer)) >= 0) {
			total += count;
		}
		return total;
	}

	/**
	 * Tells bench/run that the server listens; the harness also polls the port.
	 * @param port the bound port
	 */
	static void ready(int port) {
		System.out.println("READY " + port);
		System.out.flush();
	}

}
