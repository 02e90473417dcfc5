package dev.ariadne;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A handler that answers a large upload after reading only its start, as a multipart parser
 * over its limit does: the connection closes after the answer, but lingers while the client is
 * still sending (up to a second, in every model), so that a client that sends its whole body
 * before it reads gets the answer rather than a reset. The socket models once stopped lingering
 * after 64 KB: the client's send then failed on a broken pipe and the answer was lost.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnreadBodyLingerIT {

	private static final int BODY = 8 * 1024 * 1024;

	private static final int ROUNDS = 3;

	private static final Route REFUSE = Route.post("/upload", (request, response) -> {
		request.body().readNBytes(256 * 1024);
		response.status(413);
		response.send("too large");
	});

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void clientSendingTheRestOfALargeBodyReadsTheAnswer(IoModel model) throws Exception {
		AriadneServer server = Servers.start(model, (config) -> config, REFUSE);
		byte[] head = ("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + BODY + "\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII);
		byte[] whole = Arrays.copyOf(head, head.length + BODY);
		try {
			for (int round = 0; round < ROUNDS; round++) {
				try (RawClient client = RawClient.connect(server.port())) {
					// a simple client sends the whole body before it reads the answer
					client.send(whole);
					RawResponse response = client.read();
					assertThat(response.status()).as("round %d", round).isEqualTo(413);
					assertThat(response.bodyText()).isEqualTo("too large");
				}
			}
		}
		finally {
			server.stop();
		}
	}

}
