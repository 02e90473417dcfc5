package dev.ariadne.autoconfigure;

import dev.ariadne.AriadneServer;

import org.springframework.context.ApplicationEvent;

/**
 * Event published once the auto-configured {@link AriadneServer} has started and is
 * listening. Its port, useful when {@code ariadne.server.port} is 0, is also available as the
 * {@code local.ariadne.port} property of the environment.
 */
public class AriadneServerInitializedEvent extends ApplicationEvent {

	/**
	 * Creates an event for a started server.
	 * @param server the server that started
	 */
	public AriadneServerInitializedEvent(AriadneServer server) {
		super(server);
	}

	/**
	 * Returns the server that started.
	 * @return the server
	 */
	public AriadneServer getServer() {
		return getSource();
	}

	/**
	 * Returns the server that started.
	 * @return the server
	 */
	@Override
	public AriadneServer getSource() {
		return (AriadneServer) super.getSource();
	}

}
