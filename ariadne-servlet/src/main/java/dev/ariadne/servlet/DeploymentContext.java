package dev.ariadne.servlet;

import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.EnumSet;
import java.util.EventListener;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.descriptor.JspConfigDescriptor;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The {@link ServletContext} of a deployment, and the registry behind it: servlets, filters
 * and their mappings, listeners, attributes, init parameters, error pages and sessions.
 *
 * <p>Registrations are open until the context is initialised (the end of
 * {@link ServletDeployment#start()}); after that the mapping and filter tables are fixed and
 * read without locks by request threads.
 */
final class DeploymentContext implements ServletContext {

	private static final Logger logger = System.getLogger(ServletContext.class.getName());

	private static final Set<SessionTrackingMode> DEFAULT_TRACKING = Collections
		.unmodifiableSet(EnumSet.of(SessionTrackingMode.COOKIE, SessionTrackingMode.URL));

	enum State {

		NEW, STARTING, STARTED, STOPPED

	}

	private final Settings settings;

	private final Map<String, Object> attributes = new ConcurrentHashMap<>();

	private final Map<String, String> initParameters = new LinkedHashMap<>();

	private final ContextListeners listeners = new ContextListeners();

	private final SessionCookieSettings sessionCookie = new SessionCookieSettings(this);

	private final Registry registry;

	private final SessionStore sessions;

	private volatile State state = State.NEW;

	private Set<SessionTrackingMode> trackingModes = DEFAULT_TRACKING;

	private int sessionTimeoutSeconds;

	private String requestEncoding;

	private String responseEncoding;

	DeploymentContext(Settings settings) {
		this.settings = settings;
		this.initParameters.putAll(settings.initParameters());
		this.sessionTimeoutSeconds = (int) Math.min(Integer.MAX_VALUE, Math.max(0, settings.sessionTimeout().toSeconds()));
		this.registry = new Registry(new ServletEntry(this, "ariadne-not-found", new NotFoundServlet(), null,
				NotFoundServlet.class.getName()));
		this.sessions = new SessionStore(this);
	}

	// ---- internal API

	Settings settings() {
		return this.settings;
	}

	ContextListeners listeners() {
		return this.listeners;
	}

	SessionStore sessions() {
		return this.sessions;
	}

	SessionCookieSettings sessionCookie() {
		return this.sessionCookie;
	}

	ErrorPages errorPages() {
		return this.settings.errorPages();
	}

	State state() {
		return this.state;
	}

	void state(State state) {
		this.state = state;
	}

	/**
	 * Throws unless the context is still being set up.
	 * @param action what the caller tried, for the message
	 */
	void checkNotInitialized(String action) {
		State current = this.state;
		if (current == State.STARTED || current == State.STOPPED) {
			throw new IllegalStateException("Cannot " + action + ": the servlet context '" + getServletContextName()
					+ "' is already initialized");
		}
	}

	/**
	 * Returns the session timeout in seconds, as sessions start with it.
	 * @return the timeout, 0 for sessions that never expire
	 */
	int sessionTimeoutSeconds() {
		return this.sessionTimeoutSeconds;
	}

	Registry registry() {
		return this.registry;
	}

	ServletMapper mapper() {
		return this.registry.mapper();
	}

	/**
	 * Returns the charset mapped to a locale, by language and country, then language.
	 * @param locale the locale
	 * @return the charset, or {@code null}
	 */
	Charset charsetFor(Locale locale) {
		Map<Locale, Charset> mappings = this.settings.localeCharsets();
		Charset charset = mappings.get(locale);
		if (charset == null && !locale.getCountry().isEmpty()) {
			charset = mappings.get(new Locale(locale.getLanguage()));
		}
		return charset;
	}

	/**
	 * Returns the {@code SameSite} value for a cookie: the session cookie's own rule for the
	 * session cookie, else what the first configured supplier gives.
	 * @param cookie the cookie
	 * @return the value, empty for none, or {@code null} when no rule applies
	 */
	String sameSite(Cookie cookie) {
		String session = this.settings.sessionCookieSameSite();
		if (session != null && cookie.getName().equals(this.sessionCookie.getName())) {
			return session;
		}
		for (Function<Cookie, String> supplier : this.settings.sameSiteSuppliers()) {
			String value = supplier.apply(cookie);
			if (value != null) {
				return value;
			}
		}
		return null;
	}

	Function<HttpServletRequest, String> routeNamer() {
		return this.settings.routeNamer();
	}

	// ---- ServletContext

	@Override
	public String getContextPath() {
		return this.settings.contextPath();
	}

	@Override
	public ServletContext getContext(String uripath) {
		if (uripath == null || !uripath.startsWith("/")) {
			return null;
		}
		String contextPath = getContextPath();
		boolean inside = contextPath.isEmpty() || uripath.equals(contextPath) || uripath.startsWith(contextPath + "/");
		return inside ? this : null;
	}

	@Override
	public int getMajorVersion() {
		return 6;
	}

	@Override
	public int getMinorVersion() {
		return 1;
	}

	@Override
	public int getEffectiveMajorVersion() {
		return 6;
	}

	@Override
	public int getEffectiveMinorVersion() {
		return 1;
	}

	@Override
	public String getMimeType(String file) {
		return this.settings.mimeTypes().forFile(file);
	}

	@Override
	public Set<String> getResourcePaths(String path) {
		DocumentRoot root = this.settings.documentRoot();
		return (root != null) ? root.paths(path) : null;
	}

	@Override
	public URL getResource(String path) throws MalformedURLException {
		if (path == null || !path.startsWith("/")) {
			throw new MalformedURLException("Resource path must start with /, was '" + path + "'");
		}
		DocumentRoot root = this.settings.documentRoot();
		return (root != null) ? root.url(path) : null;
	}

	@Override
	public InputStream getResourceAsStream(String path) {
		DocumentRoot root = this.settings.documentRoot();
		return (root != null) ? root.open(path) : null;
	}

	@Override
	public RequestDispatcher getRequestDispatcher(String path) {
		if (path == null || !path.startsWith("/")) {
			return null;
		}
		return ServletDispatcher.forPath(this, path);
	}

	@Override
	public RequestDispatcher getNamedDispatcher(String name) {
		ServletEntry servlet = (name != null) ? this.registry.servlet(name) : null;
		return (servlet != null) ? ServletDispatcher.named(this, servlet) : null;
	}

	@Override
	public void log(String msg) {
		logger.log(Level.INFO, "[" + getServletContextName() + "] " + msg);
	}

	@Override
	public void log(String message, Throwable throwable) {
		logger.log(Level.WARNING, "[" + getServletContextName() + "] " + message, throwable);
	}

	@Override
	public String getRealPath(String path) {
		DocumentRoot root = this.settings.documentRoot();
		return (root != null) ? root.realPath(path) : null;
	}

	@Override
	public String getServerInfo() {
		return this.settings.serverInfo();
	}

	@Override
	public String getInitParameter(String name) {
		if (name == null) {
			throw new NullPointerException("Init parameter name must not be null");
		}
		synchronized (this.initParameters) {
			return this.initParameters.get(name);
		}
	}

	@Override
	public Enumeration<String> getInitParameterNames() {
		synchronized (this.initParameters) {
			return Collections.enumeration(new ArrayList<>(this.initParameters.keySet()));
		}
	}

	@Override
	public boolean setInitParameter(String name, String value) {
		if (name == null) {
			throw new NullPointerException("Init parameter name must not be null");
		}
		checkNotInitialized("set init parameter '" + name + "'");
		synchronized (this.initParameters) {
			return this.initParameters.putIfAbsent(name, value) == null;
		}
	}

	@Override
	public Object getAttribute(String name) {
		if (name == null) {
			throw new NullPointerException("Attribute name must not be null");
		}
		return this.attributes.get(name);
	}

	@Override
	public Enumeration<String> getAttributeNames() {
		return Collections.enumeration(new ArrayList<>(this.attributes.keySet()));
	}

	@Override
	public void setAttribute(String name, Object object) {
		if (name == null) {
			throw new NullPointerException("Attribute name must not be null");
		}
		if (object == null) {
			removeAttribute(name);
			return;
		}
		Object old = this.attributes.put(name, object);
		this.listeners.contextAttribute(this, name, old, object);
	}

	@Override
	public void removeAttribute(String name) {
		Object old = this.attributes.remove(name);
		if (old != null) {
			this.listeners.contextAttribute(this, name, old, null);
		}
	}

	@Override
	public String getServletContextName() {
		return this.settings.displayName();
	}

	@Override
	public ServletRegistration.Dynamic addServlet(String servletName, String className) {
		return addServlet(servletName, null, null, className);
	}

	@Override
	public ServletRegistration.Dynamic addServlet(String servletName, Servlet servlet) {
		if (servlet == null) {
			throw new IllegalArgumentException("Servlet '" + servletName + "' is null");
		}
		return addServlet(servletName, servlet, null, servlet.getClass().getName());
	}

	@Override
	public ServletRegistration.Dynamic addServlet(String servletName, Class<? extends Servlet> servletClass) {
		return addServlet(servletName, null, servletClass, servletClass.getName());
	}

	private ServletRegistration.Dynamic addServlet(String name, Servlet servlet, Class<? extends Servlet> type,
			String className) {
		checkNotInitialized("add servlet '" + name + "'");
		if (name == null || name.isEmpty()) {
			throw new IllegalArgumentException("A servlet needs a name");
		}
		return this.registry.add(new ServletEntry(this, name, servlet, type, className));
	}

	@Override
	public ServletRegistration.Dynamic addJspFile(String servletName, String jspFile) {
		throw new UnsupportedOperationException("JSP is not supported by Ariadne (servlet '" + servletName + "')");
	}

	@Override
	public <T extends Servlet> T createServlet(Class<T> clazz) throws ServletException {
		return create(clazz);
	}

	@Override
	public ServletRegistration getServletRegistration(String servletName) {
		return this.registry.servlet(servletName);
	}

	@Override
	public Map<String, ? extends ServletRegistration> getServletRegistrations() {
		return this.registry.servletMap();
	}

	@Override
	public FilterRegistration.Dynamic addFilter(String filterName, String className) {
		return addFilter(filterName, null, null, className);
	}

	@Override
	public FilterRegistration.Dynamic addFilter(String filterName, Filter filter) {
		if (filter == null) {
			throw new IllegalArgumentException("Filter '" + filterName + "' is null");
		}
		return addFilter(filterName, filter, null, filter.getClass().getName());
	}

	@Override
	public FilterRegistration.Dynamic addFilter(String filterName, Class<? extends Filter> filterClass) {
		return addFilter(filterName, null, filterClass, filterClass.getName());
	}

	private FilterRegistration.Dynamic addFilter(String name, Filter filter, Class<? extends Filter> type,
			String className) {
		checkNotInitialized("add filter '" + name + "'");
		if (name == null || name.isEmpty()) {
			throw new IllegalArgumentException("A filter needs a name");
		}
		return this.registry.add(new FilterEntry(this, name, filter, type, className));
	}

	@Override
	public <T extends Filter> T createFilter(Class<T> clazz) throws ServletException {
		return create(clazz);
	}

	@Override
	public FilterRegistration getFilterRegistration(String filterName) {
		return this.registry.filter(filterName);
	}

	@Override
	public Map<String, ? extends FilterRegistration> getFilterRegistrations() {
		return this.registry.filterMap();
	}

	@Override
	public SessionCookieConfig getSessionCookieConfig() {
		return this.sessionCookie;
	}

	@Override
	public void setSessionTrackingModes(Set<SessionTrackingMode> sessionTrackingModes) {
		checkNotInitialized("set the session tracking modes");
		if (sessionTrackingModes == null || sessionTrackingModes.isEmpty()) {
			this.trackingModes = DEFAULT_TRACKING;
			return;
		}
		if (sessionTrackingModes.contains(SessionTrackingMode.SSL)) {
			throw new IllegalArgumentException("Session tracking mode SSL is not supported");
		}
		this.trackingModes = Collections.unmodifiableSet(EnumSet.copyOf(sessionTrackingModes));
	}

	@Override
	public Set<SessionTrackingMode> getDefaultSessionTrackingModes() {
		return DEFAULT_TRACKING;
	}

	@Override
	public Set<SessionTrackingMode> getEffectiveSessionTrackingModes() {
		return this.trackingModes;
	}

	@Override
	public void addListener(String className) {
		try {
			Class<?> type = Class.forName(className, true, getClassLoader());
			if (!EventListener.class.isAssignableFrom(type)) {
				throw new IllegalArgumentException("Class " + className + " is not an EventListener");
			}
			addListener(type.asSubclass(EventListener.class));
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalArgumentException("Listener class " + className + " not found", ex);
		}
	}

	@Override
	public <T extends EventListener> void addListener(T t) {
		checkNotInitialized("add listener " + t.getClass().getName());
		this.listeners.add(t);
	}

	@Override
	public void addListener(Class<? extends EventListener> listenerClass) {
		try {
			addListener(createListener(listenerClass));
		}
		catch (ServletException ex) {
			throw new IllegalArgumentException(ex.getMessage(), ex);
		}
	}

	@Override
	public <T extends EventListener> T createListener(Class<T> clazz) throws ServletException {
		if (!ContextListeners.isSupportedType(clazz)) {
			throw new IllegalArgumentException("Listener class " + clazz.getName()
					+ " implements none of the supported listener interfaces");
		}
		return create(clazz);
	}

	private static <T> T create(Class<T> type) throws ServletException {
		try {
			return type.getDeclaredConstructor().newInstance();
		}
		catch (ReflectiveOperationException ex) {
			throw new ServletException("Cannot create an instance of " + type.getName()
					+ " with a public no-argument constructor: " + ex, ex);
		}
	}

	@Override
	public JspConfigDescriptor getJspConfigDescriptor() {
		return null;
	}

	@Override
	public ClassLoader getClassLoader() {
		return this.settings.classLoader();
	}

	@Override
	public void declareRoles(String... roleNames) {
		checkNotInitialized("declare roles");
	}

	@Override
	public String getVirtualServerName() {
		return "ariadne";
	}

	@Override
	public int getSessionTimeout() {
		return this.sessionTimeoutSeconds / 60;
	}

	@Override
	public void setSessionTimeout(int sessionTimeout) {
		checkNotInitialized("set the session timeout");
		this.sessionTimeoutSeconds = (int) Math.min(Integer.MAX_VALUE, Math.max(0, sessionTimeout * 60L));
	}

	@Override
	public String getRequestCharacterEncoding() {
		return this.requestEncoding;
	}

	@Override
	public void setRequestCharacterEncoding(String encoding) {
		checkNotInitialized("set the request character encoding");
		this.requestEncoding = encoding;
	}

	@Override
	public String getResponseCharacterEncoding() {
		return this.responseEncoding;
	}

	@Override
	public void setResponseCharacterEncoding(String encoding) {
		checkNotInitialized("set the response character encoding");
		this.responseEncoding = encoding;
	}

	@Override
	public String toString() {
		return "ServletContext[" + getServletContextName() + ", '" + getContextPath() + "']";
	}

}
