package dev.ariadne;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ariadne.http.ParserLimits;
import dev.ariadne.server.IoModel;
import dev.ariadne.RawClient.IncompleteResponseException;
import dev.ariadne.RawResponse.Framing;
import dev.ariadne.server.Request;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.TlsConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The HTTP/1.1 conformance suite every I/O model must pass, at socket level: exact request bytes
 * in, exact status line and framing out, read by the strict {@link RawClient}.
 *
 * <p>Each I/O model gets a subclass that only names its model:
 * <pre>{@code
 * class EventLoopProtocolIT extends AbstractProtocolIT {
 *     IoModel ioModel() { return IoModel.EVENT_LOOP; }
 * }
 * }</pre>
 * A {@code VIRTUAL_THREADS} subclass is skipped, with the reason, on a JDK older than 21.
 *
 * <p>One server serves the whole class (port 0, loopback, 250 workers so that the
 * concurrency test never depends on the pool size); tests that need other settings start a
 * dedicated server with {@link #startServer(Consumer)}, stopped after the test. Assertions are
 * about bytes and connection state, never about time.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class AbstractProtocolIT {

	/** Longest request line the servers accept. */
	public static final int MAX_LINE = 4096;

	/** Largest header section the servers accept. */
	public static final int MAX_HEADER_SIZE = 8192;

	/** Largest request body the servers accept. */
	public static final int MAX_BODY = 1024 * 1024;

	public static final ParserLimits LIMITS = new ParserLimits(MAX_LINE, MAX_HEADER_SIZE, 100, MAX_BODY);

	private static final String DATE = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} "
			+ "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT";

	private final ConformanceRoutes routes = new ConformanceRoutes();

	private final List<RawClient> clients = new CopyOnWriteArrayList<>();

	private final List<AriadneServer> extraServers = new CopyOnWriteArrayList<>();

	private final ExecutorService writer = Executors.newSingleThreadExecutor();

	private AriadneServer server;

	private RawClient.Layer layer;

	/**
	 * Returns the I/O model under test.
	 * @return the model
	 */
	abstract IoModel ioModel();

	/**
	 * Returns whether the suite runs over TLS: the servers terminate TLS with a certificate for
	 * {@code localhost}, and the clients speak TLS 1.3 or 1.2 over their sockets, with the same
	 * requests and the same expected answers as over plaintext.
	 * @return whether to speak TLS
	 */
	boolean tls() {
		return false;
	}

	/**
	 * Returns what the suite's clients speak through over their sockets.
	 * @return the layer
	 */
	private RawClient.Layer layer() {
		if (this.layer == null) {
			this.layer = tls() ? RawClient.Layer.tls(TestCertificates.get().clientContext(), "localhost")
					: RawClient.Layer.PLAIN;
		}
		return this.layer;
	}

	@BeforeAll
	void startSharedServer() {
		if (modelRunsHere()) {
			this.server = start(config());
		}
	}

	@BeforeEach
	void assumeModelRunsHere() {
		// per test rather than per class, so that every skipped test is reported with the reason
		assumeTrue(modelRunsHere(),
				"The virtual-threads I/O model needs JDK 21 or later; this is JDK " + Runtime.version().feature());
	}

	private boolean modelRunsHere() {
		return ioModel() != IoModel.VIRTUAL_THREADS || Runtime.version().feature() >= 21;
	}

	@AfterEach
	void cleanUp() {
		this.routes.openAllGates();
		this.clients.forEach(RawClient::close);
		this.clients.clear();
		this.extraServers.forEach(AriadneServer::stop);
		this.extraServers.clear();
	}

	@AfterAll
	void stopSharedServer() {
		this.writer.shutdownNow();
		if (this.server != null) {
			this.server.stop();
		}
	}

	// ---- framing and pipelining

	@Test
	void answersThreePipelinedRequestsInOrder() throws IOException {
		RawClient client = connect();
		client.send(get("/slow?ms=50") + "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello"
				+ get("/echo-id/3"));
		assertOk(client.read(), "slow 50");
		RawResponse echo = client.read();
		assertOk(echo, "hello");
		assertThat(echo.header("Content-Type")).isEqualTo("application/octet-stream");
		assertOk(client.read(), "id=3 tag=null");
		assertOk(client.exchange(get("/hello")), ConformanceRoutes.HELLO);
	}

	@Test
	void answersAPipelinedRequestBeforeRefusingTheMalformedOneAfterIt() throws IOException {
		// the socket models used to drop the first response, still buffered, with the 400
		RawClient client = connect();
		client.send(get("/hello") + "NOT HTTP\r\n\r\n");
		assertOk(client.read(), ConformanceRoutes.HELLO);
		assertRefused(client.read(), "HTTP/1.1 400 Bad Request");
		client.expectClosed();
	}

	@Test
	void answersRequestSentOneByteAtATime() throws IOException {
		RawClient client = connect();
		for (byte b : get("/echo-id/slowly?tag=x").getBytes(StandardCharsets.US_ASCII)) {
			client.send(new byte[] { b });
		}
		assertOk(client.read(), "id=slowly tag=x");
	}

	@Test
	void decodesChunkedBodyWithExtensionsAndPassesTrailersToHandler() throws IOException {
		RawClient client = connect();
		client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
				+ "5;name=value\r\nhello\r\n" + "7;quoted=\"a;b\";flag\r\n, world\r\n"
				+ "0;last\r\nX-Checksum: abc123\r\nX-Count: 2\r\n\r\n" + get("/echo-id/after-trailers"));
		RawResponse echo = client.read();
		assertOk(echo, "hello, world");
		assertThat(echo.framing()).isEqualTo(Framing.LENGTH);
		assertThat(echo.header("Content-Length")).isEqualTo("12");
		assertThat(echo.header("X-Trailers")).isEqualTo("X-Checksum=abc123, X-Count=2");
		assertOk(client.read(), "id=after-trailers tag=null");
	}

	@Test
	void sendsTheHandlersTrailersAfterTheLastChunkLeavingOutTheForbiddenAndInvalidOnes() throws IOException {
		RawClient client = connect();
		for (String target : List.of("/trailers", "/trailers?send")) {
			RawResponse response = client.exchange(get(target));
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.bodyText()).isEqualTo(ConformanceRoutes.HELLO);
			// a response with trailers is chunked, even one whose length send() knows
			assertThat(response.framing()).isEqualTo(Framing.CHUNKED);
			assertThat(response.header("Content-Length")).isNull();
			assertThat(response.trailer("X-Checksum")).isEqualTo("c0ffee");
			assertThat(response.trailers()).extracting(RawResponse.Field::name).containsExactly("X-Checksum");
		}
		// HEAD has no content, so no trailers; the connection goes on
		RawResponse head = client.send("HEAD /trailers HTTP/1.1\r\nHost: localhost\r\n\r\n").readHeadResponse();
		assertThat(head.status()).isEqualTo(200);
		assertThat(head.trailers()).isEmpty();
		assertOk(client.exchange(get("/hello")), ConformanceRoutes.HELLO);
		// HTTP/1.0 has no chunks to carry them: the handler is told at once
		RawResponse old = connect().exchange("GET /trailers HTTP/1.0\r\nHost: localhost\r\n\r\n");
		assertThat(old.bodyText()).isEqualTo("refused: An HTTP/1.0 response cannot carry trailer fields");
	}

	@Test
	void decodesChunkedBodyArrivingInSeparateWrites() throws IOException {
		RawClient client = connect();
		client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n");
		client.send("3\r\nabc\r\n").send("A\r\n0123456789\r\n").send("0\r\n").send("X-T: 1\r\n").send("\r\n");
		RawResponse echo = client.read();
		assertOk(echo, "abc0123456789");
		assertThat(echo.header("X-Trailers")).isEqualTo("X-T=1");
	}

	@Test
	void passesPathVariablesAndDecodedQueryParametersToHandler() throws IOException {
		RawResponse response = connect().exchange(get("/vars/a%20b/c%2Fd?x=1&y=two+words&y=%C3%A9&empty="));
		assertOk(response, "first=a b;second=c/d;query={x=[1], y=[two words, é], empty=[]}");
	}

	@Test
	void answersHigherMinorVersionAsHttp11() throws IOException {
		// RFC 9110 §6.2: a 1.x request newer than 1.1 is processed as 1.1
		RawClient client = connect();
		RawResponse response = client.exchange("GET /hello HTTP/1.2\r\nHost: localhost\r\n\r\n");
		assertOk(response, ConformanceRoutes.HELLO);
		assertThat(response.announcesClose()).isFalse();
		assertOk(client.exchange(get("/echo-id/after-1.2")), "id=after-1.2 tag=null");
	}

	@Test
	void answersUnknownPathWith404AndKeepsConnection() throws IOException {
		RawClient client = connect();
		RawResponse response = client.exchange(get("/no/such/route"));
		assertThat(response.statusLine()).isEqualTo("HTTP/1.1 404 Not Found");
		assertThat(response.announcesClose()).isFalse();
		assertOk(client.exchange(get("/hello")), ConformanceRoutes.HELLO);
	}

	// ---- responses without a body

	@Test
	void answersHeadWithTheHeadersOfGetAndNoBody() throws IOException {
		RawClient client = connect();
		RawResponse get = client.exchange(get("/hello"));
		RawResponse head = client.send("HEAD /hello HTTP/1.1\r\nHost: localhost\r\n\r\n").readHeadResponse();
		assertThat(head.statusLine()).isEqualTo("HTTP/1.1 200 OK");
		assertThat(head.headerNames()).isEqualTo(get.headerNames());
		for (String name : get.headerNames()) {
			if (!name.equals("date")) {
				assertThat(head.headers(name)).as(name).isEqualTo(get.headers(name));
			}
		}
		assertThat(head.header("Content-Length")).isEqualTo(String.valueOf(ConformanceRoutes.HELLO.length()));
		// a body after the HEAD response would be read as the next status line
		assertOk(client.exchange(get("/echo-id/after-head")), "id=after-head tag=null");
	}

	@Test
	void answersHeadOfStreamedResponseWithoutBody() throws IOException {
		RawClient client = connect();
		RawResponse head = client.send("HEAD /stream?size=100000 HTTP/1.1\r\nHost: localhost\r\n\r\n")
			.readHeadResponse();
		assertThat(head.statusLine()).isEqualTo("HTTP/1.1 200 OK");
		assertThat(head.announcesClose()).isFalse();
		assertOk(client.exchange(get("/echo-id/after-head")), "id=after-head tag=null");
	}

	@Test
	void answersNoContentWithoutBodyOrLength() throws IOException {
		RawClient client = connect();
		RawResponse response = client.exchange(get("/no-content"));
		assertThat(response.statusLine()).isEqualTo("HTTP/1.1 204 No Content");
		assertThat(response.header("Content-Length")).isNull();
		assertThat(response.header("Transfer-Encoding")).isNull();
		assertThat(response.header("Date")).matches(DATE);
		assertOk(client.exchange(get("/echo-id/after-204")), "id=after-204 tag=null");
	}

	@Test
	void answersNotModifiedWithoutBody() throws IOException {
		RawClient client = connect();
		RawResponse response = client.exchange(get("/not-modified"));
		assertThat(response.statusLine()).isEqualTo("HTTP/1.1 304 Not Modified");
		assertThat(response.header("ETag")).isEqualTo("\"v1\"");
		assertThat(response.header("Transfer-Encoding")).isNull();
		assertOk(client.exchange(get("/echo-id/after-304")), "id=after-304 tag=null");
	}

	// ---- Expect: 100-continue

	@Test
	void sendsContinueBeforeReadingTheBody() throws IOException {
		RawClient client = connect();
		client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
		RawResponse interim = client.read();
		assertThat(interim.statusLine()).isEqualTo("HTTP/1.1 100 Continue");
		assertThat(interim.headers()).isEmpty();
		RawResponse response = client.send("hello").read();
		assertOk(response, "hello");
		assertThat(response.announcesClose()).isFalse();
		assertOk(client.exchange(get("/hello")), ConformanceRoutes.HELLO);
	}

	@Test
	void neverWaitsForExpectedBodyThatHandlerIgnores() throws IOException {
		RawClient client = connect();
		client.send("POST /ignore-body HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n"
				+ "Expect: 100-continue\r\n\r\n");
		// every model streams the body as the handler reads it: the handler answered without
		// asking for the body, so no 100, and the unsent body cannot be skipped: the connection
		// closes
		RawResponse response = client.read();
		assertOk(response, "ignored");
		assertThat(response.announcesClose()).isTrue();
		client.expectClosed();
	}

	// ---- persistence

	@Test
	void drainsSmallUnreadBodyAndKeepsConnection() throws IOException {
		RawClient client = connect();
		client.send("POST /ignore-body HTTP/1.1\r\nHost: localhost\r\nContent-Length: 11\r\n\r\nhello world"
				+ get("/echo-id/after-drain"));
		RawResponse response = client.read();
		assertOk(response, "ignored");
		assertThat(response.announcesClose()).isFalse();
		assertOk(client.read(), "id=after-drain tag=null");
	}

	@Test
	void announcesCloseWhenUnreadBodyIsTooLargeToDrain() throws Exception {
		RawClient client = connect();
		int length = 512 * 1024;
		client.send("POST /ignore-body HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + length + "\r\n\r\n");
		// written while the response is read: a server that answers first may stop reading
		Future<?> body = this.writer.submit(() -> {
			client.send(new byte[length]);
			return client.send(get("/echo-id/after-large-body"));
		});
		RawResponse response = client.read();
		assertOk(response, "ignored");
		assertThat(response.announcesClose()).as("response before a close").isTrue();
		client.expectClosed();
	}

	@Test
	void closesHttp10ConnectionAfterResponse() throws IOException {
		RawClient client = connect();
		RawResponse response = client.exchange("GET /hello HTTP/1.0\r\n\r\n");
		assertThat(response.statusLine()).isEqualTo("HTTP/1.1 200 OK");
		assertThat(response.bodyText()).isEqualTo(ConformanceRoutes.HELLO);
		assertThat(response.header("Connection")).isEqualTo("close");
		client.expectClosed();
	}

	@Test
	void keepsHttp10ConnectionWhenClientAsksForKeepAlive() throws IOException {
		RawClient client = connect();
		for (int i = 0; i < 2; i++) {
			RawResponse response = client.exchange("GET /echo-id/" + i + " HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
			assertOk(response, "id=" + i + " tag=null");
			assertThat(response.header("Connection")).isEqualTo("keep-alive");
		}
		RawResponse last = client.exchange("GET /hello HTTP/1.0\r\n\r\n");
		assertThat(last.header("Connection")).isEqualTo("close");
		client.expectClosed();
	}

	@Test
	void delimitsHttp10StreamedBodyByClosingConnection() throws IOException {
		RawClient client = connect();
		RawResponse response = client.exchange("GET /stream?size=100000 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
		assertThat(response.statusLine()).isEqualTo("HTTP/1.1 200 OK");
		assertThat(response.framing()).isEqualTo(Framing.CLOSE);
		assertThat(response.header("Connection")).isEqualTo("close");
		assertThat(response.body()).isEqualTo(ConformanceRoutes.pattern(100_000));
	}

	@Test
	void closesAfterResponseWhenClientSendsConnectionClose() throws IOException {
		RawClient client = connect();
		RawResponse response = client.exchange("GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
		assertOk(response, ConformanceRoutes.HELLO);
		assertThat(response.header("Connection")).isEqualTo("close");
		client.expectClosed();
	}

	@Test
	void closesAfterMaxRequestsPerConnection() throws IOException {
		AriadneServer limited = startServer((config) -> config.keepAliveMaxRequests(3));
		RawClient client = connect(limited);
		for (int i = 1; i <= 2; i++) {
			RawResponse response = client.exchange(get("/echo-id/" + i));
			assertOk(response, "id=" + i + " tag=null");
			assertThat(response.header("Connection")).as("response %d", i).isNull();
		}
		RawResponse third = client.exchange(get("/echo-id/3"));
		assertOk(third, "id=3 tag=null");
		assertThat(third.header("Connection")).isEqualTo("close");
		client.expectClosed();
	}

	@Test
	void closesIdleConnectionAfterKeepAliveTimeout() throws IOException {
		// the read timeout (5 s) is far below the header timeout (20 s): only the keep-alive
		// timeout can close the connection in time
		AriadneServer shortLived = startServer((config) -> config.keepAliveTimeout(Duration.ofMillis(300)));
		RawClient client = connect(shortLived);
		RawResponse response = client.exchange(get("/hello"));
		assertOk(response, ConformanceRoutes.HELLO);
		assertThat(response.announcesClose()).isFalse();
		client.expectClosed();
		Await.until(() -> shortLived.stats().openConnections() == 0,
				() -> "open connections: " + shortLived.stats().openConnections());
	}

	@Test
	void closesConnectionThatSendsNothingAtHeaderTimeout() throws IOException {
		// nothing of a request arrived, so there is nothing to answer: an orderly close, well
		// before the client's 5 s read timeout and the 60 s keep-alive timeout
		AriadneServer impatient = startServer(
				(config) -> config.headerTimeout(Duration.ofMillis(300)).keepAliveTimeout(Duration.ofSeconds(60)));
		RawClient client = connect(impatient);
		client.expectClosed();
		Await.until(() -> impatient.stats().openConnections() == 0,
				() -> "open connections: " + impatient.stats().openConnections());
	}

	@Test
	void answers408WhenHeadIsIncompleteAtHeaderTimeout() throws IOException {
		AriadneServer impatient = startServer((config) -> config.headerTimeout(Duration.ofMillis(300)));
		RawClient client = connect(impatient);
		client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n");
		RawResponse response = client.read();
		assertRefused(response, "HTTP/1.1 408 Request Timeout");
		assertThat(response.bodyText()).isEqualTo("Request head not received within the header timeout\n");
		client.expectClosed();
	}

	// ---- refused requests

	/**
	 * Returns the bad-input table: requests every listener refuses before a handler runs, each
	 * with a description and the status it gets (with {@link #LIMITS} as the parser's limits).
	 * Other modules run it against their own listeners (the sample application's).
	 * @return rows of description, request bytes (as ISO-8859-1 text) and status
	 */
	public static Stream<Arguments> malformedRequests() {
		String post = "POST /echo HTTP/1.1\r\nHost: localhost\r\n";
		return Stream.of(
				row("request line without version", "GET /hello\r\nHost: localhost\r\n\r\n", 400),
				row("two spaces in request line", "GET  /hello HTTP/1.1\r\nHost: localhost\r\n\r\n", 400),
				row("lower-case protocol name", "GET /hello http/1.1\r\nHost: localhost\r\n\r\n", 400),
				row("control character in target", "GET /he\u0001llo HTTP/1.1\r\nHost: localhost\r\n\r\n", 400),
				row("whitespace before colon", "GET /hello HTTP/1.1\r\nHost : localhost\r\n\r\n", 400),
				row("obsolete line folding", "GET /hello HTTP/1.1\r\nHost: localhost\r\nX-A: one\r\n two\r\n\r\n", 400),
				row("bare CR in header value", "GET /hello HTTP/1.1\r\nHost: localhost\r\nX-A: one\rtwo\r\n\r\n", 400),
				row("NUL in header value", "GET /hello HTTP/1.1\r\nHost: localhost\r\nX-A: a\u0000b\r\n\r\n", 400),
				row("DEL in header value", "GET /hello HTTP/1.1\r\nHost: localhost\r\nX-A: a\u007fb\r\n\r\n", 400),
				row("control character in header name", "GET /hello HTTP/1.1\r\nHost: localhost\r\nX\u0001A: b\r\n\r\n",
						400),
				row("missing Host in HTTP/1.1", "GET /hello HTTP/1.1\r\n\r\n", 400),
				row("repeated Host", "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
				row("Content-Length with Transfer-Encoding",
						post + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
				row("conflicting Content-Length fields", post + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
						400),
				row("conflicting Content-Length list", post + "Content-Length: 5, 6\r\n\r\nhello", 400),
				row("non-numeric Content-Length", post + "Content-Length: five\r\n\r\n", 400),
				row("signed Content-Length", post + "Content-Length: +5\r\n\r\nhello", 400),
				row("negative Content-Length", post + "Content-Length: -1\r\n\r\n", 400),
				row("invalid chunk size", post + "Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", 400),
				row("chunk longer than its size", post + "Transfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n",
						400),
				row("Transfer-Encoding in HTTP/1.0",
						"POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
				row("unknown transfer coding", post + "Transfer-Encoding: gzip\r\n\r\n", 501),
				row("unknown coding before chunked", post + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
				row("request line too long",
						"GET /" + "a".repeat(MAX_LINE) + " HTTP/1.1\r\nHost: localhost\r\n\r\n", 414),
				row("header section too large",
						"GET /hello HTTP/1.1\r\nHost: localhost\r\n" + "X-Fill: ".concat("b".repeat(90)).concat("\r\n")
							.repeat(MAX_HEADER_SIZE / 100 + 1) + "\r\n", 431),
				row("too many header fields",
						"GET /hello HTTP/1.1\r\nHost: localhost\r\n" + "X-N: v\r\n".repeat(101) + "\r\n", 431),
				row("unknown expectation", post + "Content-Length: 5\r\nExpect: 200-ok\r\n\r\n", 417),
				row("HTTP/2.0", "GET /hello HTTP/2.0\r\nHost: localhost\r\n\r\n", 505),
				row("HTTP/0.9", "GET /hello HTTP/0.9\r\nHost: localhost\r\n\r\n", 505));
	}

	private static Arguments row(String description, String request, int status) {
		return Arguments.of(description, request, status);
	}

	@ParameterizedTest(name = "{0} -> {2}")
	@MethodSource("malformedRequests")
	void refusesMalformedRequestWithItsStatusAndCloses(String description, String request, int status)
			throws IOException {
		RawClient client = connect();
		RawResponse response = client.exchange(request);
		assertRefused(response, statusLine(status));
		client.expectClosed();
	}

	/**
	 * Returns the bare-LF table: bodies that, sent after a {@code chunked} head, every listener
	 * answers 400 and closes on, because a line of chunked framing ends with CRLF only; a proxy
	 * that took the bare LF would find another end of the body. Other modules send them to
	 * endpoints of their own that read the body.
	 * @return rows of description, chunked body (as ISO-8859-1 text), and the start of the reason
	 * a listener that answers itself sends
	 */
	public static Stream<Arguments> bareLfInChunkedFraming() {
		String reason = "Bare LF in chunked framing";
		return Stream.of(
				Arguments.of("bare LF after the chunk size", "5\nhello\r\n0\r\n\r\n", reason),
				Arguments.of("bare LF after a chunk extension", "5;name=value\nhello\r\n0\r\n\r\n", reason),
				Arguments.of("bare LF after chunk data", "5\r\nhello\n0\r\n\r\n", reason),
				Arguments.of("bare LF after a trailer field", "5\r\nhello\r\n0\r\nX-Checksum: abc\n\r\n", reason),
				Arguments.of("bare LF ending the trailer section", "5\r\nhello\r\n0\r\nX-Checksum: abc\r\n\n",
						reason),
				Arguments.of("bare LF ending an empty trailer section", "5\r\nhello\r\n0\r\n\n", reason));
	}

	/**
	 * Returns the chunk-size whitespace table: bodies, as {@link #bareLfInChunkedFraming()}, with
	 * whitespace after a chunk size, where only its extensions or the line end may follow.
	 * Parsers that skip it and parsers that stop at it disagree on the framing.
	 * @return rows of description, chunked body, and the start of the reason
	 */
	public static Stream<Arguments> whitespaceAfterChunkSize() {
		String reason = "Invalid chunk size: whitespace after the chunk size";
		return Stream.of(
				Arguments.of("whitespace after the chunk size", "5 \r\nhello\r\n0\r\n\r\n", reason),
				Arguments.of("whitespace before a chunk extension", "5\t;name=value\r\nhello\r\n0\r\n\r\n",
						reason));
	}

	@ParameterizedTest(name = "{0} -> 400")
	@MethodSource({ "bareLfInChunkedFraming", "whitespaceAfterChunkSize" })
	void refusesChunkedFramingWithABareLfOrWhitespaceAfterTheSizeWith400AndCloses(String description, String body,
			String reason) throws IOException {
		RawClient client = connect();
		RawResponse response = client
			.exchange("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n" + body);
		assertRefused(response, "HTTP/1.1 400 Bad Request");
		assertThat(response.bodyText()).startsWith(reason);
		client.expectClosed();
	}

	@Test
	void refusesDeclaredBodyOverMaxSizeBeforeItIsSent() throws IOException {
		RawClient client = connect();
		client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000000\r\n\r\n");
		assertRefused(client.read(), "HTTP/1.1 413 Content Too Large");
		client.expectClosed();
	}

	@Test
	void refusesDeclaredBodyOverMaxSizeInsteadOfContinue() throws IOException {
		RawClient client = connect();
		client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000000\r\n"
				+ "Expect: 100-continue\r\n\r\n");
		assertRefused(client.read(), "HTTP/1.1 413 Content Too Large");
		client.expectClosed();
	}

	@Test
	void refusesChunkOverMaxSizeBeforeItIsSent() throws IOException {
		RawClient client = connect();
		client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
				+ Integer.toHexString(MAX_BODY + 1) + "\r\n");
		assertRefused(client.read(), "HTTP/1.1 413 Content Too Large");
		client.expectClosed();
	}

	@Test
	void refusesMoreThanOneHundredHeaderFieldsWith431ByDefault() throws IOException {
		AriadneServer defaults = startServer((config) -> config.limits(ParserLimits.DEFAULTS));
		String fields = "X-N: v\r\n".repeat(ParserLimits.DEFAULT_MAX_HEADER_COUNT - 1);
		RawClient client = connect(defaults);
		assertOk(client.exchange("GET /hello HTTP/1.1\r\nHost: localhost\r\n" + fields + "\r\n"),
				ConformanceRoutes.HELLO);
		client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n" + fields + "X-N: one too many\r\n\r\n");
		assertRefused(client.read(), "HTTP/1.1 431 Request Header Fields Too Large");
		client.expectClosed();
	}

	@Test
	void answersRequestsTheServerCannotServeWithDateAndConnectionClose() throws IOException {
		RawClient tunnel = connect();
		tunnel.send("CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\n\r\n");
		RawResponse refused = tunnel.read();
		assertRefused(refused, "HTTP/1.1 501 Not Implemented");
		assertThat(refused.bodyText()).isEqualTo("CONNECT is not supported\n");
		tunnel.expectClosed();
		RawClient malformed = connect();
		malformed.send(get("/echo-id/%zz"));
		RawResponse bad = malformed.read();
		assertRefused(bad, "HTTP/1.1 400 Bad Request");
		assertThat(bad.bodyText()).isEqualTo("Malformed percent-encoding in the request path\n");
		malformed.expectClosed();
	}

	// ---- handler failures

	@Test
	void answers500WhenHandlerFailsBeforeCommit() throws IOException {
		RawClient client = connect();
		RawResponse response = client.exchange(get("/fail-before"));
		assertRefused(response, "HTTP/1.1 500 Internal Server Error");
		assertThat(response.bodyText()).isEqualTo("Internal Server Error\n");
		assertThat(response.header("X-Lost")).isNull();
		client.expectClosed();
	}

	@Test
	void closesWithoutLastChunkWhenHandlerFailsAfterFlushingChunks() throws IOException {
		RawClient client = connect();
		client.send(get("/fail-after?flush=true"));
		RawResponse partial = readIncomplete(client);
		assertThat(partial.statusLine()).isEqualTo("HTTP/1.1 200 OK");
		assertThat(partial.header("Transfer-Encoding")).isEqualTo("chunked");
		assertThat(partial.bodyText()).isEqualTo("partial-data");
		client.expectClosed();
	}

	@Test
	void closesWithoutLastChunkWhenHandlerFailsAfterCommit() throws IOException {
		RawClient client = connect();
		client.send(get("/fail-after"));
		RawResponse partial = readIncomplete(client);
		assertThat(partial.statusLine()).isEqualTo("HTTP/1.1 200 OK");
		client.expectClosed();
	}

	@Test
	void refusesHeaderValueWithLineBreakAndAnswers500() throws IOException {
		// through header() and contentType(), and past them by editing headers() directly, as
		// a whole response or a streamed one
		for (String target : List.of("/bad-header", "/bad-content-type", "/bad-header-list?cr=%0D%0A",
				"/bad-header-list?cr=%0D", "/bad-header-list?cr=%0A", "/bad-header-list?cr=%00",
				"/bad-header-list?cr=%0D%0A&stream=true", "/bad-header-name")) {
			RawClient client = connect();
			RawResponse response = client.exchange(get(target));
			assertRefused(response, "HTTP/1.1 500 Internal Server Error");
			assertThat(response.headerNames()).as(target).doesNotContain("x-injected", "set-cookie");
			assertThat(response.bodyText()).as(target).doesNotContain("must never be sent");
			client.expectClosed();
		}
		assertOk(connect().exchange(get("/hello")), ConformanceRoutes.HELLO);
	}

	// ---- streaming and concurrency

	@Test
	void streamsLargeChunkedResponseCompletely() throws IOException {
		int size = 5 * 1024 * 1024;
		RawClient client = connect();
		RawResponse response = client.exchange(get("/stream?size=" + size));
		assertThat(response.statusLine()).isEqualTo("HTTP/1.1 200 OK");
		assertThat(response.framing()).isEqualTo(Framing.CHUNKED);
		assertThat(response.chunkSizes()).hasSizeGreaterThan(100);
		assertThat(response.body()).hasSize(size);
		assertThat(response.body()).isEqualTo(ConformanceRoutes.pattern(size));
		assertOk(client.exchange(get("/hello")), ConformanceRoutes.HELLO);
	}

	@Test
	void sendsStreamedBodyBeforeHandlerFinishes() throws IOException {
		int size = 2 * 1024 * 1024;
		int before = 1024 * 1024;
		RawClient client = connect();
		client.send(get("/stream-gated?gate=streaming&size=" + size + "&before=" + before));
		// the handler is blocked on the gate after its first megabyte: half of it must arrive
		client.peek(before / 2);
		this.routes.gate("streaming").countDown();
		RawResponse response = client.read();
		assertThat(response.framing()).isEqualTo(Framing.CHUNKED);
		assertThat(response.body()).isEqualTo(ConformanceRoutes.pattern(size));
	}

	@Test
	void servesTwoHundredConcurrentKeepAliveClientsCorrectly() throws Exception {
		int clientCount = 200;
		int requestsEach = 50;
		ExecutorService threads = Executors.newFixedThreadPool(clientCount);
		try {
			CountDownLatch connected = new CountDownLatch(clientCount);
			CountDownLatch go = new CountDownLatch(1);
			List<Future<Integer>> results = new ArrayList<>();
			for (int c = 0; c < clientCount; c++) {
				int id = c;
				results.add(threads.submit(() -> {
					try (RawClient client = RawClient.connect(this.server.port(), Duration.ofSeconds(30), layer())) {
						connected.countDown();
						go.await();
						for (int r = 0; r < requestsEach; r++) {
							String expected = "id=c" + id + "-r" + r + " tag=t" + r;
							RawResponse response = client.exchange(get("/echo-id/c" + id + "-r" + r + "?tag=t" + r));
							if (response.status() != 200 || !response.bodyText().equals(expected)
									|| response.announcesClose()) {
								throw new AssertionError("client " + id + " request " + r + ": expected '" + expected
										+ "' but got " + response);
							}
						}
						return requestsEach;
					}
				}));
			}
			assertThat(connected.await(30, TimeUnit.SECONDS)).as("all clients connected").isTrue();
			go.countDown();
			int served = 0;
			for (Future<Integer> result : results) {
				served += result.get(50, TimeUnit.SECONDS);
			}
			assertThat(served).isEqualTo(clientCount * requestsEach);
		}
		finally {
			threads.shutdownNow();
		}
	}

	// ---- helpers

	/**
	 * Returns the configuration of every server of this suite, before a test's changes.
	 * @return a builder with the suite's settings
	 */
	ServerConfig.Builder config() {
		return ServerConfig.builder()
			.name("conformance")
			.ioModel(ioModel())
			.address(RawClient.LOOPBACK)
			.port(0)
			.maxThreads(250)
			.acceptBacklog(512)
			.keepAliveReleaseThreshold(1.0)
			.limits(LIMITS)
			.shutdownGracePeriod(Duration.ofSeconds(1))
			.tls(tls() ? TlsConfig.of(TestCertificates.get().serverContext(TestCertificates.LOCALHOST)) : null);
	}

	private AriadneServer start(ServerConfig.Builder config) {
		AriadneServer started = AriadneServer.builder(config.build()).routes(this.routes.routes()).build();
		started.start();
		return started;
	}

	/**
	 * Starts a server with the suite's routes and settings changed by the test; it is stopped
	 * after the test.
	 * @param changes changes to the suite's configuration
	 * @return the started server
	 */
	AriadneServer startServer(Consumer<ServerConfig.Builder> changes) {
		ServerConfig.Builder config = config();
		changes.accept(config);
		AriadneServer started = start(config);
		this.extraServers.add(started);
		return started;
	}

	RawClient connect() throws IOException {
		return connect(this.server);
	}

	RawClient connect(AriadneServer target) throws IOException {
		RawClient client = RawClient.connect(target.port(), RawClient.READ_TIMEOUT, layer());
		this.clients.add(client);
		return client;
	}

	static String get(String target) {
		return "GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
	}

	/**
	 * Returns the status line the server sends for a status it answers itself.
	 * @param status one of the statuses of {@link #malformedRequests()}
	 * @return the status line
	 */
	public static String statusLine(int status) {
		return switch (status) {
			case 400 -> "HTTP/1.1 400 Bad Request";
			case 413 -> "HTTP/1.1 413 Content Too Large";
			case 414 -> "HTTP/1.1 414 URI Too Long";
			case 417 -> "HTTP/1.1 417 Expectation Failed";
			case 431 -> "HTTP/1.1 431 Request Header Fields Too Large";
			case 501 -> "HTTP/1.1 501 Not Implemented";
			case 505 -> "HTTP/1.1 505 HTTP Version Not Supported";
			default -> throw new IllegalArgumentException("No status line for " + status);
		};
	}

	static void assertOk(RawResponse response, String body) {
		assertThat(response.statusLine()).as("status line of %s", response).isEqualTo("HTTP/1.1 200 OK");
		assertThat(response.bodyText()).as("body of %s", response).isEqualTo(body);
		assertThat(response.framing()).as("framing of %s", response).isEqualTo(Framing.LENGTH);
		assertThat(response.header("Date")).as("Date of %s", response).matches(DATE);
	}

	/** An error response: its status line, a Date, a plain-text body framed by length, and a close. */
	public static void assertRefused(RawResponse response, String statusLine) {
		assertThat(response.statusLine()).as("status line of %s", response).isEqualTo(statusLine);
		assertThat(response.header("Date")).as("Date of %s", response).matches(DATE);
		assertThat(response.header("Connection")).as("Connection of %s", response).isEqualTo("close");
		assertThat(response.framing()).as("framing of %s", response).isEqualTo(Framing.LENGTH);
		assertThat(response.header("Content-Type")).as("Content-Type of %s", response).startsWith("text/plain");
		assertThat(response.body()).as("body of %s", response).isNotEmpty();
	}

	/** Reads a response the server ends by closing the connection before its framing is complete. */
	private static RawResponse readIncomplete(RawClient client) throws IOException {
		try {
			RawResponse response = client.read();
			throw new AssertionError("Expected the connection to close inside the response, but read " + response);
		}
		catch (IncompleteResponseException ex) {
			assertThat(ex.partial()).as("what arrived before the close").isNotNull();
			return ex.partial();
		}
	}

}
