package dev.ariadne.autoconfigure.web;

import java.util.List;

import dev.ariadne.servlet.ServletDeployment;

import org.springframework.boot.web.error.ErrorPage;
import org.springframework.boot.web.server.Cookie;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.servlet.ConfigurableServletWebServerFactory;
import org.springframework.boot.web.server.servlet.CookieSameSiteSupplier;
import org.springframework.boot.web.server.servlet.ServletContextInitializers;
import org.springframework.boot.web.server.servlet.ServletWebServerSettings;
import org.springframework.boot.web.servlet.ServletContextInitializer;

/**
 * A {@link ConfigurableServletWebServerFactory} that serves a Spring servlet application
 * (Spring MVC, Spring Security, Actuator) with Ariadne: its servlet container on one Ariadne
 * listener, in the I/O model and with the pools of {@code ariadne.server.*}.
 * {@link dev.ariadne.server.routing.Route} beans are served too, ahead of the servlet chain.
 *
 * <p>Boot's {@code server.*} properties are applied by Boot's own customizer, Ariadne's by
 * {@code AriadneServletWebServerAutoConfiguration}. A public top-level class with a public
 * no-argument constructor, since Boot's management child context creates one of its own for
 * {@code management.server.port}.
 */
public class AriadneServletWebServerFactory extends AbstractAriadneWebServerFactory
		implements ConfigurableServletWebServerFactory {

	private final ServletWebServerSettings settings = new ServletWebServerSettings();

	/**
	 * Creates a factory for port 8080 with Ariadne's defaults.
	 */
	public AriadneServletWebServerFactory() {
	}

	/**
	 * Creates a factory for a port with Ariadne's defaults.
	 * @param port the port, 0 for any free one
	 */
	public AriadneServletWebServerFactory(int port) {
		super(port);
	}

	@Override
	public ServletWebServerSettings getSettings() {
		return this.settings;
	}

	@Override
	public String getServletContextPath() {
		return this.settings.getContextPath().toString();
	}

	@Override
	public WebServer getWebServer(ServletContextInitializer... initializers) {
		return createWebServer(deployment(initializers));
	}

	private ServletDeployment deployment(ServletContextInitializer... initializers) {
		ServletWebServerSettings settings = this.settings;
		ServletDeployment.Builder deployment = deploymentBuilder().contextPath(getServletContextPath());
		if (settings.getDisplayName() != null) {
			deployment.displayName(settings.getDisplayName());
		}
		if (settings.getSession().getTimeout() != null) {
			deployment.sessionTimeout(settings.getSession().getTimeout());
		}
		if (settings.getSession().isPersistent()) {
			// server.servlet.session.store-dir, else a directory of Boot's application temp
			deployment.persistentSessions(settings.getSession().getSessionStoreDirectory().getValidDirectory(true).toPath());
		}
		// Boot's table is its defaults and the application's mappings: exactly what Tomcat answers
		deployment.withoutDefaultMimeMappings();
		settings.getMimeMappings()
			.forEach((mapping) -> deployment.mimeMapping(mapping.getExtension(), mapping.getMimeType()));
		settings.getLocaleCharsetMappings().forEach(deployment::localeCharset);
		for (ErrorPage page : getErrorPages()) {
			if (page.isGlobal()) {
				deployment.globalErrorPage(page.getPath());
			}
			else if (page.getStatus() != null) {
				deployment.errorPage(page.getStatusCode(), page.getPath());
			}
			else if (page.getException() != null) {
				deployment.errorPage(page.getException(), page.getPath());
			}
		}
		List<? extends CookieSameSiteSupplier> sameSite = settings.getCookieSameSiteSuppliers();
		if (!sameSite.isEmpty()) {
			deployment.cookieSameSite((cookie) -> sameSite(sameSite, cookie));
		}
		if (settings.getDocumentRoot() != null) {
			deployment.documentRoot(settings.getDocumentRoot().toPath());
		}
		for (ServletContextInitializer initializer : ServletContextInitializers.from(settings, initializers)) {
			deployment.initializer(initializer::onStartup);
		}
		for (String listener : settings.getWebListenerClassNames()) {
			deployment.initializer((context) -> context.addListener(listener));
		}
		return deployment.build();
	}

	private static String sameSite(List<? extends CookieSameSiteSupplier> suppliers, jakarta.servlet.http.Cookie cookie) {
		for (CookieSameSiteSupplier supplier : suppliers) {
			Cookie.SameSite sameSite = supplier.getSameSite(cookie);
			if (sameSite != null) {
				return sameSite.attributeValue();
			}
		}
		return null;
	}

}
