package dev.ariadne;

import java.io.IOException;

import dev.ariadne.http.ParserLimits;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A handler that catches the failure of a body whose framing is broken (a bad chunk, a chunk
 * over the limit) and answers anyway, as a servlet application's error page does: the answer
 * goes out, and the connection then closes at once, since nothing after the broken chunk can
 * be framed. It must neither wait for more body nor read the rest as another request.
 */
class LostBodyFramingIT {

	private static final String CHUNKED = "POST /swallow HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n";

	private static final Route SWALLOW = Route.post("/swallow", (request, response) -> {
		String outcome;
		try {
			request.body().readAllBytes();
			outcome = "read";
		}
		catch (IOException ex) {
			try {
				// a second read, as a careless handler or a body-draining filter does
				request.body().read();
				outcome = "read after a failure";
			}
			catch (IOException again) {
				outcome = "failed twice";
			}
		}
		response.send(outcome);
	});

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void closesAfterAnswerToABodyWithAChunkOverTheLimit(IoModel model) throws IOException {
		assertClosesAfterTheAnswer(model, CHUNKED + "fffff\r\n");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void closesAfterAnswerToABodyWithAnInvalidChunkSize(IoModel model) throws IOException {
		assertClosesAfterTheAnswer(model, CHUNKED + "zz\r\nhello\r\n0\r\n\r\n" + AbstractProtocolIT.get("/swallow"));
	}

	private static void assertClosesAfterTheAnswer(IoModel model, String request) throws IOException {
		AriadneServer server = Servers.start(model,
				(config) -> config.limits(new ParserLimits(4096, 8192, 100, 64 * 1024)), SWALLOW);
		try (RawClient client = RawClient.connect(server.port())) {
			RawResponse response = client.exchange(request);
			// every model streams the body: the handler sees the failure, and every read after it
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.bodyText()).isEqualTo("failed twice");
			client.expectClosed();
		}
		finally {
			server.stop();
		}
	}

}
