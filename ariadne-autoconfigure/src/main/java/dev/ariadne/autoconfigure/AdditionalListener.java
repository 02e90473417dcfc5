package dev.ariadne.autoconfigure;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import dev.ariadne.server.AccessLogConfig;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.TlsConfig;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.ssl.SslBundles;

/**
 * One more listener of an application ({@code ariadne.server.additional-listeners}), as
 * Tomcat's additional connectors: the same application on another port, in the same I/O model,
 * with the same limits and pools as the application listener ({@code app}), but pools of its
 * own, so that its {@code threads.max} workers, its meters ({@code listener} tag: its name) and
 * its diagnosis are its own, and a flood on one port cannot take the workers of another.
 *
 * @param name the listener's name: its {@code listener} tag and its threads' names
 * @param property the property that defined it ({@code ariadne.server.additional-listeners[0]}),
 * for error messages, or {@code null} for one added in code
 * @param port the port, 0 for a free one
 * @param address the address to bind, or {@code null} for the application listener's
 * @param tls how it terminates TLS, or {@code null} for plaintext
 * @param http2Enabled whether it serves HTTP/2, or {@code null} for as the application
 * listener does
 */
public record AdditionalListener(String name, String property, int port, InetAddress address, TlsConfig tls,
		Boolean http2Enabled) {

	/** The property of the list. */
	public static final String PROPERTY = "ariadne.server.additional-listeners";

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

	/**
	 * Validates the listener.
	 * @throws IllegalArgumentException if the name is reserved or malformed, or the port is
	 * out of range
	 */
	public AdditionalListener {
		Objects.requireNonNull(name, "name");
		String problem = nameProblem(name);
		if (problem != null) {
			throw new IllegalArgumentException("Listener name '" + name + "' " + problem);
		}
		if (port < 0 || port > 65535) {
			throw new IllegalArgumentException("Listener '" + name + "': port " + port + " is not between 0 and 65535");
		}
	}

	/**
	 * Creates a plaintext listener named {@code app-<port>}, bound where the application
	 * listener is, serving HTTP/2 as it does.
	 * @param port the port, 0 for a free one
	 * @return the listener
	 */
	public static AdditionalListener of(int port) {
		return new AdditionalListener("app-" + port, null, port, null, null, null);
	}

	/**
	 * Returns the configuration of this listener: the application listener's, with this
	 * listener's name, port, address, TLS and HTTP/2.
	 * @param application the application listener's configuration
	 * @return this listener's configuration
	 */
	public ServerConfig configure(ServerConfig application) {
		return application.toBuilder()
			.name(this.name)
			.port(this.port)
			.address((this.address != null) ? this.address : application.address())
			.tls(this.tls)
			.http2Enabled((this.http2Enabled != null) ? this.http2Enabled : application.http2Enabled())
			.accessLog(accessLog(application.accessLog()))
			.build();
	}

	/**
	 * The listener's access log: the application's settings, into files of its own whose names
	 * start with the listener's name ({@code app-8443_access_log.2026-12-01.log}), as the
	 * management listener's start with {@code management_}; two writers never share a file.
	 * Lines to standard output stay there, beside the application's.
	 */
	private AccessLogConfig accessLog(AccessLogConfig application) {
		if (!application.enabled() || application.console()) {
			return application;
		}
		return application.toBuilder().prefix(this.name + "_" + application.prefix()).build();
	}

	/**
	 * Returns where the listener is configured, for messages.
	 * @return the property of its port, or its name
	 */
	public String describe() {
		return (this.property != null) ? this.property + ".port" : "listener '" + this.name + "'";
	}

	/**
	 * Describes a failure of this listener to bind, naming the property of its port.
	 * @param config the listener's configuration
	 * @param cause why it could not bind
	 * @return the message
	 */
	public String bindFailure(ServerConfig config, Throwable cause) {
		String host = (config.address() != null) ? config.address().getHostAddress() : "*";
		Throwable reason = (cause.getCause() != null) ? cause.getCause() : cause;
		return "Ariadne's '" + this.name + "' listener could not listen on " + host + ":" + config.port() + " ("
				+ describe() + "): " + reason.getMessage();
	}

	/**
	 * Validates the bound {@code ariadne.server.additional-listeners} and builds the listeners.
	 * @param entries the bound entries, in order
	 * @param bundles the application's SSL bundles, or {@code null} when it has none
	 * @return the listeners, in order
	 * @throws InvalidConfigurationPropertyValueException naming the property of an entry
	 * without a port, with a port out of range, or with a reserved, malformed or repeated name
	 * @throws IllegalStateException naming the property when an SSL bundle is missing or unusable
	 */
	public static List<AdditionalListener> of(List<AdditionalListenerProperties> entries, SslBundles bundles) {
		List<AdditionalListener> listeners = new ArrayList<>(entries.size());
		Map<String, String> names = new HashMap<>();
		for (int i = 0; i < entries.size(); i++) {
			AdditionalListenerProperties entry = entries.get(i);
			String property = PROPERTY + "[" + i + "]";
			Integer port = entry.getPort();
			if (port == null) {
				throw new InvalidConfigurationPropertyValueException(property + ".port", null,
						"must be set: an additional listener needs a port");
			}
			if (port < 0 || port > 65535) {
				throw new InvalidConfigurationPropertyValueException(property + ".port", port,
						"must be between 0 and 65535");
			}
			String name = (entry.getName() != null) ? entry.getName() : "app-" + port;
			String problem = nameProblem(name);
			if (problem != null) {
				throw new InvalidConfigurationPropertyValueException(property + ".name", name, problem);
			}
			String previous = names.putIfAbsent(name, property);
			if (previous != null) {
				throw new InvalidConfigurationPropertyValueException(property + ".name", name,
						"is the name of " + previous + " too: each listener needs a name of its own"
								+ ((entry.getName() == null) ? " (the default is app-<port>)" : ""));
			}
			TlsConfig tls = AriadneTls.fromProperties(property + ".ssl.", entry.getSsl(), bundles);
			listeners.add(new AdditionalListener(name, property, port, entry.getAddress(), tls,
					entry.getHttp2().getEnabled()));
		}
		return List.copyOf(listeners);
	}

	/** What is wrong with a listener name, or {@code null} when it is fine. */
	private static String nameProblem(String name) {
		if (AriadneServers.APPLICATION.equals(name) || AriadneServers.MANAGEMENT.equals(name)) {
			return "is reserved: 'app' names the application listener and 'management' the management listener";
		}
		if (!NAME.matcher(name).matches()) {
			return "must be letters, digits, '.', '_' or '-', starting with a letter or a digit";
		}
		return null;
	}

}
