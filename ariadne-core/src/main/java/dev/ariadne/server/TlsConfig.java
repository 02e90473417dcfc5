package dev.ariadne.server;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;

/**
 * How a listener terminates TLS: with plain JDK types, one immutable, validated value with one
 * documented default per option, set on {@link ServerConfig.Builder#tls(TlsConfig)}. Validation
 * messages name the option as it is spelled under {@code ariadne.server.ssl.*}.
 *
 * <p>Every connection of a TLS listener starts with a handshake. The server reads the start of
 * the client's first message before it chooses anything: plaintext HTTP sent to the port is
 * answered 400 with a body that says the port expects TLS, then closed; otherwise the
 * {@link SSLContext} is taken for the host name the client asks for (SNI) from
 * {@link #serverNames()}, else from {@link #context()}. The contexts are {@link Supplier}s, asked
 * once per connection: a supplier that returns a new context after a certificate is renewed
 * serves it from the next handshake on, while connections already open keep theirs.
 *
 * <p>Safe defaults: TLS 1.3 and 1.2 only; the JDK's default cipher suites (its strong ones, in
 * its order of preference); ALPN offers {@code http/1.1} only; renegotiation, which TLS 1.3 no
 * longer has, is refused on TLS 1.2 connections (the connection is closed); a handshake must
 * complete within {@link #DEFAULT_HANDSHAKE_TIMEOUT}, or the connection is closed, so that a slow
 * handshake costs no more than a slow request head.
 *
 * @param context the context for connections that name no host, or a host that
 * {@link #serverNames()} does not map
 * @param serverNames contexts by the host name a client asks for (SNI), lowercase; a name
 * {@code *.example.com} matches one label in front of {@code example.com}; exact names win
 * @param clientAuth whether clients must present a certificate
 * @param protocols the protocol versions offered, by their JDK names
 * @param cipherSuites the cipher suites offered, by their JDK names, in order of preference;
 * empty for the JDK's defaults
 * @param handshakeTimeout how long a connection may take from accept to the end of its
 * handshake
 */
