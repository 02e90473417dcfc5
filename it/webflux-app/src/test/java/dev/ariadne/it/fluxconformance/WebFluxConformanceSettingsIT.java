package dev.ariadne.it.fluxconformance;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

import dev.ariadne.server.IoModel;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's server settings that a WebFlux application sets, on Ariadne in one I/O model:
 * {@code server.compression.*}, {@code spring.webflux.base-path} and
 * {@code server.forward-headers-strategy=native}, each beside Reactor Netty.
 */
class WebFluxConformanceSettingsIT {

	// on Ariadne through its own adapter and through Spring's servlet adapter, whose non-blocking
	// writes the servlet container compresses
	@ParameterizedTest
	@ValueSource(strings = { "native", "servlet", "reactor-netty" })
	void compressesLargeAnswersForClientsThatAcceptGzip(String server) throws Exception {
		String[] properties = { "server.compression.enabled=true", "server.compression.min-response-size=1KB",
				"ariadne.server.webflux.adapter=" + (server.equals("servlet") ? "servlet" : "native") };
		try (FluxApp app = server.equals("reactor-netty") ? FluxApp.onReactorNetty(properties)
				: FluxApp.onAriadne(IoModel.EVENT_LOOP, properties)) {
			HttpResponse<byte[]> gzipped = FluxApp.client()
				.send(app.request("/stream/text?lines=2000").header("Accept-Encoding", "gzip").build(),
						HttpResponse.BodyHandlers.ofByteArray());
			assertThat(gzipped.statusCode()).isEqualTo(200);
			assertThat(gzipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
			String expected = StreamController.expectedText(2000);
			assertThat(gzipped.body().length).isLessThan(expected.length() / 4);
			try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped.body()))) {
				assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(expected);
			}
			HttpResponse<Void> head = FluxApp.client()
				.send(app.request("/stream/text?lines=2000").method("HEAD", HttpRequest.BodyPublishers.noBody())
					.header("Accept-Encoding", "gzip")
					.build(), HttpResponse.BodyHandlers.discarding());
			assertThat(head.statusCode()).isEqualTo(200);
			if ("gzip".equals(head.headers().firstValue("Content-Encoding").orElse(null))) {
				assertThat(head.headers().firstValue("Content-Length")).as("a HEAD's length with gzip, as GET's")
					.isNotEqualTo(Optional.of("0"));
			}
			HttpResponse<String> plain = app.get("/stream/text?lines=2000");
			assertThat(plain.statusCode()).isEqualTo(200);
			assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
			assertThat(plain.body()).isEqualTo(expected);
			HttpResponse<byte[]> small = FluxApp.client()
				.send(app.request("/framing/mono").header("Accept-Encoding", "gzip").build(),
						HttpResponse.BodyHandlers.ofByteArray());
			assertThat(small.headers().firstValue("Content-Encoding")).as("under min-response-size").isEmpty();
			assertThat(new String(small.body(), StandardCharsets.UTF_8)).isEqualTo("one answer of known length");
			HttpResponse<byte[]> shortFlux = FluxApp.client()
				.send(app.request("/stream/text?lines=2").header("Accept-Encoding", "gzip").build(),
						HttpResponse.BodyHandlers.ofByteArray());
			assertThat(shortFlux.headers().firstValue("Content-Encoding")).as("short, but of unknown length")
				.hasValue("gzip");
			try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(shortFlux.body()))) {
				assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
					.isEqualTo(StreamController.expectedText(2));
			}
		}
	}

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void servesEveryRouteUnderTheBasePathAndNothingOutside(boolean ariadne) throws Exception {
		try (FluxApp app = start(ariadne, IoModel.BLOCKING, "spring.webflux.base-path=/base")) {
			HttpResponse<String> annotated = app.get("/base/users/7");
			assertThat(annotated.statusCode()).isEqualTo(200);
			assertThat(annotated.body()).isEqualTo("{\"id\":\"7\"}");
			HttpResponse<String> functional = app.get("/base/fn/items/8");
			assertThat(functional.statusCode()).isEqualTo(200);
			assertThat(functional.body()).contains("\"item\":\"8\"");
			HttpResponse<String> facts = app.get("/base/facts/x%20y?q=1", "Accept", "application/json");
			assertThat(facts.statusCode()).isEqualTo(200);
			assertThat(facts.body()).contains("\"path\":\"/base/facts/x%20y\"");
			HttpResponse<String> outside = app.get("/users/7");
			assertThat(outside.statusCode()).as(outside.body()).isEqualTo(404);
			assertThat(app.get("/fn/items/8").statusCode()).isEqualTo(404);
			// (a path that merely starts with the base path's text, /basement, gets a 500 from
			// WebFlux itself, on Reactor Netty too: not asserted)
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "native", "servlet", "reactor-netty" })
	void withTheNativeStrategyTheRequestIsTheClientsBehindAProxy(String server) throws Exception {
		String[] properties = { "server.forward-headers-strategy=native",
				"ariadne.server.webflux.adapter=" + (server.equals("servlet") ? "servlet" : "native") };
		try (FluxApp app = server.equals("reactor-netty") ? FluxApp.onReactorNetty(properties)
				: FluxApp.onAriadne(IoModel.EVENT_LOOP, properties)) {
			HttpResponse<String> facts = app.get("/facts/behind", "Accept", "application/json", "X-Forwarded-For",
					"203.0.113.7", "X-Forwarded-Proto", "https", "X-Forwarded-Host", "shop.example");
			assertThat(facts.statusCode()).isEqualTo(200);
			assertThat(facts.body()).contains("\"uri\":\"https://shop.example/facts/behind\"")
				.contains("\"scheme\":\"https\"")
				.contains("\"remoteAddress\":\"203.0.113.7\"");
			// the proxy serves the application under a prefix: the request's context path
			HttpResponse<String> prefixed = app.get("/facts/behind", "Accept", "application/json", "X-Forwarded-Proto",
					"https", "X-Forwarded-Host", "shop.example", "X-Forwarded-Prefix", "/shop/");
			assertThat(prefixed.statusCode()).as(prefixed.body()).isEqualTo(200);
			assertThat(prefixed.body()).contains("\"uri\":\"https://shop.example/shop/facts/behind\"")
				.contains("\"contextPath\":\"/shop\"")
				.contains("\"path\":\"/shop/facts/behind\"");
			HttpResponse<String> direct = app.get("/facts/direct", "Accept", "application/json");
			assertThat(direct.body()).contains("\"scheme\":\"http\"")
				.contains("\"remoteAddress\":\"127.0.0.1\"")
				.contains("\"contextPath\":\"\"");
		}
	}

	private static FluxApp start(boolean ariadne, IoModel model, String... properties) {
		return ariadne ? FluxApp.onAriadne(model, properties) : FluxApp.onReactorNetty(properties);
	}

}
