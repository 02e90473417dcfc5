package dev.ariadne.it.mvc;

import java.net.URI;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring MVC application with Boot's {@code server.http2.enabled=true}, in every model,
 * against Jetty's HTTP/2 client with prior knowledge (h2c): controllers, request and response
 * content larger than the flow-control windows, error pages and an async result answer over
 * streams, trailers go both ways through the servlet API (over chunks too), the servlet API reports {@code HTTP/2.0} and its connection {@code h2c} with the stream
 * id, and HTTP/1.1 is still served on the port.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class Http2IT {

	private final IoModel model;

	private ConformanceApp app;

	private HttpClient client;

	Http2IT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void start() throws Exception {
		this.app = ConformanceApp.start(this.model, "server.http2.enabled=true");
		HTTP2Client http2 = new HTTP2Client();
		http2.setInitialSessionRecvWindow(65535);
		http2.setInitialStreamRecvWindow(65535);
		this.client = new HttpClient(new HttpClientTransportOverHTTP2(http2));
		this.client.start();
	}

	@AfterEach
	void stop() throws Exception {
		if (this.client != null) {
			this.client.stop();
		}
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void aControllerAnswersOverAStreamAndTheServletApiSaysHttp2() throws Exception {
		ContentResponse response = get("/api/protocol");
		assertThat(response.getVersion()).isEqualTo(HttpVersion.HTTP_2);
		assertThat(response.getStatus()).isEqualTo(200);
		assertThat(response.getContentAsString()).isEqualTo("HTTP/2.0 http secure=false connection=h2c/1");
		try (RawClient http11 = RawClient.connect(this.app.port())) {
			RawResponse plain = http11
				.exchange("GET " + this.app.uri("/api/protocol").getRawPath() + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
			assertThat(plain.status()).isEqualTo(200);
			assertThat(plain.bodyText()).isEqualTo("HTTP/1.1 http secure=false connection=http/1.1/");
		}
	}

	@Test
	void aRequestThatUpgradesToH2cIsStreamOneAndSaysHttp2() throws Exception {
		// the JDK's client asks to upgrade on an http URI: its first request is answered over HTTP/2
		java.net.http.HttpClient jdk = java.net.http.HttpClient.newBuilder()
			.version(java.net.http.HttpClient.Version.HTTP_2)
			.build();
		java.net.http.HttpResponse<String> upgraded = jdk.send(
				java.net.http.HttpRequest.newBuilder(uri("/api/protocol")).build(),
				java.net.http.HttpResponse.BodyHandlers.ofString());
		assertThat(upgraded.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_2);
		assertThat(upgraded.body()).isEqualTo("HTTP/2.0 http secure=false connection=h2c/1");
	}

	@Test
	void contentLargerThanTheWindowsGoesThroughBothWays() throws Exception {
		byte[] body = new byte[1 << 20];
		new Random(11).nextBytes(body);
		ContentResponse echoed = this.client.POST(uri("/api/echo"))
			.body(new BytesRequestContent("application/octet-stream", body))
			.timeout(30, TimeUnit.SECONDS)
			.send();
		assertThat(echoed.getStatus()).isEqualTo(200);
		assertThat(echoed.getContent()).isEqualTo(body);
	}

	@Test
	void trailersGoBothWaysThroughTheServletApi() throws Exception {
		ContentResponse response = this.client.POST(uri("/api/trailers"))
			// within one frame: Jetty's client sends the trailers after the first DATA frame
			.body(new BytesRequestContent("application/octet-stream", new byte[10_000]))
			.trailersSupplier(() -> HttpFields.build().put("x-request", "sent by the client"))
			.timeout(30, TimeUnit.SECONDS)
			.send();
		assertThat(response.getStatus()).isEqualTo(200);
		assertThat(response.getContentAsString()).isEqualTo("ready=true supplier=true");
		assertThat(response.getTrailers().get("x-echo")).isEqualTo("sent by the client");
		assertThat(response.getTrailers().get("x-length")).isEqualTo("10000");
		try (RawClient http11 = RawClient.connect(this.app.port())) {
			RawResponse chunked = http11.exchange("POST " + this.app.uri("/api/trailers").getRawPath()
					+ " HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
					+ "3\r\nabc\r\n0\r\nX-Request: over chunks\r\n\r\n");
			assertThat(chunked.status()).isEqualTo(200);
			assertThat(chunked.bodyText()).isEqualTo("ready=true supplier=true");
			assertThat(chunked.trailer("x-echo")).isEqualTo("over chunks");
			assertThat(chunked.trailer("x-length")).isEqualTo("3");
		}
	}

	@Test
	void errorPagesAndAsyncResultsAnswerOverStreams() throws Exception {
		ContentResponse failed = get("/api/fail");
		assertThat(failed.getStatus()).isEqualTo(500);
		assertThat(JsonPath.<Integer>read(failed.getContentAsString(), "$.status")).isEqualTo(500);
		ContentResponse missing = get("/api/missing");
		assertThat(missing.getStatus()).isEqualTo(404);
		ContentResponse deferred = get("/async/deferred?value=h2");
		assertThat(deferred.getStatus()).isEqualTo(200);
		assertThat(JsonPath.<String>read(deferred.getContentAsString(), "$.value")).isEqualTo("h2");
		ContentResponse callable = get("/async/callable");
		assertThat(callable.getStatus()).isEqualTo(200);
		assertThat(callable.getContentAsString()).startsWith("callable on ");
	}

	private ContentResponse get(String path) throws Exception {
		return this.client.newRequest(uri(path)).timeout(30, TimeUnit.SECONDS).send();
	}

	private URI uri(String path) {
		return this.app.uri(path);
	}

}
