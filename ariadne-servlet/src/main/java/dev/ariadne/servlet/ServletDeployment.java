package dev.ariadne.servlet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;

import dev.ariadne.http.Headers;
import dev.ariadne.server.ContentLimits;
import dev.ariadne.server.Handler;

/**
 * One servlet context and everything in it, served by an Ariadne server through
 * {@link #handler()}.
 *
 * <pre>{@code
 * ServletDeployment deployment = ServletDeployment.builder()
 *         .contextPath("/app")
 *         .initializer((context) -> context.addServlet("hello", new HelloServlet()).addMapping("/hello"))
 *         .globalErrorPage("/error")
 *         .build();
 * deployment.start();
 * AriadneServer server = AriadneServer.builder(config)
 *         .fallback(deployment.handler(), FallbackPools.DEFAULT)
 *         .build();
 * }</pre>
 *
 * <p>Lifecycle: built, then {@link #start()} once, then {@link #stop()} once. The servlet context
 * is available from the start for initializers that register things themselves. The handler
 * answers {@code 503} before the start and after the stop.
 */
public final class ServletDeployment {

	private final DeploymentContext context;

	private final ServletHandler handler;

	private final Object lifecycle = new Object();

	private Path createdTempDirectory;

	private ServletDeployment(Settings settings) {
		this.context = new DeploymentContext(settings);
		this.handler = new ServletHandler(this.context);
	}

	/**
	 * Returns a builder for a deployment.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Returns the servlet context, open for registrations until {@link #start()} has run.
	 * @return the context
	 */
	public ServletContext servletContext() {
		return this.context;
	}

	/**
	 * Starts the deployment: runs the initializers in order, tells the context listeners that
	 * the context is initialised, initialises the filters and the load-on-startup servlets (by
	 * ascending load-on-startup value), then serves requests.
	 * @throws ServletException if an initializer, listener, filter or servlet fails; the
	 * message names the one that did, and what was initialised is destroyed again
	 * @throws IllegalStateException if already started
	 */
	public void start() throws ServletException {
		start(true);
	}

	/**
	 * Starts the deployment as {@link #start()} does but for the load-on-startup servlets,
	 * which {@link #loadOnStartup()} initialises later: for a server that initialises them when
	 * it starts listening, as Spring Boot's servers do.
	 * @throws ServletException if an initializer, listener or filter fails
	 * @throws IllegalStateException if already started
	 */
	public void startDeferringLoadOnStartup() throws ServletException {
		start(false);
	}

	/**
	 * Initialises the load-on-startup servlets not initialised yet, by ascending load-on-startup
	 * value.
	 * @throws ServletException if a servlet fails; the message names it
	 * @throws IllegalStateException if the deployment is not started
	 */
	public void loadOnStartup() throws ServletException {
		if (this.context.state() != DeploymentContext.State.STARTED) {
			throw new IllegalStateException(this.context + " is not started");
		}
		initializeOnStartup();
	}

	private void initializeOnStartup() throws ServletException {
		List<ServletEntry> onStartup = new ArrayList<>();
		for (ServletEntry servlet : this.context.registry().servletEntries()) {
			if (servlet.loadOnStartup() >= 0) {
				onStartup.add(servlet);
			}
		}
		onStartup.sort(Comparator.comparingInt(ServletEntry::loadOnStartup));
		for (ServletEntry servlet : onStartup) {
			servlet.servlet();
		}
	}

