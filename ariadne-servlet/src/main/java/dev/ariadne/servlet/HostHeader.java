package dev.ariadne.servlet;

import java.net.InetSocketAddress;

/**
 * The server name and port a request was sent to, from its {@code Host} field (RFC 9110
 * section 7.2), or from the connection's local address when there is none.
 */
final class HostHeader {

	private HostHeader() {
	}

	static String name(String host, InetSocketAddress local) {
		if (host == null || host.isBlank()) {
			return (local != null) ? local.getHostString() : "localhost";
		}
		String value = host.trim();
		if (value.startsWith("[")) {
			int close = value.indexOf(']');
			return (close > 0) ? value.substring(1, close) : value;
		}
		int colon = value.lastIndexOf(':');
		return (colon >= 0) ? value.substring(0, colon) : value;
	}

	static int port(String host, InetSocketAddress local, boolean secure) {
		int schemePort = secure ? 443 : 80;
		if (host == null || host.isBlank()) {
			return (local != null) ? local.getPort() : schemePort;
		}
		String value = host.trim();
		int close = value.startsWith("[") ? value.indexOf(']') : -1;
		int colon = value.lastIndexOf(':');
		if (colon < 0 || colon < close) {
			return schemePort;
		}
		try {
			return Integer.parseInt(value.substring(colon + 1));
		}
		catch (NumberFormatException ex) {
			return schemePort;
		}
	}

}