public record TlsConfig(Supplier<SSLContext> context, Map<String, Supplier<SSLContext>> serverNames,
		ClientAuth clientAuth, List<String> protocols, List<String> cipherSuites, Duration handshakeTimeout) {

	/** Default protocol versions: TLS 1.3 and TLS 1.2. */
	public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

	/** Default handshake timeout: 10 seconds. */
	public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

	/** The only application protocol offered in ALPN: Ariadne speaks HTTP/1.1. */
	public static final String APPLICATION_PROTOCOL = "http/1.1";

	private static final String PREFIX = "ariadne.server.ssl.";

	/**
	 * Validates every option.
	 */
	public TlsConfig {
		Objects.requireNonNull(context, PREFIX + "bundle");
		Objects.requireNonNull(clientAuth, PREFIX + "client-auth");
		Map<String, Supplier<SSLContext>> names = new LinkedHashMap<>();
		for (Map.Entry<String, Supplier<SSLContext>> entry : Objects.requireNonNull(serverNames, "serverNames")
			.entrySet()) {
			String name = entry.getKey();
			if (name == null || name.isBlank() || name.indexOf('*', 1) >= 0
					|| (name.startsWith("*") && !name.startsWith("*."))) {
				throw invalid("server-name-bundles", name, "a host name, or *. followed by a domain");
			}
			names.put(name.toLowerCase(Locale.ROOT), Objects.requireNonNull(entry.getValue(), name));
		}
		serverNames = Collections.unmodifiableMap(names);
		protocols = List.copyOf(Objects.requireNonNull(protocols, PREFIX + "enabled-protocols"));
		if (protocols.isEmpty()) {
			throw invalid("enabled-protocols", protocols, "at least one protocol version, such as TLSv1.3");
		}
		cipherSuites = List.copyOf(Objects.requireNonNull(cipherSuites, PREFIX + "ciphers"));
		Objects.requireNonNull(handshakeTimeout, PREFIX + "handshake-timeout");
		if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
			throw invalid("handshake-timeout", handshakeTimeout, "greater than 0");
		}
	}

	/**
	 * Whether a listener asks clients for a certificate.
	 */
	public enum ClientAuth {

		/** No client certificate is asked for. */
		NONE,

		/**
		 * A certificate is asked for; a client without one is served, a client with one the
		 * trust material refuses is not.
		 */
		WANT,

		/** A client without a certificate the trust material accepts is refused. */
		NEED

	}

	/**
	 * Returns a builder for a listener that serves one context to every client.
	 * @param context the context, asked once per connection
	 * @return a new builder with every other option at its default
	 */
	public static Builder builder(Supplier<SSLContext> context) {
		return new Builder(context);
	}

	/**
	 * Returns the configuration of a listener that serves one fixed context with the defaults.
	 * @param context the context
	 * @return the configuration
	 */
	public static TlsConfig of(SSLContext context) {
		Objects.requireNonNull(context, "context");
		return builder(() -> context).build();
	}

	/**
	 * Returns a builder holding this configuration, to derive a changed copy.
	 * @return a builder with every option of this configuration
	 */
	public Builder toBuilder() {
		Builder builder = new Builder(this.context);
		builder.serverNames.putAll(this.serverNames);
		builder.clientAuth = this.clientAuth;
		builder.protocols = this.protocols;
		builder.cipherSuites = this.cipherSuites;
		builder.handshakeTimeout = this.handshakeTimeout;
		return builder;
	}

	/**
	 * Returns the supplier of the context for a host name a client asked for: the exact name,
	 * then a wildcard name one label up, then the default.
	 * @param host the host name from the client's SNI, or {@code null} when it sent none
	 * @return the supplier of the context to use
	 */
	public Supplier<SSLContext> contextFor(String host) {
		if (host == null || this.serverNames.isEmpty()) {
			return this.context;
		}
		String name = host.toLowerCase(Locale.ROOT);
		Supplier<SSLContext> exact = this.serverNames.get(name);
		if (exact != null) {
			return exact;
		}
		int dot = name.indexOf('.');
		Supplier<SSLContext> wildcard = (dot > 0) ? this.serverNames.get("*" + name.substring(dot)) : null;
		return (wildcard != null) ? wildcard : this.context;
	}

	private static IllegalArgumentException invalid(String property, Object value, String allowed) {
		return new IllegalArgumentException(PREFIX + property + " must be " + allowed + ", but was " + value);
	}

	/**
	 * Builds a {@link TlsConfig}; every option but the context starts at its default.
	 */
	public static final class Builder {

		private final Supplier<SSLContext> context;

		private final Map<String, Supplier<SSLContext>> serverNames = new LinkedHashMap<>();

		private ClientAuth clientAuth = ClientAuth.NONE;

		private List<String> protocols = DEFAULT_PROTOCOLS;

		private List<String> cipherSuites = List.of();

		private Duration handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;

		private Builder(Supplier<SSLContext> context) {
			this.context = context;
		}

		/**
		 * Serves a context of its own to clients that ask for a host name (SNI); none by
		 * default.
		 * @param host the host name, or {@code *.} followed by a domain
		 * @param context the context, asked once per connection
		 * @return this builder
		 */
		public Builder serverName(String host, Supplier<SSLContext> context) {
			this.serverNames.put(host, context);
			return this;
		}

		/**
		 * Sets whether clients must present a certificate (default {@link ClientAuth#NONE}).
		 * @param clientAuth the setting
		 * @return this builder
		 */
		public Builder clientAuth(ClientAuth clientAuth) {
			this.clientAuth = clientAuth;
			return this;
		}

		/**
		 * Sets the protocol versions offered (default TLS 1.3 and TLS 1.2).
		 * @param protocols JDK names, such as {@code TLSv1.3}
		 * @return this builder
		 */
		public Builder protocols(List<String> protocols) {
			this.protocols = protocols;
			return this;
		}

		/**
		 * Sets the cipher suites offered (default: the JDK's).
		 * @param cipherSuites JDK names, in order of preference; empty for the JDK's defaults
		 * @return this builder
		 */
		public Builder cipherSuites(List<String> cipherSuites) {
			this.cipherSuites = cipherSuites;
			return this;
		}

		/**
		 * Sets how long a connection may take to complete its handshake (default 10 s).
		 * @param timeout the timeout
		 * @return this builder
		 */
		public Builder handshakeTimeout(Duration timeout) {
			this.handshakeTimeout = timeout;
			return this;
		}

		/**
		 * Validates and builds the configuration.
		 * @return the configuration
		 * @throws IllegalArgumentException naming the first invalid option
		 */
		public TlsConfig build() {
			return new TlsConfig(this.context, this.serverNames, this.clientAuth, this.protocols, this.cipherSuites,
					this.handshakeTimeout);
		}

	}

}
