package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No spelling of a path reaches what {@code /admin/**} guards, in every I/O model: each of the
 * 49 rows is a request target a client could send to reach the controller on {@code /admin/**}
 * past Spring Security's rule (role {@code ADMIN}) and past the servlet filter the container
 * maps to {@code /admin/*} (which wants a key), with the answers it must get instead.
 * Anonymous: the login redirect (302), the container's or Spring Security's firewall's 400, or
 * 404 for a path that is another resource. Signed in as an admin without the key: the filter's
 * 403, or the same 400 and 404. The controller never answers; the control test shows that it
 * does when the key is sent.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class PathTricksIT {

	private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" type=\"hidden\" value=\"([^\"]+)\"");

	private static final Map<IoModel, String> ADMIN_SESSIONS = new EnumMap<>(IoModel.class);

	private final IoModel model;

	private ConformanceApp app;

	PathTricksIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void app() {
		this.app = ConformanceApp.shared(this.model);
	}

	@Test
	void servesTheGuardedControllerToAnAdminWithTheKey() throws Exception {
		RawResponse response = request("/app/admin/secret",
				"Cookie: JSESSIONID=" + adminSession() + "\r\nX-Admin-Key: " + ConformanceApplication.ADMIN_KEY + "\r\n");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.bodyText()).isEqualTo("SECRET of /app/admin/secret");
		assertThat(request("/app/admin/secret", "").status()).as("anonymous").isEqualTo(302);
		assertThat(request("/app/admin/secret", "Cookie: JSESSIONID=" + adminSession() + "\r\n").status())
			.as("admin without the key")
			.isEqualTo(403);
	}

	@ParameterizedTest(name = "{0} -> anonymous {1}, admin {2}")
	@CsvSource(delimiter = '|', textBlock = """
			/app/admin/secret                             | 302 | 403
			/app/admin                                    | 302 | 403
			/app/admin/                                   | 302 | 403
			/app/admin/secret/                            | 302 | 403
			//app/admin/secret                            | 400 | 400
			/app//admin/secret                            | 400 | 400
			/app/./admin/secret                           | 400 | 400
			/app/admin/./secret                           | 400 | 400
			/app/public/../admin/secret                   | 400 | 400
			/app/../app/admin/secret                      | 400 | 400
			/app/admin/secret/..                          | 400 | 400
			/app/admin;jsessionid=1/secret                | 400 | 400
			/app/admin;/secret                            | 400 | 400
			/app;x=1/admin/secret                         | 400 | 400
			/app/%61dmin/secret                           | 302 | 403
			/app/adm%69n/secret                           | 302 | 403
			/app/admin/secret?/../public                  | 302 | 403
			http://localhost/app/admin/secret             | 302 | 403
			http://localhost/app/public/../admin/secret   | 400 | 400
			/app/public/..;/admin/secret                  | 400 | 400
			/app/;/admin/secret                           | 400 | 400
			/app/admin%2fsecret                           | 400 | 400
			/app/admin%2Fsecret                           | 400 | 400
			/app/public%2f..%2fadmin/secret               | 400 | 400
			/app/public/%2e%2e/admin/secret               | 400 | 400
			/app/public/%2E%2E/admin/secret               | 400 | 400
			/app/public/.%2e/admin/secret                 | 400 | 400
			/app/%2e/admin/secret                         | 400 | 400
			/app/admin%5csecret                           | 400 | 400
			/app/public/..%5cadmin/secret                 | 400 | 400
			/app/admin\\secret                            | 400 | 400
			/app/public\\..\\admin\\secret                | 400 | 400
			/app/admin/secret%00.txt                      | 400 | 400
			/app/admin%09/secret                          | 400 | 400
			/app/%C0%AE%C0%AE/app/admin/secret            | 400 | 400
			/app/public/%C0%AE%C0%AE/admin/secret         | 400 | 400
			/app/%C0%AFadmin/secret                       | 400 | 400
			/app/public/%E0%80%AE%E0%80%AE/admin/secret   | 400 | 400
			/app/admin/sec%ZZret                          | 400 | 400
			/app/../admin/secret                          | 404 | 404
			/app/admin/secret#top                         | 400 | 400
			/app/public;x=%2f/../admin/secret             | 400 | 400
			/app/ADMIN/secret                             | 404 | 404
			/app/Admin/secret                             | 404 | 404
			/app/admin./secret                            | 404 | 404
			/app/admin%20/secret                          | 404 | 404
			/app/%2561dmin/secret                         | 400 | 400
			/app/administrator/secret                     | 404 | 404
			/APP/admin/secret                             | 404 | 404
			""")
	void noSpellingOfThePathGetsPastTheGuards(String target, int anonymous, int admin) throws Exception {
		RawResponse asAnonymous = request(target, "");
		assertThat(asAnonymous.bodyText()).doesNotContain("SECRET");
		assertThat(asAnonymous.status()).as("anonymous: %s", asAnonymous).isEqualTo(anonymous);
		if (anonymous == 302) {
			assertThat(asAnonymous.header("Location")).endsWith("/app/login");
		}
		RawResponse asAdmin = request(target, "Cookie: JSESSIONID=" + adminSession() + "\r\n");
		assertThat(asAdmin.bodyText()).doesNotContain("SECRET");
		assertThat(asAdmin.status()).as("admin without the key: %s", asAdmin).isEqualTo(admin);
	}

	private RawResponse request(String target, String headers) throws IOException {
		try (RawClient client = this.app.raw()) {
			return client.exchange("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n");
		}
	}

	/** Signs in as {@code root} (role {@code ADMIN}) once per model and returns the session id. */
	private String adminSession() throws IOException, InterruptedException {
		synchronized (ADMIN_SESSIONS) {
			String session = ADMIN_SESSIONS.get(this.model);
			if (session == null) {
				session = signIn("root", "secret");
				ADMIN_SESSIONS.put(this.model, session);
			}
			return session;
		}
	}

	private String signIn(String username, String password) throws IOException, InterruptedException {
		CookieManager cookies = new CookieManager();
		HttpClient browser = ConformanceApp.client(cookies);
		String page = browser.send(this.app.request("/login").build(), BodyHandlers.ofString()).body();
		Matcher matcher = CSRF.matcher(page);
		assertThat(matcher.find()).as("a CSRF token in %s", page).isTrue();
		String form = "username=" + username + "&password=" + password + "&_csrf="
				+ URLEncoder.encode(matcher.group(1), StandardCharsets.UTF_8);
		int status = browser.send(this.app.request("/login")
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(BodyPublishers.ofString(form))
			.build(), BodyHandlers.discarding()).statusCode();
		assertThat(status).as("login").isEqualTo(302);
		return cookies.getCookieStore()
			.getCookies()
			.stream()
			.filter((cookie) -> cookie.getName().equals("JSESSIONID"))
			.map(HttpCookie::getValue)
			.findFirst()
			.orElseThrow();
	}

}
