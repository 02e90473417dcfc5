package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a request may make a Spring MVC application parse beyond its head, in every I/O model:
 * a form of 234,567 fields, a multipart body of 10,000 parts and a request of 300 cookies are
 * refused with 400 by Spring's own error page, at the limit and before the work past it, while
 * the same endpoints serve requests within the limits; and the limits are set in
 * {@code ariadne.server.request.*}.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class ContentLimitsIT {

	private final IoModel model;

	private ConformanceApp app;

	ContentLimitsIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void app() {
		this.app = ConformanceApp.shared(this.model);
	}

	@Test
	void aFormOfMoreFieldsThanTheLimitIsRefusedWith400() throws Exception {
		StringBuilder form = new StringBuilder("name=ada&color=red");
		for (int i = 0; i < 234_565; i++) {
			form.append("&x=").append(i % 10);
		}
		HttpResponse<String> flood = post(this.app, "/api/form", "application/x-www-form-urlencoded",
				form.toString().getBytes());
		assertThat(flood.statusCode()).as(flood.body()).isEqualTo(400);
		assertThat(flood.body()).contains("\"status\":400");
		HttpResponse<String> within = post(this.app, "/api/form", "application/x-www-form-urlencoded",
				"name=ada&color=red&color=blue".getBytes());
		assertThat(within.statusCode()).isEqualTo(200);
		assertThat(within.body()).contains("\"color\":[\"red\",\"blue\"]");
	}

	@Test
	void aMultipartBodyOfMorePartsThanTheLimitIsRefusedWith400() throws Exception {
		Multipart flood = new Multipart().field("title", "flood")
			.file("file", "a.txt", "text/plain", new byte[] { 'a' });
		for (int i = 0; i < 9_998; i++) {
			flood.field("x", "1");
		}
		HttpResponse<String> refused = post(this.app, "/api/upload", Multipart.contentType(), flood.end());
		assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
		assertThat(refused.body()).contains("\"status\":400");
		Multipart within = new Multipart().field("title", "report")
			.file("file", "a.txt", "text/plain", new byte[] { 'a', 'b' });
		HttpResponse<String> served = post(this.app, "/api/upload", Multipart.contentType(), within.end());
		assertThat(served.statusCode()).isEqualTo(200);
		assertThat(served.body()).contains("\"size\":2");
	}

	@Test
	void moreCookiesThanTheLimitAreRefusedWith400() throws Exception {
		StringBuilder cookies = new StringBuilder("flavour=oat; theme=dark");
		for (int i = 0; i < 298; i++) {
			cookies.append("; c").append(i).append("=1");
		}
		HttpResponse<String> refused = this.app.get("/api/cookies/read", "Cookie", cookies.toString());
		assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
		HttpResponse<String> served = this.app.get("/api/cookies/read", "Cookie", "flavour=oat; theme=dark");
		assertThat(served.statusCode()).isEqualTo(200);
		assertThat(served.body()).contains("\"flavour\":\"oat\"");
	}

	@Test
	void theLimitsAreSetInApplicationProperties() throws Exception {
		try (ConformanceApp limited = ConformanceApp.start(this.model, "ariadne.server.request.max-parameters=3",
				"ariadne.server.request.max-cookies=2", "ariadne.server.request.max-parts=2")) {
			assertThat(post(limited, "/api/form", "application/x-www-form-urlencoded",
					"name=ada&color=red&color=blue".getBytes()).statusCode()).isEqualTo(200);
			assertThat(post(limited, "/api/form", "application/x-www-form-urlencoded",
					"name=ada&color=red&color=blue&empty=".getBytes()).statusCode()).isEqualTo(400);
			assertThat(limited.get("/api/cookies/read", "Cookie", "flavour=oat; theme=dark").statusCode())
				.isEqualTo(200);
			assertThat(limited.get("/api/cookies/read", "Cookie", "flavour=oat; theme=dark; more=1").statusCode())
				.isEqualTo(400);
			Multipart two = new Multipart().field("title", "t").file("file", "a.txt", "text/plain", new byte[1]);
			assertThat(post(limited, "/api/upload", Multipart.contentType(), two.end()).statusCode()).isEqualTo(200);
			Multipart three = new Multipart().field("title", "t")
				.file("file", "a.txt", "text/plain", new byte[1])
				.field("x", "1");
			assertThat(post(limited, "/api/upload", Multipart.contentType(), three.end()).statusCode())
				.isEqualTo(400);
		}
	}

	private static HttpResponse<String> post(ConformanceApp app, String path, String type, byte[] body)
			throws IOException, InterruptedException {
		HttpRequest request = app.request(path)
			.header("Content-Type", type)
			.POST(HttpRequest.BodyPublishers.ofByteArray(body))
			.build();
		return ConformanceApp.client().send(request, HttpResponse.BodyHandlers.ofString());
	}

}
