package dev.ariadne.autoconfigure.actuate;

import java.net.InetAddress;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * The {@code management.server.*} properties that decide where Actuator's endpoints are
 * served, read from the {@link Environment}: Boot's {@code ManagementServerProperties} cannot
 * be bound without {@code spring-boot-web-server}, which an Ariadne application does not have.
 *
 * @param port {@code management.server.port}, or {@code null} when not set
 * @param address {@code management.server.address}, or {@code null} for every local address
 * @param basePath {@code management.server.base-path}, cleaned: empty, or starting with a slash
 * and not ending with one
 * @param applicationPort {@code ariadne.server.port}
 */
record ManagementServerSettings(Integer port, InetAddress address, String basePath, int applicationPort) {

	static final String PORT_PROPERTY = "management.server.port";

	static final String ADDRESS_PROPERTY = "management.server.address";

	static final String BASE_PATH_PROPERTY = "management.server.base-path";

	private static final String APPLICATION_PORT_PROPERTY = "ariadne.server.port";

	/**
	 * Where the endpoints are served.
	 */
	enum PortType {

		/** On the application's listener: no management port, or the application's port. */
		SAME,

		/** On a listener of their own. */
		DIFFERENT,

		/** Not over HTTP at all: a negative management port, as in Spring Boot. */
		DISABLED

	}

	/**
	 * Reads the settings.
	 * @param environment the environment
	 * @return the settings
	 * @throws InvalidConfigurationPropertyValueException if the management port is above 65535
	 */
	static ManagementServerSettings get(Environment environment) {
		Binder binder = Binder.get(environment);
		Integer port = binder.bind(PORT_PROPERTY, Integer.class).orElse(null);
		if (port != null && port > 65535) {
			throw new InvalidConfigurationPropertyValueException(PORT_PROPERTY, port,
					"must be between 0 and 65535, or negative to serve no endpoint over HTTP");
		}
		InetAddress address = binder.bind(ADDRESS_PROPERTY, InetAddress.class).orElse(null);
		String basePath = cleanBasePath(binder.bind(BASE_PATH_PROPERTY, String.class).orElse(""));
		int applicationPort = binder.bind(APPLICATION_PORT_PROPERTY, Integer.class).orElse(8080);
		return new ManagementServerSettings(port, address, basePath, applicationPort);
	}

	/**
	 * Returns where the endpoints are served. As in Spring Boot, port 0 always means a
	 * listener of their own, on a free port.
	 * @return the port type
	 */
	PortType portType() {
		if (this.port == null) {
			return PortType.SAME;
		}
		if (this.port < 0) {
			return PortType.DISABLED;
		}
		return (this.port != 0 && this.port == this.applicationPort) ? PortType.SAME : PortType.DIFFERENT;
	}

	private static String cleanBasePath(String basePath) {
		String path = StringUtils.hasText(basePath) ? basePath.trim() : "";
		if (!path.isEmpty() && !path.startsWith("/")) {
			path = "/" + path;
		}
		while (path.endsWith("/")) {
			path = path.substring(0, path.length() - 1);
		}
		return path;
	}

}
