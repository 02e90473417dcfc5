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

	/** The protocol as ALPN names it ({@code http/1.1}, {@code h2}, {@code h2c}), as Servlet 6 asks. */
	@Override
	public String getProtocol() {
		return this.core.protocol();
	}

	/** The HTTP/2 stream id; empty in HTTP/1.1. */
	@Override
	public String getProtocolConnectionId() {
		return this.core.protocolRequestId();
	}

	@Override
	public boolean isSecure() {
		return this.core.secure();
	}

}
