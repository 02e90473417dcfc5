package dev.ariadne.autoconfigure.web;

import org.springframework.boot.web.server.AbstractConfigurableWebServerFactory;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.WebServerException;

/**
 * Refuses the {@code server.*} settings that Ariadne cannot honour yet, naming the property,
 * rather than serving something other than what was configured (HTTP/2 where the
 * application asked for it).
 */
final class UnsupportedSettings {

	private UnsupportedSettings() {
	}

	/**
	 * Fails when the factory asks for HTTP/2.
	 * @param factory the factory, customized
	 * @throws WebServerException naming the property to remove
	 */
	static void check(AbstractConfigurableWebServerFactory factory) {
		Http2 http2 = factory.getHttp2();
		if (http2 != null && http2.isEnabled()) {
			throw new WebServerException(
					"server.http2.enabled=true, but Ariadne serves HTTP/1.1 only: remove server.http2.enabled", null);
		}
	}

}
