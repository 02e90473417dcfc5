package dev.ariadne.bench;

import java.nio.ByteBuffer;

import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Jetty with its defaults (QueuedThreadPool of 200, no connection limit, 30 s idle
 * timeout); one core {@link Handler} serves the routes on a pooled thread. With {@link BenchTls},
 * TLS on the JDK's provider; with {@link BenchHttp2}, HTTP/2 as Boot sets Jetty up for
 * {@code server.http2.enabled}: h2c beside HTTP/1.1, or h2 by ALPN over TLS.
 */
final class JettyServer {

	private JettyServer() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		Server server = new Server();
		ServerConnector connector;
		if (BenchTls.enabled()) {
			SslContextFactory.Server tls = new SslContextFactory.Server();
			tls.setKeyStorePath(BenchTls.keyStore());
			tls.setKeyStorePassword(BenchTls.password());
			tls.setKeyStoreType("PKCS12");
			tls.setIncludeProtocols("TLSv1.3", "TLSv1.2");
			HttpConfiguration http = new HttpConfiguration();
			SecureRequestCustomizer secure = new SecureRequestCustomizer();
			secure.setSniHostCheck(false);
			http.addCustomizer(secure);
			if (BenchHttp2.enabled()) {
				// as Boot's Jetty factory sets up server.http2.enabled with SSL: ALPN (the JDK's, from
				// jetty-alpn-java-server) chooses h2 or HTTP/1.1, ciphers RFC 9113 forbids sorted last
				ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
				tls.setCipherComparator(HTTP2Cipher.COMPARATOR);
				connector = new ServerConnector(server, new SslConnectionFactory(tls, alpn.getProtocol()), alpn,
						new HTTP2ServerConnectionFactory(http), new HttpConnectionFactory(http));
			}
			else {
				connector = new ServerConnector(server, new SslConnectionFactory(tls, "http/1.1"),
						new HttpConnectionFactory(http));
			}
		}
		else if (BenchHttp2.enabled()) {
			// HTTP/1.1 and h2c (prior knowledge or Upgrade) on one port, as Boot's Jetty factory does
			HttpConfiguration http = new HttpConfiguration();
			connector = new ServerConnector(server, new HttpConnectionFactory(http),
					new HTTP2CServerConnectionFactory(http));
		}
		else {
			connector = new ServerConnector(server);
		}
		connector.setHost("127.0.0.1");
		connector.setPort(port);
		server.addConnector(connector);
		server.setHandler(new RoutesHandler());
		server.start();
		Routes.ready(connector.getLocalPort());
		server.join();
	}

	/** The three routes; blocking invocation type, so fib(30) runs on a pool thread. */
	static final class RoutesHandler extends Handler.Abstract {

		@Override
		public boolean handle(Request request, Response response, Callback callback) {
			switch (request.getHttpURI().getPath()) {
				case Routes.HELLO_PATH -> send(response, callback, Routes.TEXT, Routes.HELLO);
				case Routes.USER_PATH -> send(response, callback, Routes.JSON, Routes.USER);
				case Routes.COMPUTE_PATH -> send(response, callback, Routes.TEXT, Routes.compute());
				default -> Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
			}
			return true;
		}

		private static void send(Response response, Callback callback, String contentType, byte[] body) {
			response.setStatus(HttpStatus.OK_200);
			response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
			response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
			response.write(true, ByteBuffer.wrap(body), callback);
		}

	}

}
