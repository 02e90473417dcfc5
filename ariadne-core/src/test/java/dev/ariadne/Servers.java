package dev.ariadne;

import java.util.function.UnaryOperator;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Starts servers for socket-level tests: loopback, an ephemeral port, the given model.
 */
final class Servers {

	private Servers() {
	}

	/**
	 * Skips the calling test when this JVM cannot run the model (virtual threads before
	 * Java 21).
	 * @param model the model
	 */
	static void assumeSupported(IoModel model) {
		assumeTrue(model != IoModel.VIRTUAL_THREADS || Runtime.version().feature() >= 21,
				"virtual-threads needs Java 21 or later; this JVM is " + Runtime.version().feature());
	}

	/**
	 * Starts a server.
	 * @param model the I/O model
	 * @param config changes to the defaults
	 * @param routes the routes
	 * @return the started server
	 */
	static AriadneServer start(IoModel model, UnaryOperator<ServerConfig.Builder> config, Route... routes) {
		return start(model, config, UnaryOperator.identity(), routes);
	}

	/**
	 * Starts a server built with more than its configuration and routes.
	 * @param model the I/O model
	 * @param config changes to the defaults
	 * @param server changes to the server's builder
	 * @param routes the routes
	 * @return the started server
	 */
	static AriadneServer start(IoModel model, UnaryOperator<ServerConfig.Builder> config,
			UnaryOperator<AriadneServer.Builder> server, Route... routes) {
		assumeSupported(model);
		ServerConfig.Builder builder = ServerConfig.builder()
			.address(RawClient.LOOPBACK)
			.port(0)
			.ioModel(model)
			.shutdownGracePeriod(java.time.Duration.ofSeconds(5));
		AriadneServer.Builder built = server.apply(AriadneServer.builder(config.apply(builder).build()));
		for (Route route : routes) {
			built.route(route);
		}
		AriadneServer started = built.build();
		started.start();
		return started;
	}

}
