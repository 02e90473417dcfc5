package dev.ariadne.servlet;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;

/**
 * A registered filter: its registration, its config, and its instance, initialised at start.
 */
final class FilterEntry extends Registered implements FilterRegistration.Dynamic, FilterConfig {

	private final List<FilterMapping> mappings = new ArrayList<>();

	private Filter instance;

	private final Class<? extends Filter> type;

	private volatile boolean initialized;

	FilterEntry(DeploymentContext context, String name, Filter instance, Class<? extends Filter> type,
			String className) {
		super(context, name, className);
		this.instance = instance;
		this.type = type;
	}

	/**
	 * Creates and initialises the filter.
	 * @throws ServletException naming the filter if it cannot be created or its {@code init} fails
	 */
	synchronized void initialize() throws ServletException {
		if (this.initialized) {
			return;
		}
		Filter filter = (this.instance != null) ? this.instance : instantiate(Filter.class, this.type);
		try {
			filter.init(this);
		}
		catch (ServletException | RuntimeException ex) {
			throw new ServletException("Filter '" + getName() + "' failed to initialize: " + ex.getMessage(), ex);
		}
		this.instance = filter;
		this.initialized = true;
	}

	Filter filter() throws ServletException {
		if (!this.initialized) {
			initialize();
		}
		return this.instance;
	}

	synchronized void destroy() {
		if (this.initialized) {
			this.initialized = false;
			try {
				this.instance.destroy();
			}
			catch (RuntimeException ex) {
				context().log("Filter '" + getName() + "' failed in destroy()", ex);
			}
		}
	}

	@Override
	public void addMappingForServletNames(EnumSet<DispatcherType> dispatcherTypes, boolean isMatchAfter,
			String... servletNames) {
		if (servletNames == null || servletNames.length == 0) {
			throw new IllegalArgumentException("No servlet name given for the mapping of " + this);
		}
		add(FilterMapping.of(this, dispatcherTypes, List.of(), List.of(servletNames)), isMatchAfter);
	}

	@Override
	public void addMappingForUrlPatterns(EnumSet<DispatcherType> dispatcherTypes, boolean isMatchAfter,
			String... urlPatterns) {
		if (urlPatterns == null || urlPatterns.length == 0) {
			throw new IllegalArgumentException("No URL pattern given for the mapping of " + this);
		}
		for (String pattern : urlPatterns) {
			ServletMapper.validate(pattern);
		}
		add(FilterMapping.of(this, dispatcherTypes, List.of(urlPatterns), List.of()), isMatchAfter);
	}

	private void add(FilterMapping mapping, boolean isMatchAfter) {
		context().checkNotInitialized("add a mapping to " + this);
		this.mappings.add(mapping);
		context().registry().addFilterMapping(mapping, isMatchAfter);
	}

	@Override
	public Collection<String> getServletNameMappings() {
		Collection<String> names = new LinkedHashSet<>();
		for (FilterMapping mapping : this.mappings) {
			names.addAll(mapping.servletNames());
		}
		return names;
	}

	@Override
	public Collection<String> getUrlPatternMappings() {
		Collection<String> patterns = new LinkedHashSet<>();
		for (FilterMapping mapping : this.mappings) {
			patterns.addAll(mapping.urlPatterns());
		}
		return patterns;
	}

	@Override
	public String getFilterName() {
		return getName();
	}

	@Override
	public ServletContext getServletContext() {
		return context();
	}

	@Override
	public String toString() {
		return "filter '" + getName() + "'";
	}

}
