package dev.ariadne.it.webflux;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux application with {@code server.ssl.bundle} (a PKCS12 key store that the JDK's
 * {@code keytool} generates for the test): it answers over https, the request's URI says
 * {@code https}, and the handshake meter is scraped from the management port, which serves the
 * same TLS, as Boot's own servers do without {@code management.server.ssl.*}. (Spring's
 * {@code SslInfo} is there only when the client presented a certificate.)
 */
class WebFluxTlsIT {

	private static final String PASSWORD = "test-only";

	@Test
	void servesHttpsWithAnSslBundleAndCountsTheHandshakes(@TempDir Path directory) throws Exception {
		Path store = directory.resolve("server.p12");
		Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
				"-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
				"-ext", "san=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
				"-storepass", PASSWORD)
			.redirectErrorStream(true)
			.start();
		String output = new String(keytool.getInputStream().readAllBytes());
		assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(keytool.exitValue()).as(output).isZero();
		try (ConfigurableApplicationContext context = SpringApplication.run(WebFluxApplication.class,
				"--server.port=0", "--spring.ssl.bundle.jks.web.keystore.location=file:" + store,
				"--spring.ssl.bundle.jks.web.keystore.password=" + PASSWORD,
				"--spring.ssl.bundle.jks.web.keystore.type=PKCS12", "--server.ssl.bundle=web",
				"--management.server.port=0", "--management.endpoints.web.exposure.include=prometheus")) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			HttpClient client = HttpClient.newBuilder().sslContext(trusting(store)).build();
			HttpResponse<String> response = client.send(
					HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/connection")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("https");
			int managementPort = context.getEnvironment().getProperty("local.management.port", Integer.class);
			// as with Tomcat, the management listener serves server.ssl.* when management.server.ssl.* is not set
			HttpResponse<String> scrape = client
				.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + managementPort + "/actuator/prometheus"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(scrape.body()).contains(
					"ariadne_tls_handshakes_seconds_count{listener=\"app\",outcome=\"success\",protocol=\"TLSv1.3\"} 1");
		}
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
