package dev.ariadne;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * h2 over TLS by ALPN in every model, against the JDK's client: a client that offers {@code h2}
 * gets it and its requests reach the same routes over streams, secure; one that offers only
 * {@code http/1.1} is served HTTP/1.1 on the same port; without HTTP/2 on, ALPN never chooses
 * {@code h2}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2TlsIT {

	private static final TestCertificates certificates = TestCertificates.get();

	private AriadneServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void alpnChoosesH2ForAClientThatOffersItAndHttp11ForOneThatDoesNot(IoModel model) throws Exception {
		start(model, true);
		HttpResponse<String> h2 = get(client(HttpClient.Version.HTTP_2));
		assertThat(h2.version()).isEqualTo(HttpClient.Version.HTTP_2);
		assertThat(h2.body()).isEqualTo("HTTP/2.0 h2 secure=true session=true");
		for (int i = 0; i < 3; i++) {
			assertThat(get(client(HttpClient.Version.HTTP_2)).statusCode()).isEqualTo(200);
		}
		HttpResponse<String> http11 = get(client(HttpClient.Version.HTTP_1_1));
		assertThat(http11.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
		assertThat(http11.body()).isEqualTo("HTTP/1.1 http/1.1 secure=true session=true");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void withoutHttp2AlpnNeverChoosesH2(IoModel model) throws Exception {
		start(model, false);
		HttpResponse<String> response = get(client(HttpClient.Version.HTTP_2));
		assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
		assertThat(response.body()).isEqualTo("HTTP/1.1 http/1.1 secure=true session=true");
	}

	private void start(IoModel model, boolean http2) {
		TlsConfig tls = TlsConfig.builder(() -> certificates.serverContext(TestCertificates.LOCALHOST)).build();
		this.server = Servers.start(model, (config) -> config.tls(tls).http2Enabled(http2),
				Route.get("/version", (request, response) -> response.send(request.version() + " " + request.protocol() + " secure="
						+ request.secure() + " session=" + (request.tlsSession() != null))));
	}

	private HttpClient client(HttpClient.Version version) throws Exception {
		// the client offers h2 by ALPN for HTTP_2 (its own SSL parameters, which verify the host name)
		return HttpClient.newBuilder().version(version).sslContext(certificates.clientContext()).build();
	}

	private HttpResponse<String> get(HttpClient client) throws Exception {
		return client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + this.server.port() + "/version"))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
