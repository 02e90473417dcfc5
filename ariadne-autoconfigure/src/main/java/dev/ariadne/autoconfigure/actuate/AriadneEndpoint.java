package dev.ariadne.autoconfigure.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneManagementServer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@link Endpoint @Endpoint} ({@code ariadne}) that shows the live state of each Ariadne
 * listener, the application's and, when there is one, the management listener: its worker
 * pool, its connections, the kernel's accept queue, and the configuration it runs with.
 *
 * <p>The servers are looked up when the endpoint is read, not when it is created, since
 * endpoints are discovered while the servers that serve them are being created.
 */
@Endpoint(id = "ariadne")
public class AriadneEndpoint {

	private final ObjectProvider<AriadneServer> server;

	private final ObjectProvider<AriadneManagementServer> managementServer;

	/**
	 * Creates the endpoint.
	 * @param server provides the application's server
	 * @param managementServer provides the management listener, when there is one
	 */
	public AriadneEndpoint(ObjectProvider<AriadneServer> server,
			ObjectProvider<AriadneManagementServer> managementServer) {
		this.server = server;
		this.managementServer = managementServer;
	}

	/**
	 * Returns a snapshot of every listener.
	 * @return the listeners by name ({@code app}, {@code management})
	 */
	@ReadOperation
	public ListenersDescriptor listeners() {
		Map<String, ListenerDescriptor> listeners = new LinkedHashMap<>();
		AriadneServer application = this.server.getIfUnique();
		if (application != null) {
			listeners.put(application.config().name(), ListenerDescriptor.of(application));
		}
		AriadneManagementServer management = this.managementServer.getIfUnique();
		if (management != null) {
			listeners.put(management.server().config().name(), ListenerDescriptor.of(management.server()));
		}
		return new ListenersDescriptor(listeners);
	}

	/**
	 * Every listener's snapshot.
	 *
	 * @param listeners the snapshots by listener name
	 */
	public record ListenersDescriptor(Map<String, ListenerDescriptor> listeners) implements OperationResponseBody {
	}

}
