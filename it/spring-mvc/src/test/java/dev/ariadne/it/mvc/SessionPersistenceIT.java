package dev.ariadne.it.mvc;

import java.net.CookieManager;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code server.servlet.session.persistent}: a session and its serializable attributes survive a
 * restart of the application (a new context on a new port, the same store directory), under the
 * same id, while an attribute that cannot be serialized is left out; without it, a restart ends
 * every session.
 */
class SessionPersistenceIT {

	@TempDir
	Path store;

	private ConformanceApp app;

	@AfterEach
	void stop() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void aSessionSurvivesARestartWithItsSerializableAttributes() throws Exception {
		String[] persistent = { "server.servlet.session.persistent=true",
				"server.servlet.session.store-dir=" + this.store };
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, persistent);
		HttpClient browser = ConformanceApp.client(new CookieManager());
		send(browser, "/api/cart?item=tea", true);
		send(browser, "/api/session/unserializable", true);
		String id = JsonPath.read(send(browser, "/api/cart", false).body(), "$.id");
		assertThat(JsonPath.<List<String>>read(send(browser, "/api/session/attributes", false).body(), "$"))
			.containsExactly("cart", "unserializable");
		this.app.close();
		assertThat(this.store.resolve("SESSIONS.ser")).exists();
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, persistent);
		// the same client, the same cookie, another port: the session is there
		HttpResponse<String> cart = this.app.get("/api/cart", "Cookie", "JSESSIONID=" + id);
		assertThat(JsonPath.<String>read(cart.body(), "$.id")).isEqualTo(id);
		assertThat(JsonPath.<List<String>>read(cart.body(), "$.cart")).containsExactly("tea");
		assertThat(JsonPath.<List<String>>read(this.app.get("/api/session/attributes", "Cookie", "JSESSIONID=" + id)
			.body(), "$")).containsExactly("cart");
		assertThat(this.store.resolve("SESSIONS.ser")).doesNotExist();
	}

	@Test
	void withoutPersistenceARestartEndsEverySession() throws Exception {
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, "server.servlet.session.store-dir=" + this.store);
		HttpClient browser = ConformanceApp.client(new CookieManager());
		assertThat(JsonPath.<List<String>>read(send(browser, "/api/cart?item=tea", true).body(), "$"))
			.containsExactly("tea");
		String sessionId = JsonPath.read(send(browser, "/api/cart", false).body(), "$.id");
		this.app.close();
		assertThat(Files.list(this.store)).isEmpty();
		this.app = ConformanceApp.start(IoModel.EVENT_LOOP, "server.servlet.session.store-dir=" + this.store);
		HttpResponse<String> cart = this.app.get("/api/cart", "Cookie", "JSESSIONID=" + sessionId);
		assertThat(JsonPath.<String>read(cart.body(), "$.id")).isNotEqualTo(sessionId);
		assertThat(JsonPath.<List<String>>read(cart.body(), "$.cart")).isEmpty();
	}

	private HttpResponse<String> send(HttpClient browser, String path, boolean post) throws Exception {
		var request = this.app.request(path);
		if (post) {
			request.POST(BodyPublishers.noBody());
		}
		HttpResponse<String> response = browser.send(request.build(), BodyHandlers.ofString());
		assertThat(response.statusCode()).as(path).isEqualTo(200);
		return response;
	}

}
