package dev.ariadne.autoconfigure;

import java.io.UncheckedIOException;
import java.util.List;

import dev.ariadne.AriadneServer;

/**
 * The additional listeners of a Route application ({@code ariadne.server.additional-listeners}):
 * more {@link AriadneServer}s serving the same routes, each with pools of its own, started and
 * drained with the application's server by its lifecycle. A bean of its own type, as
 * {@link AriadneManagementServer} is, so that injecting {@link AriadneServer} keeps meaning the
 * application's server.
 */
public final class AriadneAdditionalServers implements AutoCloseable {

	private final List<AriadneServer> servers;

	private final List<AdditionalListener> listeners;

	/**
	 * Wraps the servers of additional listeners.
	 * @param servers the servers, not started, in the order of {@code listeners}
	 * @param listeners what configured each
	 */
	public AriadneAdditionalServers(List<AriadneServer> servers, List<AdditionalListener> listeners) {
		if (servers.size() != listeners.size()) {
			throw new IllegalArgumentException("One listener per server");
		}
		this.servers = List.copyOf(servers);
		this.listeners = List.copyOf(listeners);
	}

	/**
	 * Returns the servers.
	 * @return the servers, in the order of {@code ariadne.server.additional-listeners}
	 */
	public List<AriadneServer> servers() {
		return this.servers;
	}

	/**
	 * Starts one server, failing with a message that names the property of its port when it
	 * cannot bind.
	 * @param index the server's position
	 * @throws IllegalStateException naming the property when the server cannot listen
	 */
	void start(int index) {
		AriadneServer server = this.servers.get(index);
		try {
			server.start();
		}
		catch (UncheckedIOException ex) {
			throw new IllegalStateException(this.listeners.get(index).bindFailure(server.config(), ex), ex);
		}
	}

	/**
	 * Stops every server now, requests in flight included; called when the context is
	 * destroyed, after the lifecycle has drained them.
	 */
	@Override
	public void close() {
		this.servers.forEach(AriadneServer::stop);
	}

	@Override
	public String toString() {
		return "AriadneAdditionalServers" + this.servers;
	}

}
