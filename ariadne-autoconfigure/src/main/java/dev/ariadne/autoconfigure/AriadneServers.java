package dev.ariadne.autoconfigure;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.ariadne.AriadneServer;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The Ariadne listeners of an application that are running now, by listener name
 * ({@code app}, the names of {@code ariadne.server.additional-listeners}, {@code management}):
 * what metrics, health, the {@code ariadne} endpoint and the diagnosis read. One instance per application, in its root context; a listener registers
 * when it starts and leaves when it stops, whichever context created it (the management
 * listener of a servlet application is created by Boot's management child context).
 *
 * <p>Thread-safe. Listeners are told on the thread that registers the server, after it has
 * started, and once for every server already registered when they are added.
 */
public final class AriadneServers {

	/** Listener name of the application's listener. */
	public static final String APPLICATION = "app";

	/** Listener name of the management listener ({@code management.server.port}). */
	public static final String MANAGEMENT = "management";

	/**
	 * Told when a listener starts and stops.
	 */
	public interface Listener {

		/**
		 * A listener started.
		 * @param server the started server
		 */
		void registered(AriadneServer server);

		/**
		 * A listener stopped.
		 * @param server the stopped server
		 */
		default void unregistered(AriadneServer server) {
		}

	}

	private final Map<String, AriadneServer> servers = new ConcurrentHashMap<>();

	private final List<Listener> listeners = new CopyOnWriteArrayList<>();

	/**
	 * Registers a started server under its listener name.
	 * @param server the server
	 * @throws IllegalStateException if another running server has the same listener name
	 */
	public void register(AriadneServer server) {
		String name = server.config().name();
		AriadneServer previous = this.servers.putIfAbsent(name, server);
		if (previous != null && previous != server) {
			throw new IllegalStateException("Two Ariadne listeners are named '" + name + "'");
		}
		if (previous == null) {
			this.listeners.forEach((listener) -> listener.registered(server));
		}
	}

	/**
	 * Removes a stopped server; nothing happens when it is not registered.
	 * @param server the server
	 */
	public void unregister(AriadneServer server) {
		if (this.servers.remove(server.config().name(), server)) {
			this.listeners.forEach((listener) -> listener.unregistered(server));
		}
	}

	/**
	 * Returns the running server of a listener.
	 * @param listener the listener name, for example {@code app}
	 * @return the server, or {@code null} when no such listener runs
	 */
	public AriadneServer find(String listener) {
		return this.servers.get(listener);
	}

	/**
	 * Returns the application's running listener.
	 * @return the server, or {@code null} when it is not running
	 */
	public AriadneServer application() {
		return find(APPLICATION);
	}

	/**
	 * Returns the application's running listener from a context's registry, looked up when
	 * called (the registry may be defined after the caller).
	 * @param servers provides the registry
	 * @return the server, or {@code null} when there is no registry or it is not running
	 */
	public static AriadneServer application(ObjectProvider<AriadneServers> servers) {
		AriadneServers registry = servers.getIfAvailable();
		return (registry != null) ? registry.application() : null;
	}

	/**
	 * Returns every running server: the application's first, then its additional listeners by
	 * name, then the management listener.
	 * @return the servers
	 */
	public List<AriadneServer> all() {
		return this.servers.values()
			.stream()
			.sorted(Comparator.comparingInt((AriadneServer server) -> rank(server.config().name()))
				.thenComparing((server) -> server.config().name()))
			.toList();
	}

	private static int rank(String name) {
		return APPLICATION.equals(name) ? 0 : MANAGEMENT.equals(name) ? 2 : 1;
	}

	/**
	 * Adds a listener, told at once about the servers already running.
	 * @param listener the listener
	 */
	public void addListener(Listener listener) {
		this.listeners.add(listener);
		this.servers.values().forEach(listener::registered);
	}

	/**
	 * Removes a listener.
	 * @param listener the listener
	 */
	public void removeListener(Listener listener) {
		this.listeners.remove(listener);
	}

}
