package dev.ariadne.autoconfigure;

import java.net.InetAddress;

/**
 * One entry of {@code ariadne.server.additional-listeners}: another port that serves the same
 * application (its servlet context, WebFlux handler and {@code Route} beans) in the same I/O
 * model, with pools of its own sized as the application listener's, and meters tagged with its
 * name. Validated when the listeners are built, not here.
 */
public class AdditionalListenerProperties {

	/**
	 * Name of the listener: its metrics listener tag and its threads' names. Letters, digits,
	 * '.', '_' and '-'; app and management are taken. Defaults to app-PORT.
	 */
	private String name;

	/**
	 * Port the listener listens on; required. 0 picks a free one.
	 */
	private Integer port;

	/**
	 * Network address the listener binds to. Every local address when not set.
	 */
	private InetAddress address;

	/**
	 * TLS of this listener: an SSL bundle name (spring.ssl.bundle.*), client authentication,
	 * SNI bundles and handshake timeout, as under ariadne.server.ssl. Plaintext when no
	 * bundle is named, whatever the application listener serves.
	 */
	private final AriadneServerProperties.Ssl ssl = new AriadneServerProperties.Ssl();

	private final Http2 http2 = new Http2();

	/**
	 * Returns the listener's name.
	 * @return the name, or {@code null} for {@code app-<port>}
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Sets the listener's name.
	 * @param name the name
	 */
	public void setName(String name) {
		this.name = name;
	}

	/**
	 * Returns the port.
	 * @return the port, or {@code null} when not set
	 */
	public Integer getPort() {
		return this.port;
	}

	/**
	 * Sets the port.
	 * @param port the port, 0 for a free one
	 */
	public void setPort(Integer port) {
		this.port = port;
	}

	/**
	 * Returns the address to bind.
	 * @return the address, or {@code null} for every local address
	 */
	public InetAddress getAddress() {
		return this.address;
	}

	/**
	 * Sets the address to bind.
	 * @param address the address
	 */
	public void setAddress(InetAddress address) {
		this.address = address;
	}

	/**
	 * Returns the listener's TLS settings.
	 * @return the settings
	 */
	public AriadneServerProperties.Ssl getSsl() {
		return this.ssl;
	}

	/**
	 * Returns the listener's HTTP/2 settings.
	 * @return the settings
	 */
	public Http2 getHttp2() {
		return this.http2;
	}

	/**
	 * HTTP/2 of one additional listener.
	 */
	public static class Http2 {

		/**
		 * Whether the listener serves HTTP/2 beside HTTP/1.1 (h2 by ALPN on TLS, h2c on
		 * plaintext). As the application listener when not set.
		 */
		private Boolean enabled;

		/**
		 * Returns whether HTTP/2 is served.
		 * @return whether, or {@code null} to follow the application listener
		 */
		public Boolean getEnabled() {
			return this.enabled;
		}

		/**
		 * Sets whether HTTP/2 is served.
		 * @param enabled whether
		 */
		public void setEnabled(Boolean enabled) {
			this.enabled = enabled;
		}

	}

}
