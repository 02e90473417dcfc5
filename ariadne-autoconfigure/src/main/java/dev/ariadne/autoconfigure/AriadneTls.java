package dev.ariadne.autoconfigure;

import java.security.GeneralSecurityException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;

import dev.ariadne.server.TlsConfig;

import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslOptions;

/**
 * Turns Spring Boot's SSL bundles into the core's {@link TlsConfig}: the bundle's context,
 * protocols and ciphers, a context per SNI host name, and the reload of a named bundle
 * ({@code spring.ssl.bundle.*.*.reload-on-update}), which swaps the context for the handshakes
 * that follow while the connections already open keep theirs.
 */
public final class AriadneTls {

	private static final String PROPERTY = "ariadne.server.ssl.";

	private AriadneTls() {
	}

	/**
	 * Returns a TLS configuration builder for a bundle.
	 * @param property the property that named the bundle or set TLS up, for error messages
	 * @param bundle the bundle
	 * @param bundleName the bundle's name in {@code bundles}, or {@code null} when it has
	 * none (Boot's {@code server.ssl.*} properties), and cannot be reloaded
	 * @param bundles the application's bundles, to follow updates of a named bundle; or
	 * {@code null}
	 * @return the builder, with the bundle's protocols and ciphers when it names them
	 * @throws IllegalStateException naming the property when the bundle's context cannot be
	 * created
	 */
	public static TlsConfig.Builder builder(String property, SslBundle bundle, String bundleName, SslBundles bundles) {
		TlsConfig.Builder builder = TlsConfig.builder(context(property, bundle, bundleName, bundles));
		SslOptions options = bundle.getOptions();
		if (options != null && options.getEnabledProtocols() != null) {
			builder.protocols(List.of(options.getEnabledProtocols()));
		}
		if (options != null && options.getCiphers() != null) {
			builder.cipherSuites(List.of(options.getCiphers()));
		}
		return builder;
	}

	/**
	 * Adds a context per SNI host name to a builder.
	 * @param builder the builder
	 * @param property the property that maps the names, for error messages
	 * @param serverNames the bundle of each host name
	 * @param bundleNames the bundle name of each host name, for reloads, or an empty map
	 * @param bundles the application's bundles, or {@code null}
	 * @return the builder
	 */
	public static TlsConfig.Builder serverNames(TlsConfig.Builder builder, String property,
			Map<String, SslBundle> serverNames, Map<String, String> bundleNames, SslBundles bundles) {
		serverNames.forEach((host, bundle) -> builder.serverName(host,
				context(property + "[" + host + "]", bundle, bundleNames.get(host), bundles)));
		return builder;
	}

	/**
	 * Returns the TLS configuration of {@code ariadne.server.ssl.*}, for the listener of a
	 * Route application.
	 * @param ssl the bound properties
	 * @param bundles the application's bundles, or {@code null} when there are none
	 * @return the configuration, or {@code null} when no bundle is named (plaintext)
	 * @throws IllegalStateException naming the property when a bundle is missing or unusable
	 */
	public static TlsConfig fromProperties(AriadneServerProperties.Ssl ssl, SslBundles bundles) {
		return fromProperties(PROPERTY, ssl, bundles);
	}

	/**
	 * Returns the TLS configuration of settings shaped as {@code ariadne.server.ssl.*} under
	 * another prefix (an additional listener's {@code ssl}).
	 * @param prefix the settings' prefix, ending with a dot, for error messages
	 * @param ssl the bound properties
	 * @param bundles the application's bundles, or {@code null} when there are none
	 * @return the configuration, or {@code null} when no bundle is named (plaintext)
	 * @throws IllegalStateException naming the property when a bundle is missing or unusable
	 */
	static TlsConfig fromProperties(String prefix, AriadneServerProperties.Ssl ssl, SslBundles bundles) {
		if (ssl.getBundle() == null || ssl.getBundle().isBlank()) {
			return null;
		}
		TlsConfig.Builder builder = builder(prefix + "bundle", bundle(prefix + "bundle", ssl.getBundle(), bundles),
				ssl.getBundle(), bundles);
		Map<String, SslBundle> serverNames = new LinkedHashMap<>();
		ssl.getServerNameBundles()
			.forEach((host, name) -> serverNames.put(host,
					bundle(prefix + "server-name-bundles[" + host + "]", name, bundles)));
		serverNames(builder, prefix + "server-name-bundles", serverNames, ssl.getServerNameBundles(), bundles);
		return builder.clientAuth(ssl.getClientAuth()).handshakeTimeout(ssl.getHandshakeTimeout()).build();
	}

	/**
	 * Returns a named bundle.
	 * @param property the property that names it
	 * @param name the name
	 * @param bundles the bundles, or {@code null}
	 * @return the bundle
	 * @throws IllegalStateException naming the property when there is no such bundle
	 */
	public static SslBundle bundle(String property, String name, SslBundles bundles) {
		if (bundles == null) {
			throw new IllegalStateException(property + "=" + name
					+ ", but the application has no SSL bundles: define it under spring.ssl.bundle.pem." + name
					+ " or spring.ssl.bundle.jks." + name);
		}
		try {
			return bundles.getBundle(name);
		}
		catch (NoSuchSslBundleException ex) {
			throw new IllegalStateException(property + "=" + name + ", but there is no such SSL bundle: define it "
					+ "under spring.ssl.bundle.pem." + name + " or spring.ssl.bundle.jks." + name, ex);
		}
	}

	/**
	 * Returns a supplier of a bundle's context that follows the bundle's updates.
	 * @param property the property, for error messages
	 * @param bundle the bundle
	 * @param bundleName its name, or {@code null}
	 * @param bundles the bundles, or {@code null}
	 * @return the supplier
	 */
	static Supplier<SSLContext> context(String property, SslBundle bundle, String bundleName, SslBundles bundles) {
		ReloadingContext context = new ReloadingContext(property, bundle);
		if (bundleName != null && bundles != null) {
			bundles.addBundleUpdateHandler(bundleName, context::update);
		}
		return context;
	}

	/**
	 * A bundle's context, replaced when the bundle is updated.
	 */
	private static final class ReloadingContext implements Supplier<SSLContext> {

		private final String property;

		private volatile SSLContext context;

		ReloadingContext(String property, SslBundle bundle) {
			this.property = property;
			this.context = create(bundle);
		}

		void update(SslBundle bundle) {
			this.context = create(bundle);
		}

		@Override
		public SSLContext get() {
			return this.context;
		}

		private SSLContext create(SslBundle bundle) {
			Objects.requireNonNull(bundle, this.property);
			try {
				return bundle.createSslContext();
			}
			catch (RuntimeException ex) {
				Throwable cause = (ex.getCause() instanceof GeneralSecurityException) ? ex.getCause() : ex;
				throw new IllegalStateException(this.property + ": cannot create a TLS context from the SSL bundle: "
						+ cause.getMessage(), ex);
			}
		}

	}

}
