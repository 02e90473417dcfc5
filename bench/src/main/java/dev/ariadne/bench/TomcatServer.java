package dev.ariadne.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http2.Http2Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;

/**
 * Tomcat embedded with its defaults: NIO connector, 200 threads, maxConnections 8192,
 * acceptCount 100, maxKeepAliveRequests 100; one plain servlet serves the routes. With
 * {@link BenchTls}, TLS on JSSE; with {@link BenchHttp2}, its {@link Http2Protocol}.
 */
final class TomcatServer {

	private TomcatServer() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		Path baseDir = Files.createTempDirectory("ariadne-bench-tomcat");
		Tomcat tomcat = new Tomcat();
		tomcat.setBaseDir(baseDir.toString());
		Connector connector = new Connector("HTTP/1.1");
		connector.setPort(port);
		connector.setProperty("address", "127.0.0.1");
		if (BenchTls.enabled()) {
			// JSSE, as Ariadne and Jetty: the same provider for every server
			connector.setSecure(true);
			connector.setScheme("https");
			connector.setProperty("SSLEnabled", "true");
			connector.setProperty("sslImplementationName", "org.apache.tomcat.util.net.jsse.JSSEImplementation");
			SSLHostConfig ssl = new SSLHostConfig();
			ssl.setProtocols("TLSv1.3+TLSv1.2");
			SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(ssl,
					SSLHostConfigCertificate.Type.UNDEFINED);
			certificate.setCertificateKeystoreFile(BenchTls.keyStore());
			certificate.setCertificateKeystorePassword(BenchTls.password());
			certificate.setCertificateKeystoreType("PKCS12");
			ssl.addCertificate(certificate);
			connector.addSslHostConfig(ssl);
		}
		if (BenchHttp2.enabled()) {
			// as Boot's Tomcat factory does for server.http2.enabled: h2c by prior knowledge or Upgrade
			// beside HTTP/1.1 without TLS, h2 by ALPN with it (the upgrade protocol names h2 to JSSE)
			connector.addUpgradeProtocol(new Http2Protocol());
		}
		tomcat.setConnector(connector);
		Context context = tomcat.addContext("", baseDir.toString());
		Tomcat.addServlet(context, "routes", new RoutesServlet());
		context.addServletMappingDecoded("/", "routes");
		tomcat.start();
		// the harness stops a server with SIGTERM: leave no base directory behind in /tmp
		Runtime.getRuntime().addShutdownHook(new Thread(() -> stopAndDelete(tomcat, baseDir)));
		Routes.ready(connector.getLocalPort());
		tomcat.getServer().await();
	}

	private static void stopAndDelete(Tomcat tomcat, Path baseDir) {
		try {
			tomcat.stop();
			tomcat.destroy();
		}
		catch (Exception ex) {
			// stopping anyway; the directory goes regardless
		}
		try (Stream<Path> paths = Files.walk(baseDir)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			System.err.println("Could not delete " + baseDir + ": " + ex);
		}
	}

	/** The three routes as a servlet mapped to "/" (the default servlet: every path). */
	static final class RoutesServlet extends HttpServlet {

		@Override
		protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
			switch (request.getRequestURI()) {
				case Routes.HELLO_PATH -> send(response, Routes.TEXT, Routes.HELLO);
				case Routes.USER_PATH -> send(response, Routes.JSON, Routes.USER);
				case Routes.COMPUTE_PATH -> send(response, Routes.TEXT, Routes.compute());
				default -> response.sendError(HttpServletResponse.SC_NOT_FOUND);
			}
		}

		private static void send(HttpServletResponse response, String contentType, byte[] body) throws IOException {
			response.setContentType(contentType);
			response.setContentLength(body.length);
			response.getOutputStream().write(body);
		}

	}

}
