package dev.ariadne.autoconfigure.web;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

import dev.ariadne.servlet.ServletDeployment;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.web.error.ErrorPage;
import org.springframework.boot.web.server.Cookie;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.servlet.ConfigurableServletWebServerFactory;
import org.springframework.boot.web.server.servlet.CookieSameSiteSupplier;
import org.springframework.boot.web.server.servlet.DocumentRoot;
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

	private static final Log logger = LogFactory.getLog(AriadneServletWebServerFactory.class);

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
		// the session cookie's own rule first, then the application's suppliers, as on Tomcat and Jetty
		Cookie.SameSite sessionSameSite = settings.getSession().getCookie().getSameSite();
		if (sessionSameSite != null) {
			deployment.sessionCookieSameSite(attribute(sessionSameSite));
		}
		List<? extends CookieSameSiteSupplier> sameSite = settings.getCookieSameSiteSuppliers();
		if (!sameSite.isEmpty()) {
			deployment.cookieSameSite((cookie) -> sameSite(sameSite, cookie));
		}
		deployment.documentRoot(documentRoot());
		if (settings.isRegisterDefaultServlet()) {
			deployment.defaultServlet();
		}
		for (ServletContextInitializer initializer : ServletContextInitializers.from(settings, initializers)) {
			deployment.initializer(initializer::onStartup);
		}
		for (String listener : settings.getWebListenerClassNames()) {
			deployment.initializer((context) -> context.addListener(listener));
		}
		return deployment.build();
	}

	/**
	 * Returns the document root as Tomcat and Jetty get it from Boot: the one set, else
	 * {@code src/main/webapp}, {@code public} or {@code static} of the working directory (or
	 * an exploded war's), else an empty directory of its own, so that
	 * {@code getResource("/")} names a directory as it does on those servers.
	 */
	private Path documentRoot() {
		DocumentRoot documentRoot = new DocumentRoot(logger);
		documentRoot.setDirectory(this.settings.getDocumentRoot());
		File root = documentRoot.getValidDirectory();
		if (root != null && !root.isDirectory()) {
			logger.warn("Document root " + root + " is an archive, which Ariadne does not serve from: "
					+ "the document root is an empty directory");
			root = null;
		}
		return ((root != null) ? root : createTempDir("ariadne-docbase")).toPath();
	}

	private static String sameSite(List<? extends CookieSameSiteSupplier> suppliers, jakarta.servlet.http.Cookie cookie) {
		for (CookieSameSiteSupplier supplier : suppliers) {
			Cookie.SameSite sameSite = supplier.getSameSite(cookie);
			if (sameSite != null) {
				return attribute(sameSite);
			}
		}
		return null;
	}

	/** The attribute's value; empty for {@link Cookie.SameSite#OMITTED}, which means none at all. */
	private static String attribute(Cookie.SameSite sameSite) {
		String value = sameSite.attributeValue();
		return (value != null) ? value : "";
	}

}
