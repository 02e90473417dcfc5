package dev.ariadne.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * Tomcat embedded with its defaults: NIO connector, 200 threads, maxConnections 8192,
 * acceptCount 100, maxKeepAliveRequests 100; one plain servlet serves the routes.
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
		tomcat.setConnector(connector);
		Context context = tomcat.addContext("", baseDir.toString());
		Tomcat.addServlet(context, "routes", new RoutesServlet());
		context.addServletMappingDecoded("/", "routes");
		tomcat.start();
		Routes.ready(connector.getLocalPort());
		tomcat.getServer().await();
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
