package dev.ariadne;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.ForwardedConfig;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Forwarded headers over real sockets: a request from a trusted proxy (loopback, which the
 * default trusts) is seen with the client's address, scheme and host, from {@code Forwarded} or
 * {@code X-Forwarded-*}; a client's own claim ahead of what the proxy appended does not count;
 * a peer outside the trusted proxies, or a listener with forwarding off, keeps the connection's
 * values; a trusted proxy's {@code X-Forwarded-Prefix} is the application's path prefix,
 * normalized, and never changes routing. Over HTTP/2 streams as over HTTP/1.1, in every model.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForwardedHeadersIT {

	private static final Route WHO = Route.get("/who", (request, response) -> response.send(request.remoteAddress()
		.getAddress()
		.getHostAddress() + " " + request.remoteAddress().getPort() + " " + (request.secure() ? "https" : "http") + " "
			+ request.headers().get("Host")));

	private static final Route PREFIX = Route.get("/shop/{item}",
			(request, response) -> response.send("prefix=" + request.forwardedPrefix() + " path=" + request.path()));

	private AriadneServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = {
			"the client and scheme a proxy appended | X-Forwarded-For: 203.0.113.7\\r\\nX-Forwarded-Proto: https | 203.0.113.7 _ https localhost",
			"the client behind a chain of internal proxies | X-Forwarded-For: 203.0.113.7, 10.0.0.2, 192.168.1.1 | 203.0.113.7 _ http localhost:P",
			"a client's own claim ahead of the proxy's | X-Forwarded-For: 198.51.100.1, 203.0.113.7 | 203.0.113.7 _ http localhost:P",
			"host and port | X-Forwarded-Host: shop.example\\r\\nX-Forwarded-Port: 8443\\r\\nX-Forwarded-Proto: https | 127.0.0.1 _ https shop.example:8443",
			"the scheme's own port | X-Forwarded-Host: shop.example:443\\r\\nX-Forwarded-Proto: https | 127.0.0.1 _ https shop.example",
			"per-hop lists read at the client's hop | X-Forwarded-For: 203.0.113.7, 10.0.0.2\\r\\nX-Forwarded-Proto: https, http | 203.0.113.7 _ https localhost",
			"RFC 7239 | Forwarded: for=203.0.113.7;proto=https;host=api.example | 203.0.113.7 _ https api.example",
			"RFC 7239, IPv6 with a port, through a proxy | Forwarded: for=\"[2001:db8::7]:4711\";proto=https, for=10.1.1.1 | 2001:db8:0:0:0:0:0:7 4711 https localhost",
			"RFC 7239 over X-Forwarded | Forwarded: for=203.0.113.9\\r\\nX-Forwarded-For: 203.0.113.7 | 203.0.113.9 _ http localhost:P",
			"an obfuscated client | Forwarded: for=_hidden, for=10.1.1.1 | 10.1.1.1 _ http localhost:P",
			"a name where an address belongs | X-Forwarded-For: evil.example | 127.0.0.1 _ http localhost:P",
			"a host with a space is not taken | X-Forwarded-Host: a b | 127.0.0.1 _ http localhost:P" })
	void aTrustedProxysHeadersGiveTheClientsAddressSchemeAndHost(String description, String fields, String expected)
			throws IOException {
		start(IoModel.EVENT_LOOP, new ForwardedConfig(true, ForwardedConfig.INTERNAL_PROXIES));
		String head = "GET /who HTTP/1.1\r\nHost: localhost:" + port() + "\r\n" + fields.replace("\\r\\n", "\r\n")
				+ "\r\n\r\n";
		try (RawClient client = RawClient.connect(port())) {
			String body = client.exchange(head).bodyText();
			String[] parts = body.split(" ");
			String want = expected.replace("localhost:P", "localhost:" + port());
			String[] wanted = want.split(" ");
			assertThat(parts[0]).as(description).isEqualTo(wanted[0]);
			if (!wanted[1].equals("_")) {
				assertThat(parts[1]).as(description).isEqualTo(wanted[1]);
			}
			assertThat(parts[2] + " " + parts[3]).as(description).isEqualTo(wanted[2] + " " + wanted[3]);
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aPeerOutsideTheTrustedProxiesAndAListenerWithForwardingOffKeepTheConnectionsValues(IoModel model)
			throws Exception {
		String fields = "X-Forwarded-For: 203.0.113.7\r\nX-Forwarded-Proto: https\r\nX-Forwarded-Host: evil.example\r\n";
		// loopback is not among these proxies
		start(model, new ForwardedConfig(true, List.of("10.0.0.0/8")));
		assertThat(who(fields)).startsWith("127.0.0.1 ").endsWith(" http localhost:" + port());
		this.server.stop();
		start(model, ForwardedConfig.DISABLED);
		assertThat(who(fields)).startsWith("127.0.0.1 ").endsWith(" http localhost:" + port());
		this.server.stop();
		start(model, new ForwardedConfig(true, ForwardedConfig.INTERNAL_PROXIES));
		assertThat(who(fields)).startsWith("203.0.113.7 ").endsWith(" https evil.example");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aTrustedProxysPrefixIsTheApplicationsPathButNeverRoutesIt(IoModel model) throws Exception {
		start(model, new ForwardedConfig(true, ForwardedConfig.INTERNAL_PROXIES));
		assertThat(prefix("X-Forwarded-Prefix: /store/\r\n")).isEqualTo("prefix=/store path=/shop/book");
		assertThat(prefix("X-Forwarded-Prefix: /edge, /store\r\nX-Forwarded-Prefix: /v1\r\n"))
			.isEqualTo("prefix=/edge/store/v1 path=/shop/book");
		assertThat(prefix("X-Forwarded-Prefix: /\r\n")).as("the proxy's root").isEqualTo("prefix= path=/shop/book");
		assertThat(prefix("Forwarded: for=203.0.113.7;proto=https\r\nX-Forwarded-Prefix: /store\r\n"))
			.as("beside RFC 7239, which has no prefix").isEqualTo("prefix=/store path=/shop/book");
		assertThat(prefix("X-Forwarded-Prefix: /store/../admin\r\n")).as("a dot segment")
			.isEqualTo("prefix=null path=/shop/book");
		assertThat(prefix("X-Forwarded-Prefix: store\r\n")).as("not absolute").isEqualTo("prefix=null path=/shop/book");
		assertThat(prefix("")).isEqualTo("prefix=null path=/shop/book");
		this.server.stop();
		start(model, new ForwardedConfig(true, List.of("10.0.0.0/8")));
		assertThat(prefix("X-Forwarded-Prefix: /store\r\n")).as("an untrusted peer").isEqualTo("prefix=null path=/shop/book");
		this.server.stop();
		start(model, ForwardedConfig.DISABLED);
		assertThat(prefix("X-Forwarded-Prefix: /store\r\n")).as("forwarding off").isEqualTo("prefix=null path=/shop/book");
	}

	@Test
	void anHttp2StreamFromATrustedProxyIsSeenAsItsClient() throws Exception {
		this.server = Servers.start(IoModel.EVENT_LOOP, (config) -> config.http2Enabled(true)
			.forwarded(new ForwardedConfig(true, ForwardedConfig.INTERNAL_PROXIES)), WHO);
		org.eclipse.jetty.client.HttpClient client = new org.eclipse.jetty.client.HttpClient(
				new org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2(
						new org.eclipse.jetty.http2.client.HTTP2Client()));
		client.start();
		try {
			var response = client.newRequest("http://127.0.0.1:" + port() + "/who")
				.headers((headers) -> headers.put("X-Forwarded-For", "203.0.113.7")
					.put("X-Forwarded-Proto", "https")
					.put("X-Forwarded-Host", "h2.example"))
				.send();
			assertThat(response.getVersion()).isEqualTo(org.eclipse.jetty.http.HttpVersion.HTTP_2);
			assertThat(response.getContentAsString()).startsWith("203.0.113.7 ").endsWith(" https h2.example");
		}
		finally {
			client.stop();
		}
	}

	private String who(String fields) throws IOException {
		try (RawClient client = RawClient.connect(port())) {
			return client.exchange("GET /who HTTP/1.1\r\nHost: localhost:" + port() + "\r\n" + fields + "\r\n")
				.bodyText();
		}
	}

	private String prefix(String fields) throws IOException {
		try (RawClient client = RawClient.connect(port())) {
			return client.exchange("GET /shop/book HTTP/1.1\r\nHost: localhost\r\n" + fields + "\r\n").bodyText();
		}
	}

	private void start(IoModel model, ForwardedConfig forwarded) {
		this.server = Servers.start(model, (config) -> config.forwarded(forwarded), WHO, PREFIX);
	}

	private int port() {
		return this.server.localAddress().getPort();
	}

}
