package dev.ariadne;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A handler that returns with its thread's interrupt status set costs nothing but itself, in
 * every model: its response is written and the connection carries the next requests, pipelined
 * ones too. An interrupted thread closes a blocking channel it reads or writes, so the server
 * clears the status after each exchange before it touches the connection again.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InterruptedHandlersIT {

	private static final String INTERRUPTED = "GET /interrupted HTTP/1.1\r\nHost: interrupt\r\n\r\n";

	/** Bytes of {@code /large}: more than the socket takes at once, so that its handler's writes wait. */
	private static final int LARGE = 4 * 1024 * 1024;

	private AriadneServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aHandlerLeavingItsInterruptSetKeepsTheConnection(IoModel model) throws Exception {
		start(model);
		try (RawClient client = RawClient.connect(this.server.port())) {
			for (int i = 0; i < 3; i++) {
				AbstractProtocolIT.assertOk(client.exchange(INTERRUPTED), "interrupted");
			}
			AbstractProtocolIT.assertOk(client.exchange("GET /hello HTTP/1.1\r\nHost: interrupt\r\n\r\n"), "hello");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void pipelinedRequestsAfterAnInterruptedHandlerAreAllAnswered(IoModel model) throws Exception {
		start(model);
		try (RawClient client = RawClient.connect(this.server.port())) {
			client.send(INTERRUPTED + "GET /large HTTP/1.1\r\nHost: interrupt\r\n\r\n" + INTERRUPTED);
			AbstractProtocolIT.assertOk(client.read(), "interrupted");
			RawResponse large = client.read();
			assertThat(large.status()).isEqualTo(200);
			assertThat(large.bodyText()).as("body of %s", large.statusLine()).hasSize(LARGE);
			AbstractProtocolIT.assertOk(client.read(), "interrupted");
		}
	}

	private void start(IoModel model) {
		Servers.assumeSupported(model);
		this.server = Servers.start(model, UnaryOperator.identity(),
				Route.get("/hello", (request, response) -> response.send("hello")),
				Route.get("/interrupted", (request, response) -> {
					Thread.currentThread().interrupt();
					response.send("interrupted");
				}),
				Route.get("/large", (request, response) -> {
					response.header("Content-Length", Integer.toString(LARGE));
					try (OutputStream body = response.outputStream()) {
						byte[] chunk = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
						for (int sent = 0; sent < LARGE; sent += chunk.length) {
							body.write(chunk);
						}
					}
				}));
	}

}
