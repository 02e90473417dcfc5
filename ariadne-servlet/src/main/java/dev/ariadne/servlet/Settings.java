package dev.ariadne.servlet;

import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;

import dev.ariadne.server.ContentLimits;

/**
 * What a {@link ServletDeployment.Builder} collected; fixed when the deployment is built.
 *
 * @param contextPath {@code ""} or {@code /name}
 * @param displayName the context's name
 * @param serverInfo {@code ServletContext.getServerInfo()}
 * @param initParameters the context's init parameters
 * @param mimeTypes the media types by extension
 * @param localeCharsets the charsets {@code setLocale} picks for a response
 * @param errorPages the error pages
 * @param sessionTimeout the session timeout; zero or negative for none
 * @param sessionSweepInterval how often expired sessions are removed
 * @param initializers run in order at start
 * @param classLoader loads classes registered by name
 * @param tempDirectory the context's temporary directory, or {@code null} to create one
 * @param routeNamer the route value reported for a request's metrics, or {@code null}
 * @param sameSiteSuppliers give the {@code SameSite} value of a response cookie
 * @param documentRoot static resources, or {@code null} for none
 * @param contentLimits what a request may make the container parse: parameters, form body,
 * cookies, multipart parts
 * @param serverHeader the {@code Server} header of every response, or {@code null} for none
 * @param sessionStore the directory where sessions wait across a restart, or {@code null} for
 * sessions that end with the deployment
 * @param defaultServlet whether the container's default servlet serves the document root
 * @param sessionCookieSameSite the session cookie's {@code SameSite}, asked before the suppliers:
 * {@code null} when it has no rule of its own, empty for none at all
 */
record Settings(String contextPath, String displayName, String serverInfo, Map<String, String> initParameters,
		MimeTypes mimeTypes, Map<Locale, Charset> localeCharsets, ErrorPages errorPages, Duration sessionTimeout,
		Duration sessionSweepInterval, List<ServletStartup> initializers, ClassLoader classLoader, Path tempDirectory,
		Function<HttpServletRequest, String> routeNamer, List<Function<Cookie, String>> sameSiteSuppliers,
		DocumentRoot documentRoot, ContentLimits contentLimits, String serverHeader, Path sessionStore,
		boolean defaultServlet, String sessionCookieSameSite) {
}
