package dev.ariadne.it.mvc;

import java.io.IOException;

import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring MVC application behind a proxy: with {@code server.forward-headers-strategy=native},
 * or on a cloud platform where Boot turns it on by itself, a redirect answers with the scheme,
 * host and path prefix ({@code X-Forwarded-Prefix}) the client used and the servlet API reports
 * them, as Spring's own {@code ForwardedHeaderFilter} does; a proxy outside
 * {@code ariadne.server.forwarded.trusted-proxies} is not believed, and {@code framework} leaves
 * the headers to Spring's own filter, as with Tomcat.
 */
class ForwardedHeadersIT {

	private static final String BEHIND_PROXY = "X-Forwarded-For: 203.0.113.7\r\nX-Forwarded-Proto: https\r\n"
			+ "X-Forwarded-Host: shop.example\r\n";

	private ConformanceApp app;

	@AfterEach
	void stop() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void withTheNativeStrategyARedirectKeepsTheSchemeAndHostTheClientUsed() throws IOException {
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, "server.forward-headers-strategy=native");
		RawResponse redirect = get("/app/pages/redirect", BEHIND_PROXY);
		assertThat(redirect.status()).isEqualTo(302);
		assertThat(redirect.header("Location")).isEqualTo("https://shop.example/app/pages/target?from=redirect");
		assertThat(get("/app/api/protocol", BEHIND_PROXY).bodyText()).startsWith("HTTP/1.1 https secure=true");
		// a proxy that serves the application under /shop: the prefix takes the context path's place
		RawResponse prefixed = get("/app/pages/redirect", BEHIND_PROXY + "X-Forwarded-Prefix: /shop\r\n");
		assertThat(prefixed.status()).isEqualTo(302);
		assertThat(prefixed.header("Location")).isEqualTo("https://shop.example/shop/pages/target?from=redirect");
		RawResponse async = get("/app/async/callable", BEHIND_PROXY + "X-Forwarded-Prefix: /shop\r\n");
		assertThat(async.status()).as("dispatched again behind the prefix: %s", async).isEqualTo(200);
		// without forwarded headers the same request is the connection's
		RawResponse direct = get("/app/pages/redirect", "");
		assertThat(direct.header("Location"))
			.isEqualTo("http://localhost:" + this.app.port() + "/app/pages/target?from=redirect");
	}

	@Test
	void aProxyOutsideTheTrustedOnesIsNotBelieved() throws IOException {
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, "server.forward-headers-strategy=native",
				"ariadne.server.forwarded.trusted-proxies=10.0.0.0/8");
		RawResponse redirect = get("/app/pages/redirect", BEHIND_PROXY);
		assertThat(redirect.header("Location"))
			.isEqualTo("http://localhost:" + this.app.port() + "/app/pages/target?from=redirect");
		assertThat(get("/app/api/protocol", BEHIND_PROXY).bodyText()).startsWith("HTTP/1.1 http secure=false");
		assertThat(get("/app/pages/redirect", BEHIND_PROXY + "X-Forwarded-Prefix: /shop\r\n").header("Location"))
			.isEqualTo("http://localhost:" + this.app.port() + "/app/pages/target?from=redirect");
	}

	@Test
	void onACloudPlatformBootsDefaultTurnsItOnAndTheFrameworkStrategyLeavesItToSpring() throws IOException {
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, "spring.main.cloud-platform=kubernetes");
		assertThat(get("/app/pages/redirect", BEHIND_PROXY).header("Location"))
			.isEqualTo("https://shop.example/app/pages/target?from=redirect");
		this.app.close();
		// Spring's ForwardedHeaderFilter answers for the redirect; the server itself reads nothing
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, "server.forward-headers-strategy=framework");
		assertThat(get("/app/pages/redirect", BEHIND_PROXY).header("Location"))
			.isEqualTo("https://shop.example/app/pages/target?from=redirect");
		// and its prefix: the same redirect as the native strategy gives
		assertThat(get("/app/pages/redirect", BEHIND_PROXY + "X-Forwarded-Prefix: /shop\r\n").header("Location"))
			.isEqualTo("https://shop.example/shop/pages/target?from=redirect");
	}

	private RawResponse get(String path, String fields) throws IOException {
		try (RawClient client = RawClient.connect(this.app.port())) {
			return client.exchange("GET " + path + " HTTP/1.1\r\nHost: localhost:" + this.app.port() + "\r\n" + fields
					+ "\r\n");
		}
	}

}
