package dev.ariadne.servlet;

import java.lang.reflect.InvocationTargetException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.Registration;
import jakarta.servlet.ServletException;

/**
 * What servlet and filter registrations share: name, class name, init parameters and the
 * async-supported flag.
 */
abstract class Registered implements Registration.Dynamic {

	private final DeploymentContext context;

	private final String name;

	private final String className;

	private final Map<String, String> initParameters = new LinkedHashMap<>();

	private volatile boolean asyncSupported;

	Registered(DeploymentContext context, String name, String className) {
		this.context = context;
		this.name = name;
		this.className = className;
	}

	DeploymentContext context() {
		return this.context;
	}

	Map<String, String> initParameters() {
		return this.initParameters;
	}

	boolean asyncSupported() {
		return this.asyncSupported;
	}

	/**
	 * Creates an instance of the registered class with its public no-argument constructor.
	 * @param <T> the component type
	 * @param kind the component type
	 * @param type the class, or {@code null} to load the registered class name
	 * @return the instance
	 * @throws ServletException naming the component if the class cannot be loaded or created
	 */
	<T> T instantiate(Class<T> kind, Class<? extends T> type) throws ServletException {
		try {
			Class<?> loaded = (type != null) ? type : Class.forName(this.className, true, this.context.getClassLoader());
			if (!kind.isAssignableFrom(loaded)) {
				throw new ServletException(this + ": class " + loaded.getName() + " is not a " + kind.getName());
			}
			return kind.cast(loaded.getDeclaredConstructor().newInstance());
		}
		catch (ClassNotFoundException | NoSuchMethodException | InstantiationException | IllegalAccessException ex) {
			throw new ServletException(this + ": cannot create an instance of " + this.className + ": " + ex, ex);
		}
		catch (InvocationTargetException ex) {
			throw new ServletException(this + ": the constructor of " + this.className + " failed", ex.getCause());
		}
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public String getClassName() {
		return this.className;
	}

	@Override
	public boolean setInitParameter(String name, String value) {
		if (name == null || value == null) {
			throw new IllegalArgumentException(this + ": init parameter name and value must not be null");
		}
		this.context.checkNotInitialized("set an init parameter of " + this);
		return this.initParameters.putIfAbsent(name, value) == null;
	}

	@Override
	public String getInitParameter(String name) {
		return this.initParameters.get(name);
	}

	@Override
	public Map<String, String> getInitParameters() {
		return Collections.unmodifiableMap(new LinkedHashMap<>(this.initParameters));
	}

	/**
	 * Returns the names of the init parameters, as {@code ServletConfig} and
	 * {@code FilterConfig} list them.
	 * @return the names
	 */
	public Enumeration<String> getInitParameterNames() {
		return Collections.enumeration(getInitParameters().keySet());
	}

	@Override
	public Set<String> setInitParameters(Map<String, String> initParameters) {
		this.context.checkNotInitialized("set init parameters of " + this);
		Set<String> conflicts = new LinkedHashSet<>();
		for (Map.Entry<String, String> entry : initParameters.entrySet()) {
			if (entry.getKey() == null || entry.getValue() == null) {
				throw new IllegalArgumentException(this + ": init parameter name and value must not be null");
			}
			if (this.initParameters.containsKey(entry.getKey())) {
				conflicts.add(entry.getKey());
			}
		}
		if (conflicts.isEmpty()) {
			this.initParameters.putAll(initParameters);
		}
		return conflicts;
	}

	@Override
	public void setAsyncSupported(boolean isAsyncSupported) {
		this.context.checkNotInitialized("set async-supported of " + this);
		this.asyncSupported = isAsyncSupported;
	}

}
