package dev.ariadne.it.newuser;

import java.io.IOException;
import java.io.InputStream;
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

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Boot's {@code server.ssl.*} and {@code management.server.ssl.*} in a Spring MVC
 * application: a PKCS12 key store generated for the test by the JDK's {@code keytool}; the
 * application and management listeners answer over https; the servlet request says it is
 * secure, with its cipher suite, key size and the client's certificate under
 * {@code client-auth=want}; a TLS 1.1 client and plaintext HTTP are refused.
 */
class TlsServerPropertiesIT {

	private static final String PASSWORD = "test-only";

	@TempDir
	static Path directory;

	private static ConfigurableApplicationContext context;

	private static int port;

	private static Path keyStore;

	@BeforeAll
	static void start() throws Exception {
		keyStore = directory.resolve("server.p12");
		keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
				"CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
				"-keystore", keyStore.toString(), "-storepass", PASSWORD);
		String store = "file:" + keyStore;
		context = SpringApplication.run(NewUserApplication.class, "--server.port=0",
				"--server.ssl.key-store=" + store, "--server.ssl.key-store-password=" + PASSWORD,
				"--server.ssl.key-store-type=PKCS12", "--server.ssl.trust-store=" + store,
				"--server.ssl.trust-store-password=" + PASSWORD, "--server.ssl.client-auth=want",
				"--management.server.port=0", "--management.server.ssl.key-store=" + store,
				"--management.server.ssl.key-store-password=" + PASSWORD,
				"--management.endpoints.web.exposure.include=health");
		port = ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void answersOverHttpsAndTheRequestSaysItIsSecure() throws Exception {
		HttpResponse<String> response = get(client(false), "/connection", port);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
		assertThat(response.body()).matches("https secure=true port=" + port
				+ " TLS_\\w+ (128|256) peer=none url=https://127.0.0.1:" + port + "/connection");
	}

	@Test
	void passesTheClientsCertificateToTheRequestUnderWant() throws Exception {
		HttpResponse<String> response = get(client(true), "/connection", port);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains(" peer=CN=localhost ");
	}

	@Test
	void servesTheManagementListenerOverHttpsToo() throws Exception {
		int management = Integer.parseInt(context.getEnvironment().getProperty("local.management.port"));
		HttpResponse<String> health = get(client(false), "/actuator/health", management);
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(health.body()).contains("\"status\":\"UP\"");
	}

	@Test
	void refusesATls11Client() throws Exception {
		SSLContext tls11 = SSLContext.getInstance("TLS");
		tls11.init(null, trustManagers(), null);
		HttpClient client = HttpClient.newBuilder()
			.sslContext(tls11)
			.sslParameters(new javax.net.ssl.SSLParameters(null, new String[] { "TLSv1.1" }))
			.connectTimeout(Duration.ofSeconds(5))
			.build();
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> get(client, "/connection", port));
	}

	@Test
	void answersPlaintextHttpWith400() throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/connection"))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).containsIgnoringCase("TLS");
	}

	@Test
	void curlSpeakingPlaintextToEitherListenerGets400() throws Exception {
		int management = Integer.parseInt(context.getEnvironment().getProperty("local.management.port"));
		for (String url : List.of("http://127.0.0.1:" + port + "/greeting/Ada",
				"http://127.0.0.1:" + management + "/actuator/health")) {
			Process curl = new ProcessBuilder("curl", "-sS", "--max-time", "10", "-w", " %{http_code}", url)
				.redirectErrorStream(true)
				.start();
			String output = new String(curl.getInputStream().readAllBytes());
			assertThat(curl.waitFor(20, TimeUnit.SECONDS)).isTrue();
			assertThat(output).as(url).startsWith("This port expects TLS").endsWith(" 400");
		}
	}

	@Test
	void curlVerifyingTheCertificateGets200() throws Exception {
		Path pem = directory.resolve("server.pem");
		keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", keyStore.toString(), "-storepass", PASSWORD,
				"-file", pem.toString());
		Process curl = new ProcessBuilder("curl", "-sS", "--max-time", "20", "--cacert", pem.toString(), "-w",
				" %{http_code}", "https://localhost:" + port + "/greeting/Ada")
			.redirectErrorStream(true)
			.start();
		String output = new String(curl.getInputStream().readAllBytes());
		assertThat(curl.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(output).isEqualTo("{\"greeting\":\"Hello, Ada!\"} 200");
	}

	@Test
	void refusesTheRouteApplicationsBundlePropertyNamingBootsOwn() {
		assertThatException()
			.isThrownBy(() -> SpringApplication.run(NewUserApplication.class, "--server.port=0",
					"--ariadne.server.ssl.bundle=web").close())
			.withStackTraceContaining("ariadne.server.ssl.bundle")
			.withStackTraceContaining("server.ssl.bundle=web");
	}

	@Test
	void servesH2ByAlpnWithServerHttp2EnabledAndHttp11ToOtherClients() throws Exception {
		String store = "file:" + keyStore;
		try (ConfigurableApplicationContext http2 = SpringApplication.run(NewUserApplication.class, "--server.port=0",
				"--server.http2.enabled=true", "--server.ssl.key-store=" + store,
				"--server.ssl.key-store-password=" + PASSWORD, "--server.ssl.key-store-type=PKCS12",
				"--management.server.port=-1")) {
			int http2Port = ((WebServerApplicationContext) http2).getWebServer().getPort();
			HttpResponse<String> h2 = get(client(false), "/connection", http2Port);
			assertThat(h2.statusCode()).isEqualTo(200);
			assertThat(h2.version()).isEqualTo(HttpClient.Version.HTTP_2);
			HttpClient http11 = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.sslContext(client(false).sslContext())
				.build();
			HttpResponse<String> plain = get(http11, "/connection", http2Port);
			assertThat(plain.statusCode()).isEqualTo(200);
			assertThat(plain.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
		}
		// the listener without server.http2.enabled keeps HTTP/1.1 whatever the client offers
		assertThat(get(client(false), "/connection", port).version()).isEqualTo(HttpClient.Version.HTTP_1_1);
	}

	private static HttpResponse<String> get(HttpClient client, String path, int port)
			throws IOException, InterruptedException {
		return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static HttpClient client(boolean withCertificate) throws Exception {
		SSLContext context = SSLContext.getInstance("TLS");
		KeyManagerFactory keys = null;
		if (withCertificate) {
			keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			keys.init(load(), PASSWORD.toCharArray());
		}
		context.init((keys != null) ? keys.getKeyManagers() : null, trustManagers(), null);
		return HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(5)).build();
	}

	private static javax.net.ssl.TrustManager[] trustManagers() throws Exception {
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(load());
		return trust.getTrustManagers();
	}

	private static KeyStore load() throws Exception {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(keyStore)) {
			store.load(in, PASSWORD.toCharArray());
		}
		return store;
	}

	private static void keytool(String... arguments) throws Exception {
		List<String> command = new java.util.ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes());
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(output).isZero();
	}

}
