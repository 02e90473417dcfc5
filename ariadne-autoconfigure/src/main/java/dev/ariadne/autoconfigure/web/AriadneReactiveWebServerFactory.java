package dev.ariadne.autoconfigure.web;

import java.util.Objects;

import jakarta.servlet.ServletRegistration;

import dev.ariadne.autoconfigure.AriadneServerProperties.WebfluxAdapter;

import dev.ariadne.servlet.ServletDeployment;

import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.ConfigurableReactiveWebServerFactory;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServletHttpHandlerAdapter;

/**
 * A {@link ConfigurableReactiveWebServerFactory} that serves a Spring WebFlux application with
 * Ariadne: the application's {@link HttpHandler} runs on Ariadne's exchange directly
 * ({@link ReactiveHandlerAdapter}), or with {@code ariadne.server.webflux.adapter=servlet}
 * through Spring's {@link ServletHttpHandlerAdapter} on Ariadne's servlet container, as Boot
 * runs WebFlux on Tomcat and Jetty; on one Ariadne listener in the I/O model and with the
 * pools of {@code ariadne.server.*}. Handlers run on Ariadne's workers, never on a selector thread.
 * {@link dev.ariadne.server.routing.Route} beans are served too, ahead of the handler.
 *
 * <p>A public top-level class with a public no-argument constructor, since Boot's management
 * child context creates one of its own for {@code management.server.port}.
 */
public class AriadneReactiveWebServerFactory extends AbstractAriadneWebServerFactory
		implements ConfigurableReactiveWebServerFactory {

	/** Name of the servlet that adapts the application's {@link HttpHandler}. */
	static final String HANDLER_SERVLET = "httpHandlerServlet";

	private WebfluxAdapter adapter = WebfluxAdapter.NATIVE;

	/**
	 * Creates a factory for port 8080 with Ariadne's defaults.
	 */
	public AriadneReactiveWebServerFactory() {
	}

	/**
	 * Creates a factory for a port with Ariadne's defaults.
	 * @param port the port, 0 for any free one
	 */
	public AriadneReactiveWebServerFactory(int port) {
		super(port);
	}

	@Override
	public String getServletContextPath() {
		// WebFlux applies spring.webflux.base-path in the handler itself
		return "";
	}

	/**
	 * Sets how the application's {@link HttpHandler} is served
	 * ({@code ariadne.server.webflux.adapter}).
	 * @param adapter {@code NATIVE} (the default) or {@code SERVLET}
	 */
	public void setAdapter(WebfluxAdapter adapter) {
		this.adapter = Objects.requireNonNull(adapter, "adapter");
	}

	@Override
	public WebServer getWebServer(HttpHandler httpHandler) {
		if (this.adapter == WebfluxAdapter.NATIVE) {
			return createWebServer(new ReactiveHandlerAdapter(httpHandler,
					new ReactiveHandlerAdapter.Settings(serverHeader(), compressionFilter())));
		}
		ServletHttpHandlerAdapter servlet = new ServletHttpHandlerAdapter(httpHandler);
		ServletDeployment deployment = deploymentBuilder().displayName("reactive").initializer((context) -> {
			ServletRegistration.Dynamic registration = context.addServlet(HANDLER_SERVLET, servlet);
			registration.setAsyncSupported(true);
			registration.setLoadOnStartup(0);
			registration.addMapping("/");
		}).build();
		return createWebServer(deployment);
	}

}
