package dev.ariadne.servlet;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import jakarta.servlet.SessionCookieConfig;

/**
 * The session cookie's settings. Defaults: name {@code JSESSIONID}, path the context path (or
 * {@code /}), {@code HttpOnly}, not {@code Secure}, a session cookie (no {@code Max-Age}).
 * Settable only until the context is initialised.
 */
final class SessionCookieSettings implements SessionCookieConfig {

	private static final String DOMAIN = "Domain";

	private static final String PATH = "Path";

	private static final String MAX_AGE = "Max-Age";

	private static final String HTTP_ONLY = "HttpOnly";

	private static final String SECURE = "Secure";

	private static final String COMMENT = "Comment";

	private final DeploymentContext context;

	private String name = "JSESSIONID";

	private final Map<String, String> attributes = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

	SessionCookieSettings(DeploymentContext context) {
		this.context = context;
		this.attributes.put(HTTP_ONLY, "");
	}

	private void check(String what) {
		this.context.checkNotInitialized("change the session cookie's " + what);
	}

	@Override
	public void setName(String name) {
		check("name");
		if (name == null || name.isEmpty()) {
			throw new IllegalArgumentException("The session cookie name must not be empty");
		}
		this.name = name;
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public void setDomain(String domain) {
		setAttribute(DOMAIN, domain);
	}

	@Override
	public String getDomain() {
		return this.attributes.get(DOMAIN);
	}

	@Override
	public void setPath(String path) {
		setAttribute(PATH, path);
	}

	@Override
	public String getPath() {
		return this.attributes.get(PATH);
	}

	@Override
	@Deprecated(since = "Servlet 6.0", forRemoval = true)
	@SuppressWarnings("removal")
	public void setComment(String comment) {
		setAttribute(COMMENT, comment);
	}

	@Override
	@Deprecated(since = "Servlet 6.0", forRemoval = true)
	@SuppressWarnings("removal")
	public String getComment() {
		return this.attributes.get(COMMENT);
	}

	@Override
	public void setHttpOnly(boolean httpOnly) {
		setAttribute(HTTP_ONLY, httpOnly ? "" : null);
	}

	@Override
	public boolean isHttpOnly() {
		return this.attributes.containsKey(HTTP_ONLY);
	}

	@Override
	public void setSecure(boolean secure) {
		setAttribute(SECURE, secure ? "" : null);
	}

	@Override
	public boolean isSecure() {
		return this.attributes.containsKey(SECURE);
	}

	@Override
	public void setMaxAge(int maxAge) {
		setAttribute(MAX_AGE, (maxAge >= 0) ? Integer.toString(maxAge) : null);
	}

	@Override
	public int getMaxAge() {
		String value = this.attributes.get(MAX_AGE);
		return (value != null) ? Integer.parseInt(value) : -1;
	}

	@Override
	public void setAttribute(String name, String value) {
		check("attribute '" + name + "'");
		if (name == null || name.isEmpty()) {
			throw new IllegalArgumentException("A session cookie attribute needs a name");
		}
		if (value == null) {
			this.attributes.remove(name);
		}
		else {
			this.attributes.put(name, value);
		}
	}

	@Override
	public String getAttribute(String name) {
		return this.attributes.get(name);
	}

	@Override
	public Map<String, String> getAttributes() {
		return Collections.unmodifiableMap(new TreeMap<>(this.attributes));
	}

}
