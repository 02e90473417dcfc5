package dev.ariadne;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ariadne.RawClient.IncompleteResponseException;
import dev.ariadne.RawResponse.Field;
import dev.ariadne.RawResponse.Framing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The strict reader of {@link RawClient} against canned server bytes: the suites are only as
 * strict as it is, so every framing mistake it must catch is caught here first.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RawClientIT {

	private ServerSocket listener;

	private RawClient client;

	private Socket server;

	@BeforeEach
	void connect() throws IOException {
		this.listener = new ServerSocket(0, 1, RawClient.LOOPBACK);
		this.client = RawClient.connect(this.listener.getLocalPort());
		this.server = this.listener.accept();
	}

	@AfterEach
	void close() throws IOException {
		this.client.close();
		this.server.close();
		this.listener.close();
	}

	@ParameterizedTest
	@ValueSource(strings = {
			"HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n",
			"HTTP/1.1 200 OK\r\nContent-Length: 0\n\r\n",
			"HTTP/1.1 200 OK\r\nX-A: a\rb\r\nContent-Length: 0\r\n\r\n",
			"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n",
			"HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n",
			"HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\nContent-Length: 0\r\n\r\n",
			"HTTP/1.1 200 OK\r\nX A: b\r\nContent-Length: 0\r\n\r\n",
			"HTTP/1.1 200 OK\r\nX-A : b\r\nContent-Length: 0\r\n\r\n",
			"HTTP/1.1 200 OK\r\nX-A: a\u0001b\r\nContent-Length: 0\r\n\r\n",
			"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
			"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx",
			"HTTP/1.1 200 OK\r\nContent-Length: one\r\n\r\nx",
			"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
			"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n",
			"HTTP/1.1 100 Continue\r\nTransfer-Encoding: chunked\r\n\r\n",
			"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
			"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n",
			"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3 \r\nabc\r\n0\r\n\r\n" })
	void rejectsMalformedResponse(String response) throws IOException {
		serve(response);
		assertThatExceptionOfType(AssertionError.class).isThrownBy(this.client::read)
			.withMessageStartingWith("Malformed HTTP/1.1 response");
	}

	@Test
	void decodesChunkedBodyWithExtensionsAndTrailers() throws IOException {
		serve("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n1\r\n!\r\n0\r\nX-T: 1\r\n\r\n");
		RawResponse response = this.client.read();
		assertThat(response.framing()).isEqualTo(Framing.CHUNKED);
		assertThat(response.bodyText()).isEqualTo("hello!");
		assertThat(response.chunkSizes()).containsExactly(5, 1);
		assertThat(response.trailers()).containsExactly(new Field("X-T", "1"));
	}

	@Test
	void readsNoBodyAfterHeadOr304WhateverTheirLength() throws IOException {
		serve("HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n" + "HTTP/1.1 304 Not Modified\r\nContent-Length: 12\r\n\r\n"
				+ "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
		assertThat(this.client.readHeadResponse().framing()).isEqualTo(Framing.NONE);
		assertThat(this.client.read().status()).isEqualTo(304);
		assertThat(this.client.read().bodyText()).isEqualTo("ok");
		this.server.shutdownOutput();
		this.client.expectClosed();
	}

	@Test
	void readsCloseDelimitedBody() throws IOException {
		serve("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end");
		this.server.shutdownOutput();
		RawResponse response = this.client.read();
		assertThat(response.framing()).isEqualTo(Framing.CLOSE);
		assertThat(response.bodyText()).isEqualTo("until the end");
		assertThat(response.announcesClose()).isTrue();
	}

	@Test
	void reportsWhatArrivedWhenConnectionEndsInsideChunkedBody() throws IOException {
		serve("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\ndata\r\n");
		this.server.shutdownOutput();
		IncompleteResponseException failure = readIncomplete();
		assertThat(failure.partial().statusLine()).isEqualTo("HTTP/1.1 200 OK");
		assertThat(failure.partial().bodyText()).isEqualTo("data");
	}

	@Test
	void reportsConnectionEndingInsideFixedLengthBody() throws IOException {
		serve("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort");
		this.server.shutdownOutput();
		assertThat(readIncomplete().partial().bodyText()).isEqualTo("short");
	}

	@Test
	void reportsConnectionEndingBeforeResponse() throws IOException {
		this.server.shutdownOutput();
		assertThat(readIncomplete()).hasMessageContaining("before a response");
	}

	@Test
	void failsExpectClosedWhenMoreBytesArrive() throws IOException {
		serve("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nextra");
		this.client.read();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(this.client::expectClosed)
			.withMessageContaining("extra");
	}

	@Test
	void rejectsRepeatedHeaderWhenOneValueIsExpected() throws IOException {
		serve("HTTP/1.1 200 OK\r\nX-A: 1\r\nX-A: 2\r\nContent-Length: 0\r\n\r\n");
		RawResponse response = this.client.read();
		assertThat(response.headers("x-a")).isEqualTo(List.of("1", "2"));
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> response.header("X-A"));
	}

	private void serve(String bytes) throws IOException {
		OutputStream out = this.server.getOutputStream();
		out.write(bytes.getBytes(StandardCharsets.ISO_8859_1));
		out.flush();
	}

	private IncompleteResponseException readIncomplete() throws IOException {
		try {
			RawResponse response = this.client.read();
			throw new AssertionError("Expected an incomplete response, read " + response);
		}
		catch (IncompleteResponseException ex) {
			return ex;
		}
	}

}
