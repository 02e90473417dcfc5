package dev.ariadne.bench;

import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.websocket.jakarta.server.config.JakartaWebSocketServletContainerInitializer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Jetty with its defaults and its Jakarta WebSocket container (EE 11, as Boot's Jetty factory
 * installs it), serving {@link JakartaEcho}: Autobahn's reference beside Ariadne.
 */
final class JettyWebSocket {

	private JettyWebSocket() {
	}

	public static void main(String[] args) throws Exception {
		Server server = new Server();
		ServerConnector connector = new ServerConnector(server);
		connector.setHost("127.0.0.1");
		connector.setPort(Integer.parseInt(args[0]));
		server.addConnector(connector);
		ServletContextHandler context = new ServletContextHandler();
		context.setContextPath("/");
		JakartaWebSocketServletContainerInitializer.configure(context,
				(servletContext, container) -> container.addEndpoint(JakartaEcho.config()));
		server.setHandler(context);
		server.start();
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			try {
				server.stop();
			}
			catch (Exception ex) {
				// stopping anyway
			}
		}));
		Routes.ready(connector.getLocalPort());
		server.join();
	}

}
