package dev.ariadne.bench;

import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.websocket.server.ServerContainer;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.websocket.server.WsSci;

/**
 * Tomcat embedded with its defaults and its own Jakarta WebSocket container ({@code WsSci}, as
 * Boot installs it), serving {@link JakartaEcho}: Autobahn's reference beside Ariadne.
 */
final class TomcatWebSocket {

	private TomcatWebSocket() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		Path baseDir = Files.createTempDirectory("ariadne-bench-tomcat-ws");
		baseDir.toFile().deleteOnExit();
		Tomcat tomcat = new Tomcat();
		tomcat.setBaseDir(baseDir.toString());
		Connector connector = new Connector("HTTP/1.1");
		connector.setPort(port);
		connector.setProperty("address", "127.0.0.1");
		tomcat.setConnector(connector);
		Context context = tomcat.addContext("", baseDir.toString());
		context.addServletContainerInitializer(new WsSci(), null);
		// the container's filter upgrades a request only where some servlet maps it
		Tomcat.addServlet(context, "none", new jakarta.servlet.http.HttpServlet() {
			private static final long serialVersionUID = 1L;
		});
		context.addServletMappingDecoded("/", "none");
		context.addApplicationListener(EndpointRegistration.class.getName());
		tomcat.start();
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			try {
				tomcat.stop();
			}
			catch (Exception ex) {
				// stopping anyway
			}
		}));
		Routes.ready(connector.getLocalPort());
		tomcat.getServer().await();
	}

	/** Registers the echo once the container is in the servlet context. */
	public static final class EndpointRegistration implements jakarta.servlet.ServletContextListener {

		@Override
		public void contextInitialized(jakarta.servlet.ServletContextEvent event) {
			ServerContainer container = (ServerContainer) event.getServletContext()
				.getAttribute(ServerContainer.class.getName());
			try {
				container.addEndpoint(JakartaEcho.config());
			}
			catch (jakarta.websocket.DeploymentException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
