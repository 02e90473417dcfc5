package dev.ariadne;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * h2c in every model. By prior knowledge, against Jetty's HTTP/2 client (written apart from
 * Ariadne's codec): a request on a stream reaches the same {@code Route} an HTTP/1.1 request
 * does, request and response content larger than every flow-control window goes through in both
 * directions, streams of one connection are served concurrently, and HTTP/1.1 is still served on
 * the same port. By {@code Upgrade: h2c}, against the JDK's client, which asks for it on a plain
 * {@code http} URI: the upgraded request is answered on stream 1 and the next ones on the same
 * connection. Without {@code http2Enabled} neither is taken for HTTP/2.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2CleartextIT {

	private AriadneServer server;

	private HttpClient client;

	private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();

	private final Route hello = Route.get("/hello",
			(request, response) -> response.send("hello over " + request.version() + " " + request.path()));

	private final Route digest = Route.post("/digest", (request, response) -> {
		byte[] body = request.bodyBytes(16 << 20);
		response.send(body.length + " " + sha256(body));
	});

	private final Route large = Route.get("/large/{size}", (request, response) -> {
		int size = Integer.parseInt(request.pathVariable("size"));
		byte[] chunk = new byte[8192];
		new Random(size).nextBytes(chunk);
		try (var out = response.outputStream()) {
			for (int sent = 0; sent < size; sent += chunk.length) {
				out.write(chunk, 0, Math.min(chunk.length, size - sent));
			}
		}
	});

	private final Route slow = Route.get("/slow", (request, response) -> {
		try {
			Thread.sleep(200);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.clientPorts.add(request.remoteAddress().getPort());
		response.send("slow " + Thread.currentThread().getName());
	});

	private final Route requestTrailers = Route.post("/request-trailers", (request, response) -> {
		byte[] body = request.bodyBytes(1 << 20);
		response.send(body.length + " " + request.trailers().get("x-request"));
	});

	private final Route trailers = Route.get("/trailers", (request, response) -> {
		response.trailers(() -> new dev.ariadne.http.Headers().add("grpc-status", "0")
			.add("Content-Length", "99")
			.add("X-Checksum", request.queryParam("sum")));
		if (request.queryParam("send") != null) {
			response.send("with trailers");
			return;
		}
		try (var out = response.outputStream()) {
			out.write("with trailers".getBytes(java.nio.charset.StandardCharsets.UTF_8));
		}
	});

	@AfterEach
	void stop() throws Exception {
		if (this.client != null) {
			this.client.stop();
		}
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aRequestOnAStreamReachesItsRouteAndHttp11IsStillServedOnThePort(IoModel model) throws Exception {
		start(model, true);
		ContentResponse response = this.client.GET(uri("/hello"));
		assertThat(response.getVersion()).isEqualTo(HttpVersion.HTTP_2);
		assertThat(response.getStatus()).isEqualTo(200);
		assertThat(response.getContentAsString()).isEqualTo("hello over HTTP/2.0 /hello");
		assertThat(response.getHeaders().get("content-length")).isEqualTo("26");
		assertThat(response.getHeaders().get("date")).isNotBlank();
		ContentResponse missing = this.client.GET(uri("/missing"));
		assertThat(missing.getStatus()).isEqualTo(404);
		try (RawClient http11 = RawClient.connect(port())) {
			RawResponse plain = http11.exchange("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n");
			assertThat(plain.status()).isEqualTo(200);
			assertThat(plain.bodyText()).isEqualTo("hello over HTTP/1.1 /hello");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void contentLargerThanEveryWindowGoesThroughBothWays(IoModel model) throws Exception {
		start(model, true);
		byte[] body = new byte[3 << 20];
		new Random(7).nextBytes(body);
		ContentResponse posted = this.client.POST(uri("/digest")).body(new BytesRequestContent(body)).send();
		assertThat(posted.getStatus()).isEqualTo(200);
		assertThat(posted.getContentAsString()).isEqualTo(body.length + " " + sha256(body));
		int size = 5 << 20;
		ContentResponse downloaded = new CompletableResponseListener(this.client.newRequest(uri("/large/" + size)),
				8 << 20)
			.send()
			.get(30, TimeUnit.SECONDS);
		assertThat(downloaded.getStatus()).isEqualTo(200);
		byte[] content = downloaded.getContent();
		assertThat(content).hasSize(size);
		byte[] chunk = new byte[8192];
		new Random(size).nextBytes(chunk);
		for (int i = 0; i < size; i += 1 << 20) {
			assertThat(content[i]).isEqualTo(chunk[i % chunk.length]);
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aResponseEndsWithTheHandlersTrailersInAHeadersFrame(IoModel model) throws Exception {
		start(model, true);
		for (String target : List.of("/trailers?sum=1", "/trailers?sum=2&send")) {
			ContentResponse response = this.client.GET(uri(target));
			assertThat(response.getStatus()).isEqualTo(200);
			assertThat(response.getContentAsString()).isEqualTo("with trailers");
			assertThat(response.getHeaders().get("content-length")).isNull();
			assertThat(response.getTrailers()).isNotNull();
			assertThat(response.getTrailers().get("grpc-status")).isEqualTo("0");
			assertThat(response.getTrailers().get("x-checksum")).isEqualTo(target.substring(14, 15));
			// framing fields never go in trailers (RFC 9110 §6.5.1)
			assertThat(response.getTrailers().get("content-length")).isNull();
		}
		// the request's own trailers reach the handler once it has read the content; the content
		// fits one frame, because Jetty 12.1's client sends the trailers right after the first
		// DATA frame of a larger one, which RFC 9113 §8.1 makes a malformed request (reset)
		ContentResponse echoed = this.client.POST(uri("/request-trailers"))
			.body(new BytesRequestContent(new byte[10_000]))
			.trailersSupplier(() -> org.eclipse.jetty.http.HttpFields.build().put("x-request", "sent last"))
			.send();
		assertThat(echoed.getStatus()).isEqualTo(200);
		assertThat(echoed.getContentAsString()).isEqualTo("10000 sent last");
		// content of several frames, then its trailers, in the order RFC 9113 §8.1 gives them: served
		try (Http2RawClient raw = Http2RawClient.connect(port())) {
			raw.post(1, "/request-trailers").data(1, 16384, false).data(1, 16384, false).data(1, 16384, false)
				.trailers(1, "x-request", "after three frames")
				.flush();
			assertThat(raw.statuses(1, java.time.Duration.ofSeconds(10))).containsEntry(1, 200);
		}
		// a HEAD response has no content and so no trailers: the stream ends with its HEADERS
		ContentResponse head = this.client.newRequest(uri("/trailers?sum=3")).method("HEAD").send();
		assertThat(head.getStatus()).isEqualTo(200);
		assertThat(head.getTrailers() == null || head.getTrailers().size() == 0).isTrue();
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void streamsOfOneConnectionAreServedConcurrently(IoModel model) throws Exception {
		start(model, true);
		// warm the connection, so that every request below is a stream of the same one
		assertThat(this.client.GET(uri("/hello")).getStatus()).isEqualTo(200);
		int streams = 20;
		ExecutorService callers = Executors.newFixedThreadPool(streams);
		try {
			long start = System.nanoTime();
			List<Future<ContentResponse>> calls = new ArrayList<>();
			for (int i = 0; i < streams; i++) {
				calls.add(callers.submit(() -> this.client.GET(uri("/slow"))));
			}
			for (Future<ContentResponse> call : calls) {
				ContentResponse response = call.get(30, TimeUnit.SECONDS);
				assertThat(response.getStatus()).isEqualTo(200);
				assertThat(response.getVersion()).isEqualTo(HttpVersion.HTTP_2);
			}
			long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			// one after the other, 20 handlers of 200 ms take 4 s; the default pools run them together
			assertThat(millis).isLessThan(2000);
		}
		finally {
			callers.shutdownNow();
		}
		assertThat(this.clientPorts).hasSize(1);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void theJdksClientUpgradesToH2cAndGoesOnOverStreams(IoModel model) throws Exception {
		start(model, true);
		java.net.http.HttpClient jdk = jdkClient();
		// a request with content is not upgraded: it is served over HTTP/1.1
		HttpResponse<String> posted = jdk.send(HttpRequest.newBuilder(uri("/digest"))
			.POST(HttpRequest.BodyPublishers.ofString("abc"))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(posted.statusCode()).isEqualTo(200);
		assertThat(posted.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_1_1);
		for (int i = 0; i < 3; i++) {
			HttpResponse<String> hello = jdk.send(HttpRequest.newBuilder(uri("/hello")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(hello.statusCode()).isEqualTo(200);
			assertThat(hello.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_2);
			// the upgraded request is stream 1, answered over HTTP/2: it says so, as on Tomcat and Jetty
			assertThat(hello.body()).isEqualTo("hello over HTTP/2.0 /hello");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void withoutHttp2NeitherThePrefaceNorAnUpgradeIsTakenForHttp2(IoModel model) throws Exception {
		start(model, false);
		assertThatThrownBy(() -> this.client.GET(uri("/hello"))).isNotNull();
		java.net.http.HttpClient jdk = jdkClient();
		HttpResponse<String> hello = jdk.send(HttpRequest.newBuilder(uri("/hello")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(hello.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_1_1);
		assertThat(hello.body()).isEqualTo("hello over HTTP/1.1 /hello");
		try (RawClient raw = RawClient.connect(port())) {
			RawResponse refused = raw.exchange("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
			assertThat(refused.status()).isBetween(400, 505);
		}
	}

	private void start(IoModel model, boolean http2) throws Exception {
		this.server = Servers.start(model, (config) -> config.http2Enabled(http2).maxThreads(32), this.hello,
				this.digest, this.large, this.slow, this.trailers,
				this.requestTrailers);
		HTTP2Client h2 = new HTTP2Client();
		// the smallest windows a client may keep, so that the server waits for credit both ways
		h2.setInitialSessionRecvWindow(65535);
		h2.setInitialStreamRecvWindow(65535);
		this.client = new HttpClient(new HttpClientTransportOverHTTP2(h2));
		this.client.setIdleTimeout(30_000);
		this.client.start();
	}

	/** The JDK's client, which asks to upgrade to h2c on an http URI; closed with the JVM (Java 17 has no close). */
	private static java.net.http.HttpClient jdkClient() {
		return java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_2).build();
	}

	private int port() {
		return this.server.localAddress().getPort();
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + port() + path);
	}

	private static String sha256(byte[] bytes) {
		try {
			return java.util.HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
