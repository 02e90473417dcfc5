package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Security's form login, CSRF protection and logout, as a browser goes through them, in
 * every I/O model: the session, its cookie, the new session id at login, the redirects to the
 * login page with the request's own host and port, and the servlet API's view of the user.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class SecurityIT {

	private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" type=\"hidden\" value=\"([^\"]+)\"");

	private final IoModel model;

	private ConformanceApp app;

	SecurityIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void app() {
		this.app = ConformanceApp.shared(this.model);
	}

	@Test
	void logsInWithCsrfAndOut() throws Exception {
		CookieManager cookies = new CookieManager();
		Browser browser = new Browser(ConformanceApp.client(cookies), cookies);
		HttpResponse<String> protectedPage = browser.get("/account/me");
		assertThat(protectedPage.statusCode()).isEqualTo(302);
		assertThat(protectedPage.headers().firstValue("Location"))
			.hasValue("http://127.0.0.1:" + this.app.port() + "/app/login");
		HttpResponse<String> loginPage = browser.get("/login");
		assertThat(loginPage.statusCode()).isEqualTo(200);
		assertThat(loginPage.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
		String token = csrf(loginPage.body());
		String anonymousSession = browser.session();
		assertThat(anonymousSession).isNotNull();

		assertThat(browser.post("/login", "username=ada&password=lovelace").statusCode())
			.as("a login without the CSRF token")
			.isEqualTo(403);
		HttpResponse<String> wrongPassword = browser.post("/login", "username=ada&password=wrong&_csrf=" + token);
		assertThat(wrongPassword.statusCode()).isEqualTo(302);
		assertThat(wrongPassword.headers().firstValue("Location")).hasValueSatisfying(
				(location) -> assertThat(location).endsWith("/app/login?error"));

		HttpResponse<String> login = browser.post("/login", "username=ada&password=lovelace&_csrf=" + token);
		assertThat(login.statusCode()).isEqualTo(302);
		assertThat(login.headers().firstValue("Location"))
			.hasValue("http://127.0.0.1:" + this.app.port() + "/app/account/me");
		assertThat(browser.session()).as("a new session id after login").isNotEqualTo(anonymousSession);
		HttpResponse<String> me = browser.get("/account/me");
		assertThat(me.statusCode()).isEqualTo(200);
		assertThat(me.body()).isEqualTo("ada admin=false");
		assertThat(me.headers().firstValue("Cache-Control")).hasValue("no-cache, no-store, max-age=0, must-revalidate");
		assertThat(me.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
		assertThat(me.headers().firstValue("X-Frame-Options")).hasValue("DENY");

		HttpResponse<String> logoutPage = browser.get("/logout");
		assertThat(logoutPage.statusCode()).isEqualTo(200);
		HttpResponse<String> logout = browser.post("/logout", "_csrf=" + csrf(logoutPage.body()));
		assertThat(logout.statusCode()).isEqualTo(302);
		assertThat(logout.headers().firstValue("Location")).hasValueSatisfying(
				(location) -> assertThat(location).endsWith("/app/login?logout"));
		assertThat(browser.get("/account/me").statusCode()).as("after logout").isEqualTo(302);
	}

	@Test
	void givesTheServletApiTheSignedInUsersRoles() throws Exception {
		CookieManager cookies = new CookieManager();
		Browser browser = new Browser(ConformanceApp.client(cookies), cookies);
		String token = csrf(browser.get("/login").body());
		assertThat(browser.post("/login", "username=root&password=secret&_csrf=" + token).statusCode()).isEqualTo(302);
		assertThat(browser.get("/account/me").body()).isEqualTo("root admin=true");
	}

	private static String csrf(String page) {
		Matcher matcher = CSRF.matcher(page);
		assertThat(matcher.find()).as("a CSRF token in %s", page).isTrue();
		return URLEncoder.encode(matcher.group(1), StandardCharsets.UTF_8);
	}

	/** A client that keeps its cookies, as a browser does. */
	private final class Browser {

		private final HttpClient client;

		private final CookieManager cookies;

		Browser(HttpClient client, CookieManager cookies) {
			this.client = client;
			this.cookies = cookies;
		}

		HttpResponse<String> get(String path) throws IOException, InterruptedException {
			return this.client.send(SecurityIT.this.app.request(path).build(), BodyHandlers.ofString());
		}

		HttpResponse<String> post(String path, String form) throws IOException, InterruptedException {
			return this.client.send(SecurityIT.this.app.request(path)
				.header("Content-Type", "application/x-www-form-urlencoded")
				.POST(BodyPublishers.ofString(form))
				.build(), BodyHandlers.ofString());
		}

		String session() {
			return this.cookies.getCookieStore()
				.getCookies()
				.stream()
				.filter((cookie) -> cookie.getName().equals("JSESSIONID"))
				.map(HttpCookie::getValue)
				.findFirst()
				.orElse(null);
		}

	}

}
