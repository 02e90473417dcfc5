package dev.ariadne.autoconfigure.web;

import org.springframework.boot.web.server.AbstractConfigurableWebServerFactory;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerException;

/**
 * Refuses the {@code server.*} settings that Ariadne cannot honour yet, naming the property,
 * rather than serving something other than what was configured (plaintext where TLS was asked
 * for).
 */
final class UnsupportedSettings {

	private UnsupportedSettings() {
	}

	/**
	 * Fails when the factory asks for TLS or HTTP/2.
	 * @param factory the factory, customized
	 * @throws WebServerException naming the property to remove
	 */
	static void check(AbstractConfigurableWebServerFactory factory) {
		String prefix = "management".equals(listenerName(factory)) ? "management.server" : "server";
		Ssl ssl = factory.getSsl();
		if (ssl != null && ssl.isEnabled()) {
			throw new WebServerException(prefix + ".ssl.* is set, but Ariadne does not serve TLS yet: remove "
					+ prefix + ".ssl.* or set " + prefix + ".ssl.enabled=false, and terminate TLS in front of the "
					+ "application", null);
		}
		Http2 http2 = factory.getHttp2();
		if (http2 != null && http2.isEnabled()) {
			throw new WebServerException(
					"server.http2.enabled=true, but Ariadne serves HTTP/1.1 only: remove server.http2.enabled", null);
		}
	}

	private static String listenerName(AbstractConfigurableWebServerFactory factory) {
		return (factory instanceof AriadneServletWebServerFactory servlet) ? servlet.getListenerName() : null;
	}

}