	private void start(boolean loadOnStartup) throws ServletException {
		synchronized (this.lifecycle) {
			if (this.context.state() != DeploymentContext.State.NEW) {
				throw new IllegalStateException(this.context + " was already started");
			}
			this.context.state(DeploymentContext.State.STARTING);
			try {
				this.context.setAttribute(ServletContext.TEMPDIR, tempDirectory().toFile());
				if (this.context.settings().defaultServlet()) {
					DefaultServlet.register(this.context);
				}
				for (ServletStartup initializer : this.context.settings().initializers()) {
					initializer.onStartup(this.context);
				}
				this.context.listeners().contextInitialized(this.context);
				for (FilterEntry filter : this.context.registry().filterEntries()) {
					filter.initialize();
				}
				if (loadOnStartup) {
					initializeOnStartup();
				}
				this.context.mapper();
				this.context.state(DeploymentContext.State.STARTED);
				this.context.sessions().start();
			}
			catch (ServletException | RuntimeException ex) {
				destroyComponents();
				this.context.state(DeploymentContext.State.STOPPED);
				deleteTempDirectory();
				if (ex instanceof ServletException servletException) {
					throw servletException;
				}
				throw new ServletException("Starting " + this.context + " failed: " + ex.getMessage(), ex);
			}
		}
	}

