package dev.ariadne.servlet;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletSecurityElement;

/**
 * A registered servlet: its registration, its config, and its instance, created and
 * initialised once (at start for load-on-startup servlets, otherwise on first use).
 */
final class ServletEntry extends Registered implements ServletRegistration.Dynamic, ServletConfig {

	private final Set<String> mappings = new LinkedHashSet<>();

	private final Object lock = new Object();

	private Servlet instance;

	private Class<? extends Servlet> type;

	private int loadOnStartup = -1;

	private MultipartConfigElement multipartConfig;

	private String runAsRole;

	private volatile boolean initialized;

	private boolean overridable;

	ServletEntry(DeploymentContext context, String name, Servlet instance, Class<? extends Servlet> type,
			String className) {
		super(context, name, className);
		this.instance = instance;
		this.type = type;
	}

	/**
	 * Returns the initialised servlet, creating and initialising it on first use.
	 * @return the servlet
	 * @throws ServletException if it cannot be created or its {@code init} fails, naming it
	 */
	Servlet servlet() throws ServletException {
		if (this.initialized) {
			return this.instance;
		}
		synchronized (this.lock) {
			if (!this.initialized) {
				Servlet servlet = this.instance;
				if (servlet == null) {
					servlet = instantiate(Servlet.class, this.type);
				}
				try {
					servlet.init(this);
				}
				catch (ServletException | RuntimeException ex) {
					throw new ServletException("Servlet '" + getName() + "' failed to initialize: " + ex.getMessage(),
							ex);
				}
				this.instance = servlet;
				this.initialized = true;
			}
			return this.instance;
		}
	}

	/** Destroys the servlet if it was initialised. */
	void destroy() {
		synchronized (this.lock) {
			if (this.initialized) {
				this.initialized = false;
				try {
					this.instance.destroy();
				}
				catch (RuntimeException ex) {
					context().log("Servlet '" + getName() + "' failed in destroy()", ex);
				}
			}
		}
	}

	/** Whether another servlet may take this one's URL patterns (the container's default servlet). */
	boolean overridable() {
		return this.overridable;
	}

	/** Lets other servlets take this one's URL patterns, as Tomcat lets them take its default servlet's. */
	void overridable(boolean overridable) {
		this.overridable = overridable;
	}

	/** The mapping set itself, for the registry and for tests that build a mapper without a started context. */
	Set<String> mappings() {
		return this.mappings;
	}

	int loadOnStartup() {
		return this.loadOnStartup;
	}

	MultipartConfigElement multipartConfig() {
		return this.multipartConfig;
	}

	@Override
	public Set<String> addMapping(String... urlPatterns) {
		context().checkNotInitialized("add a mapping to servlet '" + getName() + "'");
		if (urlPatterns == null || urlPatterns.length == 0) {
			throw new IllegalArgumentException("No URL pattern given for servlet '" + getName() + "'");
		}
		for (String pattern : urlPatterns) {
			ServletMapper.validate(pattern);
		}
		return context().registry().claim(this, urlPatterns);
	}

	@Override
	public Collection<String> getMappings() {
		return Collections.unmodifiableSet(new LinkedHashSet<>(this.mappings));
	}

	@Override
	public String getRunAsRole() {
		return this.runAsRole;
	}

	@Override
	public void setLoadOnStartup(int loadOnStartup) {
		context().checkNotInitialized("set load-on-startup of servlet '" + getName() + "'");
		this.loadOnStartup = loadOnStartup;
	}

	@Override
	public Set<String> setServletSecurity(ServletSecurityElement constraint) {
		if (constraint == null) {
			throw new IllegalArgumentException("No security constraint given for servlet '" + getName() + "'");
		}
		context().checkNotInitialized("set the security of servlet '" + getName() + "'");
		// no container security: constraints are left to filters (Spring Security)
		return Collections.emptySet();
	}

	@Override
	public void setMultipartConfig(MultipartConfigElement multipartConfig) {
		if (multipartConfig == null) {
			throw new IllegalArgumentException("No multipart config given for servlet '" + getName() + "'");
		}
		context().checkNotInitialized("set the multipart config of servlet '" + getName() + "'");
		this.multipartConfig = multipartConfig;
	}

	@Override
	public void setRunAsRole(String roleName) {
		context().checkNotInitialized("set the run-as role of servlet '" + getName() + "'");
		this.runAsRole = roleName;
	}

	@Override
	public String getServletName() {
		return getName();
	}

	@Override
	public ServletContext getServletContext() {
		return context();
	}

	@Override
	public String toString() {
		return "servlet '" + getName() + "'";
	}

}
