package dev.ariadne;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.connection.ConnectionRegistry;
import dev.ariadne.server.internal.BufferBudget;
import dev.ariadne.server.connection.RequestEvents;
import dev.ariadne.server.pool.RoutePools;
import dev.ariadne.server.stats.AcceptError;
import dev.ariadne.server.stats.Defence;
import dev.ariadne.server.stats.HandshakeOutcome;
import dev.ariadne.server.stats.AcceptQueueProbe;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.stats.RouteWork;
import dev.ariadne.server.stats.ServerStats;
import dev.ariadne.server.stats.StreamCount;
import dev.ariadne.server.stats.TlsProtocol;
import dev.ariadne.server.tls.TlsEndpoint;
import dev.ariadne.server.transport.Transport;
import dev.ariadne.server.websocket.WebSocketSessions;

/**
 * The read-only statistics of one server: every figure is read from the part that keeps it
 * (the connection registry, the pools, the listening socket's accept queue) when asked for.
 */
final class StatsView implements ServerStats {

	private final ServerConfig config;

	private final ConnectionRegistry registry;

	private final RoutePools routePools;

	private final Transport transport;

	private final RequestEvents events;

	private final BufferBudget budget;

	private final TlsEndpoint tls;

	private final WebSocketSessions webSockets;

	StatsView(ServerConfig config, ConnectionRegistry registry, RoutePools routePools, Transport transport,
			RequestEvents events, BufferBudget budget, TlsEndpoint tls, WebSocketSessions webSockets) {
		this.config = config;
		this.registry = registry;
		this.routePools = routePools;
		this.transport = transport;
		this.events = events;
		this.budget = budget;
		this.tls = tls;
		this.webSockets = webSockets;
	}

	@Override
	public String listener() {
		return this.config.name();
	}

	@Override
	public String ioModel() {
		return this.config.ioModel().value();
	}

	@Override
	public PoolStats pool() {
		return this.transport.pool();
	}

	@Override
	public List<PoolStats> pools() {
		List<PoolStats> all = new ArrayList<>();
		all.add(pool());
		all.addAll(this.routePools.all());
		return all;
	}

	@Override
	public int openConnections() {
		return this.registry.openConnections();
	}

	@Override
	public int idleConnections() {
		return this.registry.idleConnections();
	}

	@Override
	public int connections(String protocol) {
		return this.registry.connections(protocol);
	}

	@Override
	public StreamCount http2Streams() {
		return this.registry.streams();
	}

	@Override
	public int maxConnections() {
		return this.config.maxConnections();
	}

	@Override
	public long acceptedConnections() {
		return this.registry.acceptedConnections();
	}

	@Override
	public long rejected(RejectReason reason) {
		if (reason == RejectReason.WEBSOCKET_SESSIONS) {
			return this.webSockets.refused();
		}
		return this.registry.rejections(reason);
	}

	@Override
	public int webSocketSessions() {
		return this.webSockets.active();
	}

	@Override
	public long webSocketMessages(boolean inbound) {
		return inbound ? this.webSockets.messagesIn() : this.webSockets.messagesOut();
	}

	@Override
	public long acceptErrors(AcceptError error) {
		return this.registry.acceptErrors(error);
	}

	@Override
	public long fatalErrors() {
		return this.registry.fatalErrors();
	}

	@Override
	public long defences(Defence defence, boolean lowResources) {
		return this.registry.defences(defence, lowResources);
	}

	@Override
	public OptionalLong acceptQueueDepth() {
		AcceptQueueProbe probe = this.transport.acceptQueue();
		return (probe != null) ? probe.depth() : OptionalLong.empty();
	}

	@Override
	public OptionalLong acceptQueueCapacity() {
		AcceptQueueProbe probe = this.transport.acceptQueue();
		return (probe != null) ? probe.capacity() : OptionalLong.empty();
	}

	@Override
	public OptionalLong acceptQueueOverflows() {
		return AcceptQueueProbe.listenOverflows();
	}

	@Override
	public long buffersUsed() {
		return this.budget.used();
	}

	@Override
	public long buffersBudget() {
		return this.budget.limit();
	}

	@Override
	public boolean tls() {
		return this.tls != null;
	}

	@Override
	public long tlsHandshakes(HandshakeOutcome outcome, TlsProtocol protocol) {
		return (this.tls != null) ? this.tls.handshakes(outcome, protocol) : 0;
	}

	@Override
	public long tlsHandshakeNanos(HandshakeOutcome outcome, TlsProtocol protocol) {
		return (this.tls != null) ? this.tls.handshakeNanos(outcome, protocol) : 0;
	}

	@Override
	public Duration averageIdleTime() {
		return this.registry.averageIdleTime();
	}

	@Override
	public List<RouteWork> routeWork(String pool) {
		return this.events.routeWork(pool);
	}

	@Override
	public long accessLogDropped() {
		return this.events.accessLogDropped();
	}

}
