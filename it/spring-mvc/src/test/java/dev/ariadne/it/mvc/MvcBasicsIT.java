package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.CookieManager;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;
import jakarta.servlet.ServletContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.web.server.MimeMappings;
import org.springframework.web.context.WebApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every Spring MVC application does, on Ariadne in every I/O model: JSON in and out,
 * validation, path variables and parameters in percent-encoded UTF-8, forms, uploads and their
 * limit, response entities, redirects and forwards, cookies, the session, and the context path.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class MvcBasicsIT {

	private final IoModel model;

	private ConformanceApp app;

	MvcBasicsIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void app() {
		this.app = ConformanceApp.shared(this.model);
	}

	@Test
	void answersGetMimeTypeWithBootsMappingsAndNoOthers() {
		ServletContext context = ((WebApplicationContext) this.app.context()).getServletContext();
		for (MimeMappings.Mapping mapping : MimeMappings.DEFAULT) {
			assertThat(context.getMimeType("file." + mapping.getExtension())).as(mapping.getExtension())
				.isEqualTo(mapping.getMimeType());
		}
		assertThat(context.getMimeType("app.js.map")).as("a source map: not among Boot's mappings").isNull();
	}

	@Test
	void readsAndWritesJson() throws Exception {
		HttpResponse<String> response = send(this.app.request("/api/orders")
			.header("Content-Type", "application/json")
			.header("Accept", "application/json")
			.POST(BodyPublishers.ofString("{\"item\":\"th\u00e9 vert\",\"quantity\":2,\"notes\":[\"\u20ac\",\"\ud83c\udf75\"]}",
					StandardCharsets.UTF_8)));
		assertThat(response.statusCode()).isEqualTo(201);
		assertThat(response.headers().firstValue("Location")).hasValue("/api/orders/th%C3%A9%20vert");
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(JsonPath.<String>read(response.body(), "$.item")).isEqualTo("th\u00e9 vert");
		assertThat(JsonPath.<Integer>read(response.body(), "$.quantity")).isEqualTo(2);
		assertThat(JsonPath.<List<String>>read(response.body(), "$.notes")).containsExactly("\u20ac", "\ud83c\udf75");
		assertThat(JsonPath.<String>read(response.body(), "$.contentType")).isEqualTo("application/json");
	}

	@Test
	void refusesInvalidOrMalformedJsonWith400() throws Exception {
		HttpResponse<String> invalid = send(this.app.request("/api/orders")
			.header("Content-Type", "application/json")
			.header("Accept", "application/json")
			.POST(BodyPublishers.ofString("{\"item\":\"\",\"quantity\":0}")));
		assertThat(invalid.statusCode()).isEqualTo(400);
		assertThat(JsonPath.<Integer>read(invalid.body(), "$.status")).isEqualTo(400);
		assertThat(JsonPath.<String>read(invalid.body(), "$.path")).isEqualTo("/app/api/orders");
		HttpResponse<String> malformed = send(this.app.request("/api/orders")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"item\":")));
		assertThat(malformed.statusCode()).isEqualTo(400);
		HttpResponse<String> unsupported = send(this.app.request("/api/orders")
			.header("Content-Type", "text/csv")
			.POST(BodyPublishers.ofString("tea,2")));
		assertThat(unsupported.statusCode()).isEqualTo(415);
	}

	@Test
	void decodesPercentEncodedUtf8InPathVariablesAndParameters() throws Exception {
		HttpResponse<String> response = this.app.get("/api/items/caf%C3%A9/%E2%82%AC%20100%2B%21"
				+ "?q=%C3%BCber+alles%26co&tag=a&tag=%F0%9F%98%80&tag=", "Accept", "application/json");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(JsonPath.<String>read(response.body(), "$.name")).isEqualTo("caf\u00e9");
		assertThat(JsonPath.<String>read(response.body(), "$.variant")).isEqualTo("\u20ac 100+!");
		assertThat(JsonPath.<String>read(response.body(), "$.q")).isEqualTo("\u00fcber alles&co");
		assertThat(JsonPath.<List<String>>read(response.body(), "$.tag")).containsExactly("a", "\ud83d\ude00", "");
	}

	@Test
	void readsFormPostsInUtf8WithOrWithoutACharset() throws Exception {
		for (String contentType : List.of("application/x-www-form-urlencoded;charset=UTF-8",
				"application/x-www-form-urlencoded")) {
			HttpResponse<String> response = send(this.app.request("/api/form?color=blue")
				.header("Content-Type", contentType)
				.header("Accept", "application/json")
				.POST(BodyPublishers.ofString("name=Ada+Lovelace&color=red&color=gr%C3%BCn&empty=")));
			assertThat(response.statusCode()).as(contentType).isEqualTo(200);
			assertThat(JsonPath.<String>read(response.body(), "$.name")).isEqualTo("Ada Lovelace");
			assertThat(JsonPath.<List<String>>read(response.body(), "$.color")).as(contentType)
				.containsExactly("blue", "red", "gr\u00fcn");
			assertThat(JsonPath.<String>read(response.body(), "$.empty")).isEmpty();
		}
	}

	@Test
	void receivesMultipartUploads() throws Exception {
		byte[] content = new byte[300_000];
		long sum = 0;
		for (int i = 0; i < content.length; i++) {
			content[i] = (byte) (i * 31);
			sum += content[i] & 0xFF;
		}
		byte[] body = new Multipart().field("title", "R\u00e9sum\u00e9 \u2013 2025")
			.file("file", "data.bin", "application/octet-stream", content)
			.end();
		HttpResponse<String> response = send(this.app.request("/api/upload")
			.header("Content-Type", Multipart.contentType())
			.header("Accept", "application/json")
			.POST(BodyPublishers.ofByteArray(body)));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(JsonPath.<String>read(response.body(), "$.title")).isEqualTo("R\u00e9sum\u00e9 \u2013 2025");
		assertThat(JsonPath.<String>read(response.body(), "$.filename")).isEqualTo("data.bin");
		assertThat(JsonPath.<String>read(response.body(), "$.contentType")).isEqualTo("application/octet-stream");
		assertThat(JsonPath.<Integer>read(response.body(), "$.size")).isEqualTo(content.length);
		assertThat(JsonPath.<Number>read(response.body(), "$.sum").longValue()).isEqualTo(sum);
	}

	@Test
	void refusesUploadsOverTheMultipartLimitsWith413() throws Exception {
		byte[] fileTooLarge = new Multipart().field("title", "big")
			.file("file", "big.bin", "application/octet-stream", new byte[1536 * 1024])
			.end();
		byte[] requestTooLarge = new Multipart().field("title", "bigger")
			.file("file", "one.bin", "application/octet-stream", new byte[900 * 1024])
			.file("other", "two.bin", "application/octet-stream", new byte[900 * 1024])
			.file("third", "three.bin", "application/octet-stream", new byte[900 * 1024])
			.end();
		for (byte[] body : List.of(fileTooLarge, requestTooLarge)) {
			HttpResponse<String> response = send(this.app.request("/api/upload")
				.header("Content-Type", Multipart.contentType())
				.header("Accept", "application/json")
				.POST(BodyPublishers.ofByteArray(body)));
			// the error page cannot render either: Spring parses the parts again for it and
			// fails again, so the container answers itself (Tomcat sends no body at all)
			assertThat(response.statusCode()).as(response.body()).isEqualTo(413);
			assertThat(response.body()).doesNotContain("filename");
		}
	}

	@Test
	void sendsTheStatusAndHeadersOfAResponseEntity() throws Exception {
		HttpResponse<String> response = this.app.get("/api/entity");
		assertThat(response.statusCode()).isEqualTo(202);
		assertThat(response.headers().allValues("X-Trace")).containsExactly("one", "two");
		assertThat(response.headers().firstValue("Cache-Control")).hasValue("max-age=300, public");
		assertThat(response.headers().firstValue("ETag")).hasValue("\"v7\"");
		assertThat(response.body()).isEqualTo("{\"state\":\"accepted\"}");
		HttpResponse<String> versioned = this.app.get("/api/versioned");
		assertThat(versioned.statusCode()).isEqualTo(200);
		assertThat(versioned.body()).isEqualTo("version 7");
		HttpResponse<String> notModified = this.app.get("/api/versioned", "If-None-Match", "\"v7\"");
		assertThat(notModified.statusCode()).isEqualTo(304);
		assertThat(notModified.body()).isEmpty();
		assertThat(notModified.headers().firstValue("ETag")).hasValue("\"v7\"");
		HttpResponse<String> noContent = this.app.get("/api/no-content");
		assertThat(noContent.statusCode()).isEqualTo(204);
		assertThat(noContent.headers().firstValue("X-Empty")).hasValue("yes");
		assertThat(noContent.headers().firstValue("Content-Length")).isEmpty();
	}

	@Test
	void answersHeadWithTheHeadersOfGetAndNoBody() throws IOException {
		try (RawClient client = this.app.raw()) {
			RawResponse get = client.exchange(ConformanceApp.get("/app/api/entity", ""));
			RawResponse head = client.send("HEAD /app/api/entity HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
				.readHeadResponse();
			assertThat(head.status()).isEqualTo(202);
			assertThat(head.body()).isEmpty();
			assertThat(head.headers("X-Trace")).isEqualTo(get.headers("X-Trace"));
			assertThat(head.header("Content-Type")).isEqualTo(get.header("Content-Type"));
			// the connection is still in step: the next response is read as one
			assertThat(client.exchange(ConformanceApp.get("/app/api/no-content", "")).status()).isEqualTo(204);
		}
	}

	@Test
	void redirectsToAbsoluteLocationsAndForwards() throws Exception {
		HttpResponse<String> redirect = this.app.get("/pages/redirect");
		assertThat(redirect.statusCode()).isEqualTo(302);
		String base = "http://127.0.0.1:" + this.app.port();
		assertThat(redirect.headers().firstValue("Location")).hasValue(base + "/app/pages/target?from=redirect");
		HttpResponse<String> seeOther = this.app.get("/pages/see-other");
		assertThat(seeOther.statusCode()).isEqualTo(303);
		assertThat(seeOther.headers().firstValue("Location")).hasValue("target?from=see-other");
		HttpResponse<String> relative = this.app.get("/pages/relative");
		assertThat(relative.statusCode()).isEqualTo(302);
		assertThat(relative.headers().firstValue("Location")).hasValue(base + "/app/pages/target?from=relative");
		HttpResponse<String> forward = this.app.get("/pages/forward");
		assertThat(forward.statusCode()).isEqualTo(200);
		assertThat(forward.body()).isEqualTo("target from=forward uri=/app/pages/target");
	}

	@Test
	void setsAndReadsCookies() throws Exception {
		HttpResponse<String> set = this.app.get("/api/cookies/set");
		assertThat(set.statusCode()).isEqualTo(200);
		List<String> cookies = set.headers().allValues("Set-Cookie");
		assertThat(cookies).hasSize(2);
		assertThat(cookies).anySatisfy((cookie) -> assertThat(cookie).startsWith("flavour=oatmeal")
			.contains("Path=/")
			.contains("Max-Age=3600")
			.contains("Expires=")
			.contains("HttpOnly"));
		assertThat(cookies).anySatisfy((cookie) -> assertThat(cookie).startsWith("theme=dark")
			.contains("Path=/")
			.contains("SameSite=Strict"));
		HttpResponse<String> read = this.app.get("/api/cookies/read", "Cookie", "flavour=oatmeal; theme=dark",
				"Accept", "application/json");
		assertThat(read.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<String>read(read.body(), "$.flavour")).isEqualTo("oatmeal");
		assertThat(JsonPath.<String>read(read.body(), "$.theme")).isEqualTo("dark");
		assertThat(this.app.get("/api/cookies/read", "Cookie", "theme=dark").statusCode()).isEqualTo(400);
	}

	@Test
	void keepsSessionAttributesAcrossRequests() throws Exception {
		CookieManager cookies = new CookieManager();
		HttpClient browser = ConformanceApp.client(cookies);
		HttpResponse<String> first = browser.send(this.app.request("/api/cart?item=tea")
			.POST(BodyPublishers.noBody())
			.build(), BodyHandlers.ofString());
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("Set-Cookie")).hasValueSatisfying((cookie) -> assertThat(cookie)
			.startsWith("JSESSIONID=")
			.contains("Path=/app")
			.contains("HttpOnly"));
		browser.send(this.app.request("/api/cart?item=scone").POST(BodyPublishers.noBody()).build(),
				BodyHandlers.ofString());
		HttpResponse<String> cart = browser.send(this.app.request("/api/cart").build(), BodyHandlers.ofString());
		assertThat(JsonPath.<List<String>>read(cart.body(), "$.cart")).containsExactly("tea", "scone");
		String id = JsonPath.read(cart.body(), "$.id");
		HttpResponse<String> stranger = this.app.get("/api/cart");
		assertThat(JsonPath.<List<String>>read(stranger.body(), "$.cart")).isEmpty();
		assertThat(JsonPath.<String>read(stranger.body(), "$.id")).isNotEqualTo(id);
		browser.send(this.app.request("/api/cart?invalidate=true").build(), BodyHandlers.ofString());
		HttpResponse<String> after = browser.send(this.app.request("/api/cart").build(), BodyHandlers.ofString());
		assertThat(JsonPath.<List<String>>read(after.body(), "$.cart")).isEmpty();
		assertThat(JsonPath.<String>read(after.body(), "$.id")).isNotEqualTo(id);
	}

	@Test
	void servesOnlyUnderTheContextPath() throws Exception {
		HttpResponse<String> welcome = this.app.get("/");
		assertThat(welcome.statusCode()).isEqualTo(200);
		assertThat(welcome.body()).contains("Welcome to the conformance application.");
		RawResponse outside = this.app.exchange(ConformanceApp.get("/api/items/a/b?q=1", ""));
		assertThat(outside.status()).isEqualTo(404);
		RawResponse bare = this.app.exchange(ConformanceApp.get("/app", ""));
		assertThat(bare.status()).isEqualTo(302);
		assertThat(bare.header("Location")).isEqualTo("http://127.0.0.1/app/");
	}

	private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
		return ConformanceApp.client().send(request.build(), BodyHandlers.ofString());
	}

}