	private Path tempDirectory() {
		Path configured = this.context.settings().tempDirectory();
		try {
			if (configured != null) {
				return Files.createDirectories(configured);
			}
			this.createdTempDirectory = Files.createTempDirectory("ariadne-servlet-");
			return this.createdTempDirectory;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot create the servlet context's temporary directory "
					+ ((configured != null) ? configured : "") + ": " + ex.getMessage(), ex);
		}
	}

	/**
	 * Returns the handler that serves requests whose path is under the context path; other
	 * paths get {@code 404}. Give it to {@code AriadneServer.Builder.fallback} so that
	 * {@code Route}s keep precedence.
	 * @return the handler
	 */
	public Handler handler() {
		return this.handler;
	}

	/**
	 * Stops the deployment: destroys the servlets and filters, invalidates the sessions and
	 * tells the context listeners that the context is destroyed. Requests still arriving get
	 * {@code 503}. Does nothing if not started or already stopped.
	 */
	public void stop() {
		synchronized (this.lifecycle) {
			if (this.context.state() != DeploymentContext.State.STARTED) {
				return;
			}
			this.context.state(DeploymentContext.State.STOPPED);
			destroyComponents();
			this.context.sessions().stop();
			this.context.listeners().contextDestroyed(this.context);
			deleteTempDirectory();
		}
	}

	private void destroyComponents() {
		List<ServletEntry> servlets = this.context.registry().servletEntries();
		for (int i = servlets.size() - 1; i >= 0; i--) {
			servlets.get(i).destroy();
		}
		List<FilterEntry> filters = this.context.registry().filterEntries();
		for (int i = filters.size() - 1; i >= 0; i--) {
			filters.get(i).destroy();
		}
	}

	private void deleteTempDirectory() {
		Path directory = this.createdTempDirectory;
		if (directory == null) {
			return;
		}
		this.createdTempDirectory = null;
		try (Stream<Path> files = Files.walk(directory)) {
			files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
		}
		catch (IOException ex) {
			this.context.log("Could not delete the temporary directory " + directory, ex);
		}
	}

	@Override
	public String toString() {
		return "ServletDeployment[" + this.context.getServletContextName() + ", '" + this.context.getContextPath()
				+ "']";
	}

	/**
	 * Collects the settings of a deployment.
	 */
	public static final class Builder {

		private String contextPath = "";

		private String displayName = "application";

		private String serverInfo = "Ariadne";

		private final Map<String, String> initParameters = new LinkedHashMap<>();

		private final MimeTypes mimeTypes = new MimeTypes();

		private final Map<Locale, Charset> localeCharsets = new LinkedHashMap<>();

		private final ErrorPages errorPages = new ErrorPages();

		private Duration sessionTimeout = Duration.ofMinutes(30);

		private Duration sessionSweepInterval = Duration.ofSeconds(10);

		private Path sessionStore;

		private final List<ServletStartup> initializers = new ArrayList<>();

		private ClassLoader classLoader;

		private Path tempDirectory;

		private Function<HttpServletRequest, String> routeNamer;

		private final List<Function<Cookie, String>> sameSiteSuppliers = new ArrayList<>();

		private String sessionCookieSameSite;

		private Path documentRoot;

		private ContentLimits contentLimits = ContentLimits.DEFAULTS;

		private String serverHeader;

		private boolean defaultServlet;

		private Builder() {
		}

		/**
		 * Sets the context path.
		 * @param contextPath {@code ""} for the root context (default) or {@code /name}, without
		 * a trailing slash
		 * @return this builder
		 * @throws IllegalArgumentException if the path has another form
		 */
		public Builder contextPath(String contextPath) {
			Objects.requireNonNull(contextPath, "contextPath");
			String path = contextPath.equals("/") ? "" : contextPath;
			if (!path.isEmpty() && (!path.startsWith("/") || path.endsWith("/") || path.contains("//")
					|| path.chars().anyMatch((c) -> c == '?' || c == '#' || c == ';' || c == '%' || c <= ' '))) {
				throw new IllegalArgumentException("Context path must be \"\" or start with / and not end with /, "
						+ "without ?, #, ;, % or spaces; was '" + contextPath + "'");
			}
			this.contextPath = path;
			return this;
		}

		/**
		 * Sets the display name, {@code ServletContext.getServletContextName()}.
		 * @param displayName the name, {@code application} unless set
		 * @return this builder
		 */
		public Builder displayName(String displayName) {
			this.displayName = Objects.requireNonNull(displayName, "displayName");
			return this;
		}

		/**
		 * Sets {@code ServletContext.getServerInfo()}.
		 * @param serverInfo the text, {@code Ariadne} unless set
		 * @return this builder
		 */
		public Builder serverInfo(String serverInfo) {
			this.serverInfo = Objects.requireNonNull(serverInfo, "serverInfo");
			return this;
		}

		/**
		 * Adds an init parameter of the context.
		 * @param name the name
		 * @param value the value
		 * @return this builder
		 */
		public Builder initParameter(String name, String value) {
			this.initParameters.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
			return this;
		}

		/**
		 * Drops the MIME mappings so far, the container's defaults included: {@code getMimeType}
		 * then knows only the ones given with {@link #mimeMapping} after this, for a caller that
		 * brings a whole table (Spring Boot's factory: its defaults and the application's).
		 * @return this builder
		 */
		public Builder withoutDefaultMimeMappings() {
			this.mimeTypes.clear();
			return this;
		}

		/**
		 * Maps a file extension to a media type for {@code getMimeType}, over the defaults.
		 * @param extension the extension, without the dot
		 * @param type the media type
		 * @return this builder
		 */
		public Builder mimeMapping(String extension, String type) {
			this.mimeTypes.add(extension, type);
			return this;
		}

		/**
		 * Maps a locale to the charset a response gets from {@code setLocale} when it has none.
		 * @param locale the locale (a language, or a language and country)
		 * @param charset the charset
		 * @return this builder
		 */
		public Builder localeCharset(Locale locale, Charset charset) {
			this.localeCharsets.put(Objects.requireNonNull(locale, "locale"), Objects.requireNonNull(charset, "charset"));
			return this;
		}

		/**
		 * Adds an error page for a status.
		 * @param status a 4xx or 5xx status
		 * @param path the page's path within the context, starting with {@code /}
		 * @return this builder
		 */
		public Builder errorPage(int status, String path) {
			this.errorPages.add(status, path);
			return this;
		}

		/**
		 * Adds an error page for an exception type and its subclasses.
		 * @param type the exception type
		 * @param path the page's path within the context, starting with {@code /}
		 * @return this builder
		 */
		public Builder errorPage(Class<? extends Throwable> type, String path) {
			this.errorPages.add(Objects.requireNonNull(type, "type"), path);
			return this;
		}

		/**
		 * Sets the error page for errors no other error page matches.
		 * @param path the page's path within the context, starting with {@code /}
		 * @return this builder
		 */
		public Builder globalErrorPage(String path) {
			this.errorPages.global(path);
			return this;
		}

		/**
		 * Sets how long a session lives without requests.
		 * @param timeout the timeout, 30 minutes unless set; zero or negative for sessions that
		 * never expire; rounded down to whole minutes for {@code getSessionTimeout()}
		 * @return this builder
		 */
		public Builder sessionTimeout(Duration timeout) {
			this.sessionTimeout = Objects.requireNonNull(timeout, "timeout");
			return this;
		}

		/**
		 * Keeps the sessions across a restart, as {@code server.servlet.session.persistent} asks:
		 * written to {@value SessionFile#NAME} in the directory when the deployment stops (their
		 * attributes told they passivate, none told the session is destroyed), read back and
		 * the file deleted when the next deployment with the same directory starts. Attributes
		 * that cannot be serialized are left out with a warning.
		 * @param directory where the sessions wait
		 * @return this builder
		 */
		public Builder persistentSessions(Path directory) {
			this.sessionStore = Objects.requireNonNull(directory, "directory");
			return this;
		}

		/**
		 * Sets how often a background thread removes expired sessions (a request never finds an
		 * expired session either way).
		 * @param interval the interval, 10 seconds unless set
		 * @return this builder
		 */
		public Builder sessionSweepInterval(Duration interval) {
			if (interval.isZero() || interval.isNegative()) {
				throw new IllegalArgumentException("Session sweep interval must be positive, was " + interval);
			}
			this.sessionSweepInterval = interval;
			return this;
		}

		/**
		 * Adds an initializer, run by {@link ServletDeployment#start()} after those added before.
		 * @param initializer the initializer
		 * @return this builder
		 */
		public Builder initializer(ServletStartup initializer) {
			this.initializers.add(Objects.requireNonNull(initializer, "initializer"));
			return this;
		}

		/**
		 * Sets the class loader that loads servlets, filters and listeners registered by class
		 * name.
		 * @param classLoader the class loader, the thread's context class loader unless set
		 * @return this builder
		 */
		public Builder classLoader(ClassLoader classLoader) {
			this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
			return this;
		}

		/**
		 * Sets the context's temporary directory ({@code jakarta.servlet.context.tempdir}), where
		 * large uploads are spooled.
		 * @param directory the directory, created if missing; a fresh one, deleted at stop,
		 * unless set
		 * @return this builder
		 */
		public Builder tempDirectory(Path directory) {
			this.tempDirectory = Objects.requireNonNull(directory, "directory");
			return this;
		}

		/**
		 * Sets how a finished request is named in the server's request events (the metrics
		 * {@code route} tag). Called after the response is complete; a {@code null} answer falls
		 * back to the servlet mapping's pattern, or {@code NOT_FOUND} for a 404. Values must come
		 * from a bounded set: patterns, never raw paths.
		 * @param routeNamer the namer, for example one reading Spring MVC's best-matching pattern
		 * @return this builder
		 */
		public Builder routeNamer(Function<HttpServletRequest, String> routeNamer) {
			this.routeNamer = Objects.requireNonNull(routeNamer, "routeNamer");
			return this;
		}

		/**
		 * Adds a supplier of the {@code SameSite} attribute of response cookies, asked after
		 * those added before; the first non-null answer wins, and an empty one means the cookie
		 * gets no {@code SameSite} attribute (Boot's {@code OMITTED}). A cookie's own
		 * {@code SameSite} attribute takes precedence, and so does the session cookie's rule
		 * ({@link #sessionCookieSameSite}) for the session cookie.
		 * @param supplier gives {@code Strict}, {@code Lax}, {@code None}, an empty string for
		 * none, or {@code null} to leave the cookie to the next supplier
		 * @return this builder
		 */
		public Builder cookieSameSite(Function<Cookie, String> supplier) {
			this.sameSiteSuppliers.add(Objects.requireNonNull(supplier, "supplier"));
			return this;
		}

		/**
		 * Sets the {@code SameSite} attribute of the session cookie (whatever name the context's
		 * {@code SessionCookieConfig} gives it when it is sent), asked before the
		 * {@link #cookieSameSite suppliers}, as {@code server.servlet.session.cookie.same-site}
		 * is on Tomcat and Jetty.
		 * @param sameSite {@code Strict}, {@code Lax}, {@code None}, an empty string for none, or
		 * {@code null} to leave the session cookie to the suppliers
		 * @return this builder
		 */
		public Builder sessionCookieSameSite(String sameSite) {
			this.sessionCookieSameSite = sameSite;
			return this;
		}

		/**
		 * Sets a directory served as the context's resources ({@code getResource},
		 * {@code getResourceAsStream}, {@code getResourcePaths}, {@code getRealPath}, and the
		 * files the {@link #defaultServlet() default servlet} serves); without one these answer
		 * {@code null}.
		 * @param directory the document root
		 * @return this builder
		 */
		public Builder documentRoot(Path directory) {
			this.documentRoot = Objects.requireNonNull(directory, "directory");
			return this;
		}

		/**
		 * Registers the container's default servlet, as Tomcat and Jetty register theirs (Boot's
		 * {@code server.servlet.register-default-servlet}): named {@code default}, mapped to
		 * {@code /} unless the application maps a servlet of its own there, it serves the files
		 * of the {@link #documentRoot document root} to the requests no other mapping takes and
		 * to those forwarded to it by name. Without it, such requests get 404.
		 * @return this builder
		 */
		public Builder defaultServlet() {
			this.defaultServlet = true;
			return this;
		}

		/**
		 * Sets what a request may make the container parse beyond its head, each checked before
		 * the work it bounds: the most parameters, query string and form body (or multipart
		 * fields) together, beyond which the request fails with {@code 400}; the largest
		 * {@code application/x-www-form-urlencoded} body parsed into parameters ({@code 413});
		 * the most cookies ({@code 400}); the most parts of a multipart body ({@code 400}) and
		 * the largest header section of one part ({@code 413}). The size of a part and of a
		 * multipart request are the servlet's own ({@code MultipartConfigElement}).
		 * @param limits the limits, {@link ContentLimits#DEFAULTS} unless set
		 * @return this builder
		 */
		public Builder contentLimits(ContentLimits limits) {
			this.contentLimits = Objects.requireNonNull(limits, "limits");
			return this;
		}

		/**
		 * Sets a {@code Server} header for every response of the deployment that does not set
		 * one itself.
		 * @param value the header value, or {@code null} (default) for none
		 * @return this builder
		 */
		public Builder serverHeader(String value) {
			if (value != null) {
				Headers.validate("Server", value);
			}
			this.serverHeader = value;
			return this;
		}

		/**
		 * Builds the deployment, not yet started.
		 * @return the deployment
		 */
		public ServletDeployment build() {
			ClassLoader loader = this.classLoader;
			if (loader == null) {
				loader = Thread.currentThread().getContextClassLoader();
			}
			if (loader == null) {
				loader = ServletDeployment.class.getClassLoader();
			}
			DocumentRoot root = (this.documentRoot != null) ? new DocumentRoot(this.documentRoot) : null;
			return new ServletDeployment(new Settings(this.contextPath, this.displayName, this.serverInfo,
					Map.copyOf(this.initParameters), this.mimeTypes, Map.copyOf(this.localeCharsets), this.errorPages,
					this.sessionTimeout, this.sessionSweepInterval, List.copyOf(this.initializers), loader,
					this.tempDirectory, this.routeNamer, List.copyOf(this.sameSiteSuppliers), root, this.contentLimits,
					this.serverHeader, this.sessionStore, this.defaultServlet, this.sessionCookieSameSite));
		}

	}

}
