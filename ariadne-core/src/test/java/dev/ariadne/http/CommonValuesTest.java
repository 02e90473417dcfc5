package dev.ariadne.http;

import static dev.ariadne.http.Wire.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The values of common fields the parser gives as strings made once ({@link CommonValues}),
 * and every other value in the client's own spelling.
 */
class CommonValuesTest {

	@Test
	void commonValuesAreSharedStringsAndOthersKeepTheClientsSpelling() throws HttpParseException {
		HeadSink first = new HeadSink();
		HeadSink second = new HeadSink();
		String request = "GET /ws HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
				+ "Sec-WebSocket-Version: 13\r\nAccept: */*\r\nX-Other: Upgrade\r\n\r\n";
		new RequestParser(ParserLimits.DEFAULTS, first).parse(ByteBuffer.wrap(bytes(request)));
		new RequestParser(ParserLimits.DEFAULTS, second).parse(ByteBuffer.wrap(bytes(request.replace("Upgrade: websocket",
				"upgrade: WebSocket"))));
		Headers one = first.head.headers();
		Headers two = second.head.headers();
		for (String name : List.of("Connection", "Sec-WebSocket-Version", "Accept")) {
			assertThat(two.get(name)).isSameAs(one.get(name));
		}
		assertThat(one.get("Upgrade")).isEqualTo("websocket");
		// a spelling not among the common ones, and a common value under another name, are the client's own
		assertThat(two.get("Upgrade")).isEqualTo("WebSocket");
		assertThat(two.get("X-Other")).isEqualTo("Upgrade").isNotSameAs(one.get("X-Other"));
	}

	/** Keeps the head the parser reports. */
	private static final class HeadSink implements RequestSink {

		private RequestHead head;

		@Override
		public boolean headComplete(RequestHead head) {
			this.head = head;
			return false;
		}

		@Override
		public boolean content(ByteBuffer content) {
			return false;
		}

		@Override
		public boolean messageComplete() {
			return false;
		}

	}

}
