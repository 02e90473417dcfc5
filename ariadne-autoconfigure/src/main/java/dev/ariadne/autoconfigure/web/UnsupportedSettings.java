package dev.ariadne.autoconfigure.web;

import org.springframework.boot.web.server.AbstractConfigurableWebServerFactory;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerException;

/**
 * Refuses the {@code server.*} settings that Ariadne cannot honour yet, naming the property,
 * rather than serving something other than what was configured: HTTP/2 over TLS (h2 by ALPN),
 * where the application asked for it with {@code server.http2.enabled} and {@code server.ssl}.
 * On a plaintext listener {@code server.http2.enabled} turns on h2c.
 */
final class UnsupportedSettings {

	private UnsupportedSettings() {
	}

	/**
	 * Fails when the factory asks for HTTP/2 over TLS.
	 * @param factory the factory, customized
	 * @throws WebServerException naming the properties
	 */
	static void check(AbstractConfigurableWebServerFactory factory) {
		if (http2Enabled(factory) && Ssl.isEnabled(factory.getSsl())) {
			throw new WebServerException("server.http2.enabled=true with server.ssl enabled, but Ariadne serves "
					+ "HTTP/2 on plaintext listeners only (h2c) so far, not over TLS (h2 by ALPN): remove "
					+ "server.http2.enabled, or serve TLS in front of Ariadne", null);
		}
	}

	/**
	 * Returns whether the factory asks for HTTP/2 ({@code server.http2.enabled}).
	 * @param factory the factory
	 * @return whether enabled
	 */
	static boolean http2Enabled(AbstractConfigurableWebServerFactory factory) {
		Http2 http2 = factory.getHttp2();
		return http2 != null && http2.isEnabled();
	}

}
