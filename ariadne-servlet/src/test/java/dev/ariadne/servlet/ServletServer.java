package dev.ariadne.servlet;

import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

import jakarta.servlet.ServletException;

import dev.ariadne.AriadneServer;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.FallbackPools;
import dev.ariadne.server.routing.Route;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A servlet deployment served by a real Ariadne server on loopback, for socket-level tests.
 */
final class ServletServer implements AutoCloseable {

	private final ServletDeployment deployment;

	private final AriadneServer server;

	private ServletServer(ServletDeployment deployment, AriadneServer server) {
		this.deployment = deployment;
		this.server = server;
	}

	/**
	 * Skips the calling test when this JVM cannot run the model.
	 * @param model the model
	 */
	static void assumeSupported(IoModel model) {
		assumeTrue(model != IoModel.VIRTUAL_THREADS || Runtime.version().feature() >= 21,
				"virtual-threads needs Java 21 or later; this JVM is " + Runtime.version().feature());
	}

	/**
	 * Starts a deployment and a server for it.
	 * @param model the I/O model
	 * @param deployment the deployment, not yet started
	 * @param config changes to the server defaults
	 * @param routes routes served ahead of the servlets
	 * @return the running server
	 */
	static ServletServer start(IoModel model, ServletDeployment.Builder deployment,
			UnaryOperator<ServerConfig.Builder> config, Route... routes) throws ServletException {
		return start(model, deployment, config, (builder, built) -> {
		}, routes);
	}

	/**
	 * Starts a deployment and a server for it, with changes to the server builder (listeners,
	 * fallback pools).
	 * @param model the I/O model
	 * @param deployment the deployment, not yet started
	 * @param config changes to the server defaults
	 * @param server changes to the server builder, given the started deployment, after the
	 * fallback is set
	 * @param routes routes served ahead of the servlets
	 * @return the running server
	 */
	static ServletServer start(IoModel model, ServletDeployment.Builder deployment,
			UnaryOperator<ServerConfig.Builder> config, BiConsumer<AriadneServer.Builder, ServletDeployment> server,
			Route... routes) throws ServletException {
		assumeSupported(model);
		ServletDeployment built = deployment.build();
		built.start();
		ServerConfig.Builder settings = ServerConfig.builder()
			.address(Wire.LOOPBACK)
			.port(0)
			.ioModel(model)
			.shutdownGracePeriod(Duration.ofSeconds(2));
		AriadneServer.Builder builder = AriadneServer.builder(config.apply(settings).build())
			.fallback(built.handler(), FallbackPools.DEFAULT);
		for (Route route : routes) {
			builder.route(route);
		}
		server.accept(builder, built);
		AriadneServer started = builder.build();
		started.start();
		return new ServletServer(built, started);
	}

	static ServletServer start(IoModel model, ServletDeployment.Builder deployment) throws ServletException {
		return start(model, deployment, UnaryOperator.identity());
	}

	int port() {
		return this.server.port();
	}

	AriadneServer server() {
		return this.server;
	}

	ServletDeployment deployment() {
		return this.deployment;
	}

	@Override
	public void close() {
		this.server.stop();
		this.deployment.stop();
	}

}
