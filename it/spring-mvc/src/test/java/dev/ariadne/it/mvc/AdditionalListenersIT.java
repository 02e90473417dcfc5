package dev.ariadne.it.mvc;

import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import dev.ariadne.Await;
import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.autoconfigure.web.AriadneWebServer;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.web.server.context.WebServerApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The Spring MVC application served over HTTPS on its port ({@code server.ssl.bundle}) and over
 * plain HTTP on an additional listener ({@code ariadne.server.additional-listeners}), in every
 * I/O model: the same controller answers on both, each listener's meters carry its own
 * {@code listener} tag on {@code /actuator/prometheus}, the {@code ariadne} endpoint lists both,
 * and stopping and starting the web server stops and starts both.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class AdditionalListenersIT {

	private static final String PASSWORD = "test-only";

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@TempDir
	static Path directory;

	private static Path store;

	private static HttpClient client;

	private final IoModel model;

	AdditionalListenersIT(IoModel model) {
		this.model = model;
	}

	@BeforeAll
	static void generateKeyStore() throws Exception {
		store = directory.resolve("server.p12");
		Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
				"-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
				"-ext", "san=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
				"-storepass", PASSWORD)
			.redirectErrorStream(true)
			.start();
		String output = new String(keytool.getInputStream().readAllBytes());
		assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(keytool.exitValue()).as(output).isZero();
		client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.sslContext(trusting(store))
			.connectTimeout(TIMEOUT)
			.build();
	}

	@Test
	void servesTheControllerOverHttpsAndHttpWithTheMetersOfEachListener() throws Exception {
		try (ConformanceApp app = start()) {
			AriadneServer plain = app.bean(AriadneServers.class).find("plain");
			assertThat(protocol("https", app.port())).startsWith("HTTP/1.1 https secure=true");
			assertThat(protocol("http", plain.port())).startsWith("HTTP/1.1 http secure=false");
			assertThat(plain.config().ioModel()).isEqualTo(this.model);
			// each exchange is recorded once its response is written, which the client may see first
			Await.until(() -> scrape(app).contains(requests("plain")) && scrape(app).contains(requests("app")),
					() -> "the exchanges of both listeners on /actuator/prometheus");
			assertThat(scrape(app)).contains("ariadne_pool_threads_max{listener=\"app\",pool=\"default\"} 200")
				.contains("ariadne_pool_threads_max{listener=\"plain\",pool=\"default\"} 200")
				.contains("ariadne_connections_accepted_total{listener=\"plain\"}")
				.contains("ariadne_tls_handshakes_seconds_count{listener=\"app\",outcome=\"success\"")
				.doesNotContain("ariadne_tls_handshakes_seconds_count{listener=\"plain\"");
			assertThat(app.management("/actuator/ariadne").body()).contains("\"app\":{").contains("\"plain\":{");
			// the diagnosis evaluates once a second
			Await.until(() -> management(app, "/actuator/ariadne/diagnosis").contains("\"listener\":\"plain\""),
					() -> "the plain listener's pool in the diagnosis");
		}
	}

	@Test
	void stopsAndStartsBothListenersWithTheWebServer() throws Exception {
		try (ConformanceApp app = start()) {
			AriadneWebServer webServer = (AriadneWebServer) ((WebServerApplicationContext) app.context()).getWebServer();
			List<AriadneServer> before = webServer.getServers();
			int plainPort = before.get(1).port();
			webServer.stop();
			assertThat(webServer.getPort()).isEqualTo(-1);
			assertThat(before).noneMatch(AriadneServer::isRunning);
			assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> protocol("http", plainPort));
			webServer.start();
			List<AriadneServer> after = webServer.getServers();
			assertThat(after).hasSize(2).allMatch(AriadneServer::isRunning);
			assertThat(protocol("https", webServer.getPort())).startsWith("HTTP/1.1 https secure=true");
			assertThat(protocol("http", after.get(1).port())).startsWith("HTTP/1.1 http secure=false");
			assertThat(app.bean(AriadneServers.class).find("plain")).isSameAs(after.get(1));
		}
	}

	private ConformanceApp start() {
		String bundle = "spring.ssl.bundle.jks.web.";
		return ConformanceApp.start(this.model, bundle + "keystore.location=file:" + store,
				bundle + "keystore.password=" + PASSWORD, bundle + "keystore.type=PKCS12", "server.ssl.bundle=web",
				"management.server.ssl.enabled=false", "ariadne.server.additional-listeners[0].port=0",
				"ariadne.server.additional-listeners[0].address=127.0.0.1",
				"ariadne.server.additional-listeners[0].name=plain");
	}

	private static String requests(String listener) {
		return "ariadne_requests_seconds_count{listener=\"" + listener
				+ "\",method=\"GET\",outcome=\"SUCCESS\",refusal=\"none\",route=\"/api/protocol\",status=\"200\"} 1";
	}

	private static String scrape(ConformanceApp app) {
		return management(app, "/actuator/prometheus");
	}

	private static String management(ConformanceApp app, String path) {
		try {
			return app.management(path).body();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String protocol(String scheme, int port) throws Exception {
		HttpResponse<String> response = client.send(HttpRequest
			.newBuilder(URI.create(scheme + "://127.0.0.1:" + port + ConformanceApp.CONTEXT_PATH + "/api/protocol"))
			.timeout(TIMEOUT)
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

	private static SSLContext trusting(Path store) throws Exception {
		KeyStore keys = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(store)) {
			keys.load(in, PASSWORD.toCharArray());
		}
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(keys);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, trust.getTrustManagers(), null);
		return context;
	}

}
