package dev.ariadne;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.ariadne.http.Headers;
import dev.ariadne.server.Handler;
import dev.ariadne.server.routing.Route;

/**
 * The routes the socket-level suites serve. Handlers are deterministic; the only one that waits
 * does so on a {@link #gate(String) gate} the test opens, never on a clock.
 */
final class ConformanceRoutes {

	/** Body of {@code GET /hello}. */
	static final String HELLO = "Hello, world";

	/** Piece sizes the streaming handler cycles through: below, at and above the server's buffers. */
	private static final int[] PIECES = { 1, 100, 1000, 4095, 4096, 4097, 10_000, 65_536, 7 };

	private static final long GATE_TIMEOUT_SECONDS = 10;

	private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();

	/**
	 * Returns a named gate that the {@code gate} query parameter of the gated routes waits on;
	 * count it down to open it.
	 * @param name the gate's name, unique per test
	 * @return the gate
	 */
	CountDownLatch gate(String name) {
		return this.gates.computeIfAbsent(name, (key) -> new CountDownLatch(1));
	}

	/**
	 * Opens every gate, so that no handler stays blocked after a test.
	 */
	void openAllGates() {
		this.gates.values().forEach(CountDownLatch::countDown);
	}

	/**
	 * Returns the byte at a position of the streamed body: position-dependent, so that a lost,
	 * repeated or reordered piece changes the body.
	 * @param index the position
	 * @return the byte
	 */
	static byte patternByte(long index) {
		return (byte) ((index % 251) + (index / 251) * 7);
	}

	/**
	 * Returns the streamed body of the given size.
	 * @param size the size
	 * @return the expected bytes
	 */
	static byte[] pattern(int size) {
		byte[] bytes = new byte[size];
		for (int i = 0; i < size; i++) {
			bytes[i] = patternByte(i);
		}
		return bytes;
	}

	List<Route> routes() {
		return List.of(
				Route.get("/hello", (request, response) -> {
					response.header("X-Route", "hello");
					response.send(HELLO);
				}),
				Route.post("/echo", (request, response) -> {
					byte[] body = request.bodyBytes();
					response.contentType("application/octet-stream");
					Headers trailers = request.trailers();
					if (trailers.size() > 0) {
						response.header("X-Trailers", describe(trailers));
					}
					response.send(body);
				}),
				Route.post("/ignore-body", (request, response) -> response.send("ignored")),
				Route.get("/trailers", (request, response) -> {
					try {
						response.trailers(() -> new Headers().add("X-Checksum", "c0ffee")
							.add("Content-Type", "text/html")
							.add("X-Bad", "a\r\nInjected: yes"));
					}
					catch (IllegalStateException ex) {
						response.send("refused: " + ex.getMessage());
						return;
					}
					response.header("Trailer", "X-Checksum");
					if (request.queryParam("send") != null) {
						response.send(HELLO);
						return;
					}
					try (OutputStream out = response.outputStream()) {
						out.write(HELLO.getBytes(StandardCharsets.UTF_8));
					}
				}),
				Route.get("/stream", (request, response) -> stream(response.outputStream(), 0,
						Integer.parseInt(request.queryParam("size")))),
				Route.get("/stream-gated", (request, response) -> {
					int size = Integer.parseInt(request.queryParam("size"));
					int before = Integer.parseInt(request.queryParam("before"));
					OutputStream out = response.outputStream();
					stream(out, 0, before);
					awaitGate(request.queryParam("gate"));
					stream(out, before, size);
				}),
				Route.get("/fail-before", (request, response) -> {
					response.header("X-Lost", "never sent");
					throw new IllegalStateException("Handler failing before commit, as the test wants");
				}),
				Route.get("/fail-after", (request, response) -> {
					OutputStream out = response.outputStream();
					out.write("partial-data".getBytes(StandardCharsets.US_ASCII));
					if ("true".equals(request.queryParam("flush"))) {
						out.flush();
					}
					throw new IllegalStateException("Handler failing after commit, as the test wants");
				}),
				Route.get("/no-content", (request, response) -> response.status(204)),
				Route.get("/not-modified", (request, response) -> {
					response.status(304);
					response.header("ETag", "\"v1\"");
				}),
				Route.get("/echo-id/{id}", (request, response) -> response
					.send("id=" + request.pathVariable("id") + " tag=" + request.queryParam("tag"))),
				Route.get("/vars/{first}/{second}", (request, response) -> response.send("first="
						+ request.pathVariable("first") + ";second=" + request.pathVariable("second") + ";query="
						+ request.queryParams())),
				Route.get("/slow", (request, response) -> {
					// a slow handler, so a pipelined request behind it is ready long before it ends
					long millis = Long.parseLong(request.queryParam("ms"));
					Thread.sleep(millis);
					response.send("slow " + millis);
				}),
				Route.get("/bad-header", (request, response) -> {
					response.header("X-Injected", "a\r\nSet-Cookie: injected=1");
					response.send("must never be sent");
				}),
				Route.get("/bad-content-type", (request, response) -> {
					response.contentType("text/plain\r\nX-Injected: 1");
					response.send("must never be sent");
				}),
				Route.get("/bad-header-list", (request, response) -> {
					// past header()'s check: the list itself is handed out
					response.headers().add("X-Injected", "a" + request.queryParam("cr") + "Set-Cookie: injected=1");
					byte[] body = "must never be sent".getBytes(StandardCharsets.US_ASCII);
					if ("true".equals(request.queryParam("stream"))) {
						response.outputStream().write(body);
					}
					else {
						response.send(body);
					}
				}),
				Route.get("/bad-header-name", (request, response) -> {
					response.headers().set("X-Injected: 1\r\nSet-Cookie", "injected=1");
					response.send("must never be sent");
				}));
	}

	private void awaitGate(String name) throws InterruptedException {
		if (!gate(name).await(GATE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Gate " + name + " was never opened");
		}
	}

	private static void stream(OutputStream out, int from, int to) throws IOException {
		byte[] piece = new byte[PIECES[PIECES.length - 2]];
		int position = from;
		int next = 0;
		while (position < to) {
			int length = Math.min(PIECES[next++ % PIECES.length], to - position);
			for (int i = 0; i < length; i++) {
				piece[i] = patternByte(position + i);
			}
			out.write(piece, 0, length);
			position += length;
		}
	}

	private static String describe(Headers fields) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < fields.size(); i++) {
			if (i > 0) {
				text.append(", ");
			}
			text.append(fields.name(i)).append('=').append(fields.value(i));
		}
		return text.toString();
	}

}
