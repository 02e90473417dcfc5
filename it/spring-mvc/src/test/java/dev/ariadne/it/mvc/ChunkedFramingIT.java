package dev.ariadne.it.mvc;

import java.io.IOException;

import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A chunked request body reaches a servlet application only in strict chunked framing, in every
 * I/O model: a bare LF where a chunk line needs CRLF, or whitespace after a chunk size (the rows
 * of the core's protocol suite), gets 400 and a closed connection, while the same endpoint
 * echoes a well-framed chunked body. The fault shows as the controller reads the body: the read
 * fails, Spring MVC answers the unreadable body 400 through its error page, and the connection,
 * whose framing is lost, closes.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class ChunkedFramingIT {

	private static final String HEAD = "POST /app/api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
			+ "Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

	private final IoModel model;

	private ConformanceApp app;

	ChunkedFramingIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void app() {
		this.app = ConformanceApp.shared(this.model);
	}

	@Test
	void echoesAChunkedBodyWithExtensionsAndTrailersAndKeepsTheConnection() throws IOException {
		try (RawClient client = this.app.raw()) {
			RawResponse response = client.exchange(HEAD + "5;name=value\r\nhello\r\n7\r\n, world\r\n0\r\n"
					+ "X-Checksum: abc\r\n\r\n");
			assertThat(response.status()).as("%s", response).isEqualTo(200);
			assertThat(response.bodyText()).isEqualTo("hello, world");
			assertThat(response.announcesClose()).isFalse();
			assertThat(client.exchange(ConformanceApp.get("/app/api/no-content", "")).status()).isEqualTo(204);
		}
	}

	@ParameterizedTest(name = "{0} -> 400")
	@MethodSource({ "dev.ariadne.AbstractProtocolIT#bareLfInChunkedFraming",
			"dev.ariadne.AbstractProtocolIT#whitespaceAfterChunkSize" })
	void refusesChunkedFramingWithABareLfOrWhitespaceAfterTheSizeWith400AndCloses(String description, String body,
			String reason) throws IOException {
		try (RawClient client = this.app.raw()) {
			RawResponse response = client.exchange(HEAD + body);
			assertThat(response.status()).as("%s", response).isEqualTo(400);
			assertThat(response.header("Content-Type")).startsWith("application/json");
			assertThat(response.bodyText()).contains("\"status\":400").doesNotContain("hello");
			assertThat(response.announcesClose()).as("%s", response).isTrue();
			client.expectClosed();
		}
	}

}
