package dev.ariadne.it.mvc;

import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session cookie's {@code SameSite} as Boot holds Tomcat and Jetty to it:
 * {@code server.servlet.session.cookie.same-site} applies to the session cookie, whatever its
 * name, ahead of the application's {@code CookieSameSiteSupplier} beans, which apply to the
 * other cookies; {@code omitted} means no attribute at all, not "ask the next supplier". The
 * cookie's encoding does not depend on the I/O model: one model is enough.
 */
class SessionCookieIT {

	private ConformanceApp app;

	@AfterEach
	void stop() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void theSessionCookieHasItsOwnSameSiteAheadOfTheApplicationsSupplier() throws Exception {
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, "server.servlet.session.cookie.same-site=strict",
				"conformance.cookie-same-site=lax");
		assertThat(sessionCookie("JSESSIONID")).contains("SameSite=Strict").doesNotContain("SameSite=Lax");
		assertThat(cookie("/api/cookies/set", "flavour=")).contains("SameSite=Lax");
		assertThat(cookie("/api/cookies/set", "theme=")).as("a cookie's own attribute wins")
			.contains("SameSite=Strict")
			.doesNotContain("SameSite=Lax");
	}

	@Test
	void omittedLeavesTheSessionCookieWithoutSameSiteWhateverTheSuppliersSay() throws Exception {
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, "server.servlet.session.cookie.same-site=omitted",
				"conformance.cookie-same-site=lax");
		assertThat(sessionCookie("JSESSIONID")).doesNotContainIgnoringCase("SameSite");
		assertThat(cookie("/api/cookies/set", "flavour=")).contains("SameSite=Lax");
	}

	@Test
	void aSessionCookieOfAnotherNameKeepsItsRule() throws Exception {
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, "server.servlet.session.cookie.name=SID",
				"server.servlet.session.cookie.same-site=none", "server.servlet.session.cookie.secure=true");
		assertThat(sessionCookie("SID")).contains("SameSite=None").contains("Secure");
	}

	@Test
	void withoutARuleTheSessionCookieHasNoSameSite() throws Exception {
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP);
		assertThat(sessionCookie("JSESSIONID")).doesNotContainIgnoringCase("SameSite");
	}

	private String sessionCookie(String name) throws Exception {
		return cookie("/api/cart?item=tea", name + "=");
	}

	private String cookie(String path, String prefix) throws Exception {
		HttpResponse<String> response = this.app.get(path);
		assertThat(response.statusCode()).as("%s %s", path, response.body()).isEqualTo(200);
		List<String> cookies = response.headers().allValues("Set-Cookie");
		return cookies.stream()
			.filter((cookie) -> cookie.startsWith(prefix))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no " + prefix + " cookie in " + cookies));
	}

}
