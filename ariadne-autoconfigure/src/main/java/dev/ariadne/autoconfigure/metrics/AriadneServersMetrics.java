package dev.ariadne.autoconfigure.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.MeterRegistry;

import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.AriadneServer;

import org.springframework.beans.factory.DisposableBean;

/**
 * Binds {@link AriadneServerMetrics} to every Ariadne listener while it runs, whichever context
 * created it: the application's listener and, with {@code management.server.port}, the one of
 * Boot's management child context, each with its own {@code listener} tag.
 */
public final class AriadneServersMetrics implements AriadneServers.Listener, DisposableBean {

	private final AriadneServers servers;

	private final MeterRegistry registry;

	private final Map<AriadneServer, AriadneServerMetrics> bound = new ConcurrentHashMap<>();

	/**
	 * Creates the binder and starts following the registry.
	 * @param servers the running listeners
	 * @param registry where the meters go
	 */
	public AriadneServersMetrics(AriadneServers servers, MeterRegistry registry) {
		this.servers = servers;
		this.registry = registry;
		servers.addListener(this);
	}

	@Override
	public void registered(AriadneServer server) {
		this.bound.computeIfAbsent(server, (started) -> {
			AriadneServerMetrics metrics = new AriadneServerMetrics(started.stats(),
					started.diagnosis().orElse(null), AriadneServer.version(), List.of());
			metrics.bindTo(this.registry);
			return metrics;
		});
	}

	@Override
	public void unregistered(AriadneServer server) {
		AriadneServerMetrics metrics = this.bound.remove(server);
		if (metrics != null) {
			metrics.close();
		}
	}

	@Override
	public void destroy() {
		this.servers.removeListener(this);
		this.bound.keySet().forEach(this::unregistered);
	}

}
