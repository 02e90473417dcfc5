package dev.ariadne.servlet;

import java.net.InetSocketAddress;

import jakarta.servlet.ServletConnection;

import dev.ariadne.server.Request;

/**
 * The network connection of a request, as {@code ServletRequest.getServletConnection()} shows
 * it. A connection is identified by its two endpoints, unique while it is open.
 */
final class ExchangeConnection implements ServletConnection {

	private final Request core;

	ExchangeConnection(Request core) {
		this.core = core;
	}

	@Override
	public String getConnectionId() {
		InetSocketAddress remote = this.core.remoteAddress();
		InetSocketAddress local = this.core.localAddress();
		return remote + "-" + local;
	}

	@Override
	public String getProtocol() {
		return this.core.version().text();
	}

	@Override
	public String getProtocolConnectionId() {
		return "";
	}

	@Override
	public boolean isSecure() {
		return this.core.secure();
	}

}
